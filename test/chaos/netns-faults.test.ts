/**
 * Network faults between real processes (compiled mains, real etcd, TLS NATS), made with a network namespace
 * and veth links (test/support/netns.fault.ts): netem drops every packet of one link (a partition: no RST,
 * connections stall as when a cable is cut) or delays it, then the link heals.
 *
 * - aggregator ↔ an aggregated server (wardle, in the namespace; its etcd link stays healthy): requests for
 *   wardle get kube's 503 Status instead of hanging once the APIService is Available=False (FailedDiscoveryCheck),
 *   a request caught in flight ends with a Status too, other groups and discovery keep answering; after healing
 *   the APIService is Available again and wardle answers; under 200 ms of delay everything works.
 * - core-api (in the namespace; clients reach it on a healthy link) ↔ etcd: /readyz names the failing etcd check,
 *   a write answers with a Status within the request timeout and is not acknowledged; after healing readiness
 *   recovers, every acknowledged write is there, and a watcher saw strictly increasing resourceVersions with
 *   every acknowledged write (resuming, or relisting after a 410); under 200 ms of delay writes and watches work.
 *
 * Needs root (ip netns, tc netem); skipped with the reason otherwise. Run with `npm run chaos` or `npm test`.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePki, writeKubeconfig, type PkiPaths } from '@kube/pki';
import { freePorts, startEtcd, SupervisedProcess, tempDir, type EtcdProcess } from '@kube/testing';
import { kubectlSession, NetnsFault, netnsUnavailable, type SecuredNats, serverProcessEnv, startSecuredNats, until } from '@test/support';

const ROOT = join(__dirname, '..', '..');
const main = (app: string): string => join(ROOT, `dist/apps/${app}/src/main.js`);
const unavailable = netnsUnavailable();
if (unavailable) console.warn(`skipping network fault tests: ${unavailable}`);
/** Non-long-running requests end with 504 after this long (kube's --request-timeout), short to keep runs short. */
const REQUEST_TIMEOUT_SECONDS = 10;
/** A request not answered within this long hangs: the test fails rather than waits for ever. */
const HANG_MS = 45_000;

interface Answer {
  status: number;
  body: string;
  ms: number;
}

interface Client {
  host: string;
  port: number;
  pki: PkiPaths;
}

/** One request as the admin (client certificate), on a fresh connection; rejects when nothing answers in HANG_MS. */
function call(c: Client, method: string, path: string, body?: unknown): Promise<Answer> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: c.host, port: c.port, method, path, ca: readFileSync(c.pki.caCert), cert: readFileSync(c.pki.adminCert), key: readFileSync(c.pki.adminKey), agent: false, headers: body ? { 'content-type': 'application/json' } : {} },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, ms: performance.now() - t0 }));
        res.on('error', reject);
      },
    );
    req.setTimeout(HANG_MS, () => req.destroy(new Error(`${method} ${path} hung: no answer within ${HANG_MS} ms`)));
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

const json = (a: Answer): Record<string, unknown> => JSON.parse(a.body) as Record<string, unknown>;

/** An API server process's environment: the shared part, its port, and the short request timeout. */
function serverEnv(pki: PkiPaths, bindAddress: string, port: number, etcdEndpoint: string): NodeJS.ProcessEnv {
  return { ...serverProcessEnv(pki, etcdEndpoint, bindAddress), KUBE_SECURE_PORT: String(port), KUBE_REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_SECONDS) };
}

/** etcd on the host, listening on loopback and on `hostIp` (a link's host end) so the namespace reaches it. */
async function etcdAlsoOn(hostIp: string): Promise<EtcdProcess> {
  const [clientPort, peerPort] = await freePorts(2);
  return startEtcd({ clientPort, peerPort, extraArgs: [`--listen-client-urls=http://127.0.0.1:${clientPort},http://${hostIp}:${clientPort}`] });
}

