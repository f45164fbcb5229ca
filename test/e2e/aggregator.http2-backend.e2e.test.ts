/**
 * Issue 30, watch p99: the aggregator proxies watches to its backends over HTTP/2 (as kube's aggregator does),
 * streams multiplexed on a few connections. Built processes (`npm run build` first; `npm test` builds): core-api,
 * extensions and the aggregator, each its own process, so core-api can be killed with -9. Proves the h2 path is
 * taken (100 proxied watches hold a handful of TCP connections to core-api, not 100), that every event arrives
 * (kubectl get -w over h2 to the front door, raw HTTP/1.1 watches), that closing 100 client watches ends 100
 * watches at core-api, and that kill -9 of core-api ends the proxied watches (the client sees the end and can
 * watch again once core-api is back). KUBE_PROXY_HTTP2 is opt-in: the aggregator here gets it set (unless the
 * environment says otherwise: KUBE_PROXY_HTTP2=false runs the same checks against the HTTP/1.1 path, which fails
 * the connection count).
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePki, writeKubeconfig, type PkiPaths } from '@kube/pki';
import { freePort, kubectlPath, startEtcd, tempDir, type EtcdProcess } from '@kube/testing';
import { expectStatus, metricTotal, until } from '@test/support';
import { coreApiEnv, startApp, stopApp, waitReady } from '../../bench/servers';

const ROOT = join(__dirname, '../..');
const NS = 'default';

interface Watch {
  req: ClientRequest;
  names: string[];
  ended: Promise<void>;
}

describe('the aggregator proxies watches to its backends over HTTP/2', () => {
  let etcd: EtcdProcess;
  let pki: PkiPaths;
  let tls: { ca: Buffer; cert: Buffer; key: Buffer };
  let corePort = 0;
  let aggPort = 0;
  let core: ChildProcess;
  const children: ChildProcess[] = [];
  let kubeconfig = '';

  function call(port: number, method: string, path: string, body?: unknown): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const data = body === undefined ? undefined : JSON.stringify(body);
      const req = httpsRequest({ host: '127.0.0.1', port, method, path, ...tls, agent: false, headers: data ? { 'Content-Type': 'application/json' } : {} }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end(data);
    });
  }

  /** A raw HTTP/1.1 watch through the front door: the names of the objects of its events, as they arrive. */
  function watch(path: string): Promise<Watch> {
    return new Promise((resolve, reject) => {
      const names: string[] = [];
      let endedResolve: () => void = () => undefined;
      const ended = new Promise<void>((r) => (endedResolve = r));
      const req = httpsRequest({ host: '127.0.0.1', port: aggPort, path, ...tls, agent: false }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`watch answered ${res.statusCode}`));
        let pending = '';
        res.on('data', (c: Buffer) => {
          pending += c.toString();
          let nl;
          while ((nl = pending.indexOf('\n')) >= 0) {
            names.push((JSON.parse(pending.slice(0, nl)) as { object: { metadata: { name: string } } }).object.metadata.name);
            pending = pending.slice(nl + 1);
          }
        });
        res.on('close', endedResolve);
        res.on('error', () => undefined);
        resolve({ req, names, ended });
      });
      req.on('error', (err) => {
        endedResolve();
        reject(err);
      });
      req.end();
    });
  }

  /** Established TCP connections to core-api's port (whoever holds them: only the aggregator connects there). */
  function connectionsToCore(): number {
    const hexPort = corePort.toString(16).toUpperCase().padStart(4, '0');
    let n = 0;
    for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 3 && f[2].endsWith(`:${hexPort}`) && f[3] === '01') n++;
    }
    return n;
  }

  async function coreWatchers(): Promise<number> {
    const r = await call(corePort, 'GET', '/metrics');
    return metricTotal(r.body, 'apiserver_registered_watchers', { kind: 'ConfigMap' });
  }

  function startCore(): ChildProcess {
    const child = startApp(ROOT, 'core-api', coreApiEnv(etcd.endpoint, corePort, pki));
    children.push(child);
    return child;
  }

  beforeAll(async () => {
    etcd = await startEtcd();
    const dir = tempDir('h2-backend');
    pki = await ensurePki(join(dir, 'pki'));
    tls = { ca: readFileSync(pki.caCert), cert: readFileSync(pki.adminCert), key: readFileSync(pki.adminKey) };
    corePort = await freePort();
    const extPort = await freePort();
    core = startCore();
    children.push(startApp(ROOT, 'extensions', { ...coreApiEnv(etcd.endpoint, extPort, pki) }));
    await Promise.all([waitReady(corePort, tls), waitReady(extPort, tls)]);
    // Chosen late: the backends' own outgoing connections take ephemeral ports meanwhile.
    aggPort = await freePort();
    children.push(
      startApp(ROOT, 'aggregator', {
        KUBE_ETCD_ENDPOINTS: etcd.endpoint,
        KUBE_SECURE_PORT: String(aggPort),
        KUBE_TLS_CERT_FILE: pki.apiserverCert,
        KUBE_TLS_PRIVATE_KEY_FILE: pki.apiserverKey,
        KUBE_CLIENT_CA_FILE: pki.caCert,
        KUBE_PROXY_CLIENT_CERT_FILE: pki.frontProxyClientCert,
        KUBE_PROXY_CLIENT_KEY_FILE: pki.frontProxyClientKey,
        KUBE_AGGREGATOR_BACKENDS: `core-api=https://127.0.0.1:${corePort},extensions=https://127.0.0.1:${extPort}`,
        KUBE_MAX_REQUESTS_INFLIGHT: '2000',
        KUBE_PROXY_HTTP2: process.env.KUBE_PROXY_HTTP2 ?? 'true',
      }),
    );
    await waitReady(aggPort, tls);
    kubeconfig = join(dir, 'kubeconfig');
    await writeKubeconfig(kubeconfig, { server: `https://127.0.0.1:${aggPort}`, caPem: readFileSync(pki.caCert, 'utf8'), clientCertPem: readFileSync(pki.adminCert, 'utf8'), clientKeyPem: readFileSync(pki.adminKey, 'utf8') });
  }, 180_000);

  afterAll(async () => {
    for (const c of children) await stopApp(c);
    await etcd?.stop();
  }, 60_000);

  it('carries 100 watches and kubectl get -w on a few connections to core-api, every event delivered to each; closing them ends them at core-api', async () => {
    const before = connectionsToCore();
    const kubectl = spawn(kubectlPath(), ['--kubeconfig', kubeconfig, 'get', 'configmaps', '-n', NS, '--watch-only', '-o', 'name'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let kubectlOut = '';
    kubectl.stdout.on('data', (d: Buffer) => (kubectlOut += d.toString()));
    let watches: Watch[] = [];
    try {
      watches = await Promise.all(Array.from({ length: 100 }, () => watch(`/api/v1/namespaces/${NS}/configmaps?watch=true&allowWatchBookmarks=false`)));
      // kubectl's watch starts after its discovery: slow on a loaded machine.
      expect(await until(async () => (await coreWatchers()) >= 101, 90_000), 'core-api registered the 100 watches and kubectl').toBe(true);
      // The HTTP/1.1 path would hold a connection per watch: over h2 they share one or two.
      expect(connectionsToCore() - before).toBeLessThan(10);
      const names = Array.from({ length: 5 }, (_, i) => `h2-event-${i}`);
      for (const name of names) expectStatus(await call(aggPort, 'POST', `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name }, data: { k: name } }), 201, `POST ${name}`);
      expect(await until(async () => watches.every((w) => w.names.length >= names.length), 60_000), 'every watcher got every event').toBe(true);
      for (const w of watches) expect(w.names).toEqual(names);
      expect(await until(async () => names.every((n) => kubectlOut.includes(`configmap/${n}`)), 60_000), `kubectl saw every event:\n${kubectlOut}`).toBe(true);
    } finally {
      for (const w of watches) w.req.destroy();
      kubectl.kill();
    }
    // Closing the 100 client watches (and kubectl's) resets their backend streams: core-api's watches end.
    expect(await until(async () => (await coreWatchers()) === 0, 60_000), `core-api still holds watches the clients closed: ${await coreWatchers()}`).toBe(true);
  }, 240_000);

  it('kill -9 of core-api ends the proxied watches; once it is back, a watch works again', async () => {
    const watches = await Promise.all(Array.from({ length: 10 }, () => watch(`/api/v1/namespaces/${NS}/configmaps?watch=true`)));
    expect(await until(async () => (await coreWatchers()) === 10, 30_000), `core-api watchers: ${await coreWatchers()}`).toBe(true);
    core.kill('SIGKILL');
    await Promise.race([Promise.all(watches.map((w) => w.ended)), new Promise((_, reject) => setTimeout(() => reject(new Error('watches still open after kill -9')), 30_000))]);
    core = startCore();
    await waitReady(corePort, tls);
    let again: Watch | undefined;
    expect(await until(async () => (again = await watch(`/api/v1/namespaces/${NS}/configmaps?watch=true&allowWatchBookmarks=false`).catch(() => undefined)) !== undefined, 60_000)).toBe(true);
    expectStatus(await call(aggPort, 'POST', `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: 'after-restart' } }), 201, 'POST after-restart');
    expect(await until(async () => again?.names.includes('after-restart') === true, 60_000)).toBe(true);
    again?.req.destroy();
  }, 180_000);
});