async function waitRunning(procs: readonly SupervisedProcess[], cond: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const ok = await until(async () => {
    for (const p of procs) if (!p.running) throw new Error(`${p.describeExit()}:\n${p.output().split('\n').slice(-20).join('\n')}`);
    return cond().catch(() => false);
  }, timeoutMs);
  if (!ok) throw new Error(`not ready within ${timeoutMs} ms:\n${procs.map((p) => `${p.name}: ${p.output().split('\n').slice(-10).join('\n')}`).join('\n')}`);
}

describe.skipIf(unavailable !== undefined)('network faults between the aggregator and an aggregated server', () => {
  const WARDLE = '/apis/wardle.example.com/v1alpha1';
  const APISERVICE = '/apis/apiregistration.k8s.io/v1/apiservices/v1alpha1.wardle.example.com';
  const dir = tempDir('netns-aggregator');
  let net: NetnsFault;
  let etcd: EtcdProcess;
  let nats: SecuredNats;
  let front: Client;
  const procs: SupervisedProcess[] = [];
  let kubeconfig = '';
  const { ok } = kubectlSession(undefined, () => kubeconfig);

  const available = async (): Promise<Record<string, string> | undefined> => {
    const conditions = ((json(await call(front, 'GET', APISERVICE)).status as { conditions?: Array<Record<string, string>> } | undefined)?.conditions ?? []);
    return conditions.find((c) => c.type === 'Available');
  };

  beforeAll(async () => {
    expect(existsSync(main('aggregator')), 'build dist first (npx swc apps libs scripts bench -d dist)').toBe(true);
    // `data` carries aggregator ↔ wardle (faulted); `ctl` carries wardle ↔ etcd (never faulted).
    net = await NetnsFault.create(['ctl', 'data']);
    const data = net.link('data');
    // The front door listens on the data link's host end: wardle registers through it, the test calls it there.
    const pki = await ensurePki(join(dir, 'pki'), { extraSans: [data.hostIp] });
    [etcd, nats] = await Promise.all([etcdAlsoOn(net.link('ctl').hostIp), startSecuredNats(dir)]);
    const [core, ext, agg, wardle] = await freePorts(4);
    front = { host: data.hostIp, port: agg, pki };
    kubeconfig = join(dir, 'kubeconfig');
    await writeKubeconfig(kubeconfig, { server: `https://${data.hostIp}:${agg}`, caPem: readFileSync(pki.caCert, 'utf8'), clientCertPem: readFileSync(pki.adminCert, 'utf8'), clientKeyPem: readFileSync(pki.adminKey, 'utf8') });
    const host = (name: string, bind: string, port: number, extra: NodeJS.ProcessEnv): SupervisedProcess =>
      new SupervisedProcess({ name, command: process.execPath, args: [main(name)], env: { ...serverEnv(pki, bind, port, etcd.endpoint), ...nats.env(name), ...extra }, keepLines: 2_000 });
    procs.push(host('core-api', '127.0.0.1', core, {}), host('extensions', '127.0.0.1', ext, {}));
    procs.push(
      host('aggregator', data.hostIp, agg, {
        KUBE_PROXY_CLIENT_CERT_FILE: pki.frontProxyClientCert,
        KUBE_PROXY_CLIENT_KEY_FILE: pki.frontProxyClientKey,
        KUBE_BACKEND_CA_FILE: pki.caCert,
        KUBE_AGGREGATOR_BACKENDS: `core-api=https://127.0.0.1:${core},extensions=https://127.0.0.1:${ext}`,
      }),
    );
    await waitRunning(procs, async () => (await call(front, 'GET', '/readyz')).status === 200, 90_000);
    // wardle in the namespace: its serving certificate is issued for the address it registers (the data link).
    procs.push(
      net.spawn('sample-apiserver', process.execPath, [main('sample-apiserver')], {
        ...serverEnv(pki, data.nsIp, wardle, `http://${net.link('ctl').hostIp}:${etcd.clientPort}`),
        KUBE_TLS_CERT_FILE: '',
        KUBE_TLS_PRIVATE_KEY_FILE: '',
        KUBE_SIGNING_CA_CERT_FILE: pki.caCert,
        KUBE_SIGNING_CA_KEY_FILE: pki.caKey,
        KUBE_CERT_DIR: join(dir, 'wardle-certs'),
        KUBE_REGISTER_URL: `https://${data.hostIp}:${agg}`,
        KUBE_REGISTER_ADDRESS: data.nsIp,
        KUBE_REGISTER_CERT_FILE: pki.adminCert,
        KUBE_REGISTER_KEY_FILE: pki.adminKey,
        KUBE_REGISTER_CA_FILE: pki.caCert,
      }),
    );
    await waitRunning(procs, async () => (await available())?.status === 'True', 90_000);
    await ok(['create', 'namespace', 'chaos']);
    expect((await call(front, 'POST', `${WARDLE}/namespaces/chaos/flunders`, { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'before' } })).status).toBe(201);
  }, 240_000);

  afterAll(async () => {
    for (const p of [...procs].reverse()) await p.stop();
    await net?.destroy();
    await nats?.nats.stop();
    await etcd?.stop();
  });

  it('answers 503 for the partitioned group, keeps serving the others, and recovers when the link heals', async () => {
    await net.partition('data');
    try {
      // Caught in flight: the backend never answers, the request still ends with a Status (504 or 503).
      const inFlight = await call(front, 'GET', `${WARDLE}/namespaces/chaos/flunders/before`);
      expect([503, 504], inFlight.body).toContain(inFlight.status);
      expect(json(inFlight)).toMatchObject({ kind: 'Status', status: 'Failure', code: inFlight.status });

      const t0 = performance.now();
      expect(await until(async () => (await available())?.status === 'False', 60_000)).toBe(true);
      console.log(`wardle partitioned: in-flight request ended ${inFlight.status} after ${inFlight.ms.toFixed(0)} ms; Available=False ${(performance.now() - t0).toFixed(0)} ms later`);
      expect(await available()).toMatchObject({ status: 'False', reason: 'FailedDiscoveryCheck', message: expect.stringContaining(`failing or missing response from https://${net.link('data').nsIp}`) });
      // Known unavailable: kube's 503 at once, not a wait for the request timeout.
      const refused = await call(front, 'GET', `${WARDLE}/namespaces/chaos/flunders`);
      expect(refused.status, refused.body).toBe(503);
      expect(json(refused)).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'ServiceUnavailable', code: 503 });
      expect(refused.ms).toBeLessThan(REQUEST_TIMEOUT_SECONDS * 1000);
      console.log(`then 503 in ${refused.ms.toFixed(0)} ms`);
      // Everything else keeps working, discovery included.
      const groups = await call(front, 'GET', '/apis');
      expect(groups.status).toBe(200);
      expect(groups.body).toContain('apiextensions.k8s.io');
      expect((await call(front, 'GET', '/api/v1/namespaces/chaos')).status).toBe(200);
      expect(await ok(['get', 'namespaces'])).toMatch(/^chaos\s+Active/m);
      await ok(['api-resources', '--api-group=apps']);
    } finally {
      await net.heal('data');
    }
    expect(await until(async () => (await available())?.status === 'True', 60_000)).toBe(true);
    const back = await call(front, 'GET', `${WARDLE}/namespaces/chaos/flunders/before`);
    expect(back.status, back.body).toBe(200);
    expect((await call(front, 'POST', `${WARDLE}/namespaces/chaos/flunders`, { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'after-heal' } })).status).toBe(201);
  }, 180_000);

  it('ends a watch proxied to the partitioned backend, so its client relists instead of waiting for ever', async () => {
    expect(await until(async () => (await available())?.status === 'True', 60_000)).toBe(true);
    // kube's aggregator notices a dead backend connection by its HTTP/2 health check (ReadIdleTimeout); ours
    // ends the proxied streams of an APIService when it turns unavailable.
    let ended = false;
    const stream = await new Promise<IncomingMessage>((resolve, reject) => {
      const { host, port, pki } = front;
      const req = httpsRequest({ host, port, path: `${WARDLE}/namespaces/chaos/flunders?watch=1`, ca: readFileSync(pki.caCert), cert: readFileSync(pki.adminCert), key: readFileSync(pki.adminKey), agent: false }, resolve);
      req.on('error', reject);
      req.end();
    });
    expect(stream.statusCode).toBe(200);
    stream.on('data', () => undefined);
    stream.on('close', () => (ended = true));
    stream.on('error', () => (ended = true));
    // The stream is up and stays up while the link is healthy.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(ended).toBe(false);
    await net.partition('data');
    try {
      expect(await until(async () => (await available())?.status === 'False', 60_000)).toBe(true);
      expect(await until(async () => ended, 30_000), 'the watch still hangs on a partitioned backend').toBe(true);
    } finally {
      stream.destroy();
      await net.heal('data');
    }
  }, 180_000);

  it('keeps working with 200 ms of delay each way', async () => {
    expect(await until(async () => (await available())?.status === 'True', 60_000)).toBe(true);
    await net.delay('data', 200);
    try {
      const slow = await call(front, 'GET', `${WARDLE}/namespaces/chaos/flunders/before`);
      expect(slow.status, slow.body).toBe(200);
      // The delay is really there: a proxied request crosses the link at least once each way.
      expect(slow.ms).toBeGreaterThanOrEqual(400);
      expect((await call(front, 'POST', `${WARDLE}/namespaces/chaos/flunders`, { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'delayed' } })).status).toBe(201);
      const list = await call(front, 'GET', `${WARDLE}/namespaces/chaos/flunders`);
      expect(list.status).toBe(200);
      expect(((json(list).items as Array<{ metadata: { name: string } }>) ?? []).map((i) => i.metadata.name).sort()).toEqual(['after-heal', 'before', 'delayed']);
      // The availability check (5 s deadline) still passes.
      await new Promise((r) => setTimeout(r, 4_000));
      expect(await available()).toMatchObject({ status: 'True' });
    } finally {
      await net.heal('data');
    }
  }, 120_000);
});

interface WatchEvent {
  type: string;
  object: { metadata?: { name?: string; resourceVersion?: string }; code?: number };
}

/**
 * A reflector over raw HTTPS: list, then watch from the list's resourceVersion, resuming from the last event's
 * after a stream ends, relisting after a 410. Records every resourceVersion order violation and every name seen.
 */
class Follower {
  readonly seen = new Set<string>();
  readonly violations: string[] = [];
  relists = 0;
  resumes = 0;
  private rv: number | undefined;
  private stopped = false;
  private current: ReturnType<typeof httpsRequest> | undefined;
  private readonly done: Promise<void>;

  constructor(private readonly c: Client, private readonly path: string) {
    this.done = this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.current?.destroy();
    await this.done;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      try {
        if (this.rv === undefined) await this.list();
        else await this.watch();
      } catch {
        // The server or the link failed: resume (or relist) shortly, as client-go's reflector does.
      }
      if (!this.stopped) await new Promise((r) => setTimeout(r, 500));
    }
  }

  private async list(): Promise<void> {
    const r = await call(this.c, 'GET', this.path);
    if (r.status !== 200) return;
    const list = json(r) as { metadata: { resourceVersion: string }; items: Array<{ metadata: { name: string } }> };
    for (const item of list.items) this.seen.add(item.metadata.name);
    this.rv = Number(list.metadata.resourceVersion);
  }

  private watch(): Promise<void> {
    this.resumes++;
    return new Promise((resolve, reject) => {
      const { host, port, pki } = this.c;
      const req = httpsRequest(
        { host, port, path: `${this.path}?watch=1&timeoutSeconds=20&resourceVersion=${this.rv}`, ca: readFileSync(pki.caCert), cert: readFileSync(pki.adminCert), key: readFileSync(pki.adminKey), agent: false },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            return resolve();
          }
          let buffered = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buffered += chunk;
            let nl: number;
            while ((nl = buffered.indexOf('\n')) >= 0) {
              this.event(JSON.parse(buffered.slice(0, nl)) as WatchEvent);
              buffered = buffered.slice(nl + 1);
            }
          });
          res.on('end', resolve);
          res.on('error', reject);
        },
      );
      this.current = req;
      // A stream that says nothing for this long is dead (the server's own timeout is 20 s).
      req.setTimeout(HANG_MS, () => req.destroy(new Error('watch stalled')));
      req.on('error', reject);
      req.end();
    });
  }

  private event(e: WatchEvent): void {
    if (e.type === 'ERROR') {
      if (e.object.code === 410) {
        this.relists++;
        this.rv = undefined;
      }
      return;
    }
    const rv = Number(e.object.metadata?.resourceVersion);
    if (this.rv !== undefined && !(rv > this.rv)) this.violations.push(`${e.type} ${e.object.metadata?.name} at ${rv} after ${this.rv}`);
    this.rv = rv;
    if (e.type !== 'BOOKMARK' && e.object.metadata?.name) this.seen.add(e.object.metadata.name);
  }
}

describe.skipIf(unavailable !== undefined)('network faults between core-api and etcd', () => {
  const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
  const dir = tempDir('netns-etcd');
  let net: NetnsFault;
  let etcd: EtcdProcess;
  let api: Client;
  let core: SupervisedProcess;
  let follower: Follower;
  /** Every write core-api acknowledged: name → resourceVersion. */
  const acknowledged = new Map<string, string>();
  let serial = 0;

  const create = async (): Promise<Answer> => {
    const name = `cm-${++serial}`;
    const r = await call(api, 'POST', CONFIGMAPS, { metadata: { name }, data: { n: String(serial) } });
    if (r.status === 201) acknowledged.set(name, (json(r).metadata as { resourceVersion: string }).resourceVersion);
    return r;
  };
  const readyz = async (): Promise<Answer> => call(api, 'GET', '/readyz?verbose');

  beforeAll(async () => {
    expect(existsSync(main('core-api')), 'build dist first (npx swc apps libs scripts bench -d dist)').toBe(true);
    // `client` carries the test's requests to core-api (never faulted); `etcd` carries core-api ↔ etcd.
    net = await NetnsFault.create(['client', 'etcd']);
    const pki = await ensurePki(join(dir, 'pki'), { extraSans: [net.link('client').nsIp] });
    etcd = await etcdAlsoOn(net.link('etcd').hostIp);
    const [port] = await freePorts(1);
    api = { host: net.link('client').nsIp, port, pki };
    core = net.spawn('core-api', process.execPath, [main('core-api')], serverEnv(pki, api.host, port, `http://${net.link('etcd').hostIp}:${etcd.clientPort}`));
    await waitRunning([core], async () => (await readyz()).status === 200, 90_000);
    for (let i = 0; i < 3; i++) expect((await create()).status).toBe(201);
    follower = new Follower(api, CONFIGMAPS);
  }, 180_000);

  afterAll(async () => {
    await follower?.stop();
    await net?.destroy();
    await etcd?.stop();
  });

  it('turns unready and fails writes with a Status while partitioned, and loses nothing it acknowledged', async () => {
    await net.partition('etcd');
    let failed: Answer | undefined;
    try {
      expect(await until(async () => (await readyz()).status !== 200, 60_000)).toBe(true);
      const verbose = await readyz();
      expect(verbose.status).toBe(500);
      expect(verbose.body).toMatch(/^\[-\]etcd failed: /m);
      expect(verbose.body).toMatch(/^readyz check failed$/m);
      // A write answers, with a Status, instead of hanging; it is not acknowledged.
      failed = await create();
      console.log(`write while partitioned: ${failed.status} after ${failed.ms.toFixed(0)} ms: ${failed.body}`);
      expect(failed.status, failed.body).toBeGreaterThanOrEqual(500);
      expect(json(failed)).toMatchObject({ kind: 'Status', status: 'Failure', code: failed.status });
      expect(core.running).toBe(true);
    } finally {
      await net.heal('etcd');
    }
    expect(await until(async () => (await readyz()).status === 200, 60_000)).toBe(true);
    expect(await until(async () => (await create()).status === 201, 60_000)).toBe(true);
    // Every acknowledged write is there with its resourceVersion (nothing wrote them since).
    const list = json(await call(api, 'GET', CONFIGMAPS)) as { items: Array<{ metadata: { name: string; resourceVersion: string } }> };
    const stored = new Map(list.items.map((i) => [i.metadata.name, i.metadata.resourceVersion]));
    for (const [name, rv] of acknowledged) expect(stored.get(name), name).toBe(rv);
    // A timeout says nothing about the outcome (kube's neither): the write may have reached etcd before the cut.
    console.log(`the write answered ${failed?.status} while partitioned ${stored.has(`cm-${acknowledged.size}`) ? 'was' : 'was not'} applied`);
    // The watcher caught up with every acknowledged write, in resourceVersion order.
    expect(await until(async () => [...acknowledged.keys()].every((n) => follower.seen.has(n)), 60_000), `missed: ${[...acknowledged.keys()].filter((n) => !follower.seen.has(n))}`).toBe(true);
    expect(follower.violations).toEqual([]);
    console.log(`etcd partition: ${acknowledged.size} acknowledged writes kept, watcher resumed ${follower.resumes} times, relisted ${follower.relists} times`);
  }, 240_000);

  it('catches up on what another server wrote meanwhile, even past a compaction, without gaps', async () => {
    const [otherPort] = await freePorts(1);
    const other: Client = { host: '127.0.0.1', port: otherPort, pki: api.pki };
    const peer = new SupervisedProcess({ name: 'core-api-2', command: process.execPath, args: [main('core-api')], env: serverEnv(api.pki, '127.0.0.1', otherPort, etcd.endpoint), keepLines: 2_000 });
    try {
      await waitRunning([peer], async () => (await call(other, 'GET', '/readyz')).status === 200, 90_000);
      await net.partition('etcd');
      try {
        expect(await until(async () => (await readyz()).status !== 200, 60_000)).toBe(true);
        for (let i = 0; i < 5; i++) {
          const name = `peer-${i}`;
          const r = await call(other, 'POST', CONFIGMAPS, { metadata: { name } });
          expect(r.status, r.body).toBe(201);
          acknowledged.set(name, (json(r).metadata as { resourceVersion: string }).resourceVersion);
        }
        // etcd forgets the history the partitioned server has not seen yet.
        const head = await fetch(`${etcd.endpoint}/v3/kv/range`, { method: 'POST', body: JSON.stringify({ key: Buffer.from('/').toString('base64') }) }).then((r) => r.json() as Promise<{ header: { revision: string } }>);
        const compacted = await fetch(`${etcd.endpoint}/v3/kv/compaction`, { method: 'POST', body: JSON.stringify({ revision: head.header.revision, physical: true }) });
        expect(compacted.status).toBe(200);
      } finally {
        await net.heal('etcd');
      }
      expect(await until(async () => (await readyz()).status === 200, 60_000)).toBe(true);
      expect(await until(async () => [...acknowledged.keys()].every((n) => follower.seen.has(n)), 60_000), `missed: ${[...acknowledged.keys()].filter((n) => !follower.seen.has(n))}`).toBe(true);
      expect(follower.violations).toEqual([]);
      const list = json(await call(api, 'GET', CONFIGMAPS)) as { items: Array<{ metadata: { name: string; resourceVersion: string } }> };
      const stored = new Map(list.items.map((i) => [i.metadata.name, i.metadata.resourceVersion]));
      for (const [name, rv] of acknowledged) expect(stored.get(name), name).toBe(rv);
      console.log(`past a compaction: watcher resumed ${follower.resumes} times, relisted ${follower.relists} times`);
    } finally {
      await peer.stop();
    }
  }, 240_000);

  it('keeps writing and watching with 200 ms of delay each way', async () => {
    await net.delay('etcd', 200);
    try {
      for (let i = 0; i < 3; i++) {
        const r = await create();
        expect(r.status, r.body).toBe(201);
        // A write crosses the link at least once each way.
        expect(r.ms).toBeGreaterThanOrEqual(400);
      }
      expect(await until(async () => [...acknowledged.keys()].every((n) => follower.seen.has(n)), 60_000)).toBe(true);
      expect((await readyz()).status).toBe(200);
    } finally {
      await net.heal('etcd');
    }
    expect(follower.violations).toEqual([]);
  }, 120_000);
});
