/**
 * `KUBE_REPLICAS=2 npm start`: two processes of every API service and of the controller-manager, each on its own
 * port, the aggregators behind the launcher's TCP balancer on the front-door port. Requests through it reach both
 * replicas of each service (their own metrics say so), kubectl of both ends of the supported skew works through
 * it, a replica killed with -9 costs no request and is restarted, and every child gets the open-file hard limit.
 * Runs the compiled launcher (dist/scripts/start.js; `npm test` builds first) on free ports in a temp directory,
 * started with a soft limit of 1,024 descriptors as a login shell often gives.
 */
import { readFileSync } from 'node:fs';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '@kube/testing';
import { expectStatus, kubectlSession, metricTotal, until } from '@test/support';
import { childPids, processName } from '../../bench/soak.sampler';
import { launchStack, type LaunchedStack } from '../../bench/soak.stack';

const REPLICATED = ['core-api', 'extensions', 'aggregator', 'sample-apiserver', 'counts-apiserver', 'controller-manager'];
/** The launcher's KUBE_REPLICA_PORT_STEP default: replica i listens i steps above its service's port. */
const STEP = 100;
const SOFT_NOFILE = 1024;

describe('KUBE_REPLICAS=2 npm start: two of each service behind the balancing, one address for clients', () => {
  const dir = tempDir('start-replicas');
  const logFile = join(dir, 'stack.log');
  let stack: LaunchedStack;
  let tls: Pick<RequestOptions, 'ca' | 'cert' | 'key'>;
  const kubeconfig = (): string => join(dir, 'local', 'kubeconfig');

  /** The launcher's children by name (core-api twice, …); the balancer is the node running tcp-balancer.js. */
  const children = (): Array<{ pid: number; name: string }> =>
    childPids(stack.launcherPid).flatMap((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return [{ pid, name: cmdline.includes('tcp-balancer.js') ? 'balancer' : processName(pid) }];
      } catch {
        return [];
      }
    });

  function get(port: number, path: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      // agent: false, a connection per request: the balancer spreads connections, not requests.
      const req = httpsRequest({ host: '127.0.0.1', port, path, ...tls, agent: false, timeout: 30_000 }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end();
    });
  }

  /**
   * Requests the process on `port` handled, from its own /metrics: apiserver_request_total of a backend; at the
   * front door, which counts there only what it serves itself, the audit events of every request it let through.
   */
  async function served(port: number, metric = 'apiserver_request_total'): Promise<number> {
    const res = await get(port, '/metrics');
    expectStatus(res, 200, `/metrics of :${port}`);
    return metricTotal(res.body, metric);
  }
  const metricOf = (name: string): string => (name === 'aggregator' ? 'apiserver_audit_event_total' : 'apiserver_request_total');

  beforeAll(async () => {
    stack = await launchStack(join(dir, 'local'), logFile, { env: { KUBE_REPLICAS: '2' }, softNofile: SOFT_NOFILE, readyTimeoutMs: 480_000 });
    const pki = join(dir, 'local', 'pki');
    tls = { ca: readFileSync(join(pki, 'ca.crt')), cert: readFileSync(join(pki, 'admin.crt')), key: readFileSync(join(pki, 'admin.key')) };
  }, 540_000);

  afterAll(async () => {
    await stack?.stop();
  }, 180_000);

  it('runs two of every service, each its own process and port, the balancer on the front door, every one with the open-file hard limit', () => {
    const names = children().map((c) => c.name);
    for (const name of REPLICATED) expect(names.filter((n) => n === name), name).toHaveLength(2);
    expect(names.filter((n) => n === 'balancer')).toHaveLength(1);
    const log = readFileSync(logFile, 'utf8');
    const p = stack.ports;
    for (const [name, base] of [['core-api', p.KUBE_CORE_API_PORT], ['extensions', p.KUBE_EXTENSIONS_PORT], ['sample-apiserver', p.KUBE_SAMPLE_APISERVER_PORT], ['counts-apiserver', p.KUBE_COUNTS_APISERVER_PORT]] as const) {
      expect(log).toContain(`starting ${name}-0 on https://127.0.0.1:${base}`);
      expect(log).toContain(`starting ${name}-1 on https://127.0.0.1:${base + STEP}`);
    }
    expect(log).toContain(`starting aggregator-0 on https://127.0.0.1:${p.KUBE_SECURE_PORT + STEP}`);
    expect(log).toContain(`starting aggregator-1 on https://127.0.0.1:${p.KUBE_SECURE_PORT + 2 * STEP}`);
    expect(log).toContain(`starting balancer on https://127.0.0.1:${p.KUBE_SECURE_PORT} (TCP, round robin over 2 aggregators`);
    // The launcher was started with the low soft limit; everything it spawns runs at the hard limit (Node and Go
    // raise their own at start-up; the launcher's `ulimit` covers any other binary).
    const limits = (pid: number): [number, number] => {
      const line = /^Max open files\s+(\d+)\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'));
      return [Number(line?.[1]), Number(line?.[2])];
    };
    for (const child of children()) {
      const [soft, hard] = limits(child.pid);
      expect(soft, `${child.name} (${child.pid})`).toBe(hard);
    }
  });

  it('spreads requests through the one front-door port over both replicas of the aggregator, core-api and an aggregated server', async () => {
    const p = stack.ports;
    const replicas = {
      aggregator: [p.KUBE_SECURE_PORT + STEP, p.KUBE_SECURE_PORT + 2 * STEP],
      'core-api': [p.KUBE_CORE_API_PORT, p.KUBE_CORE_API_PORT + STEP],
      'sample-apiserver': [p.KUBE_SAMPLE_APISERVER_PORT, p.KUBE_SAMPLE_APISERVER_PORT + STEP],
    };
    // Both sample-apiservers stand in their Service's Endpoints (each writes both), so both are routed to.
    expect(await until(async () => (await get(p.KUBE_SECURE_PORT, '/api/v1/namespaces/kube-system/endpoints/wardle-server').catch(() => ({ body: '' }))).body.includes(`"port":${replicas['sample-apiserver'][1]}`), 120_000)).toBe(true);
    const endpoints = JSON.parse((await get(p.KUBE_SECURE_PORT, '/api/v1/namespaces/kube-system/endpoints/wardle-server')).body) as { subsets: Array<{ ports: Array<{ port: number }> }> };
    expect(endpoints.subsets.map((s) => s.ports[0].port).sort()).toEqual([...replicas['sample-apiserver']].sort());
    expect(await until(async () => (await get(p.KUBE_SECURE_PORT, '/apis/wardle.example.com/v1alpha1/flunders').catch(() => ({ status: 0 }))).status === 200, 120_000)).toBe(true);
    // Settled before counting: each aggregator learns the second address from the Endpoints through its own
    // informer and availability check, which a loaded machine delays; until then it sends flunders to one only.
    const flundersServed = (): Promise<number[]> => Promise.all(replicas['sample-apiserver'].map((port) => served(port)));
    for (const front of replicas.aggregator) {
      const from = await flundersServed();
      let scrapes = 1;
      const routesToBoth = await until(async () => {
        for (let i = 0; i < 4; i++) expectStatus(await get(front, '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders'), 200, `GET flunders via :${front}`);
        const now = await flundersServed();
        const counted = scrapes++;
        // More than the scrapes since `from` (they count too): each served a flunder.
        return now.every((n, i) => n - from[i] > counted);
      }, 120_000);
      expect(routesToBoth, `the aggregator on :${front} routes flunders to both sample-apiservers`).toBe(true);
    }

    const before = Object.fromEntries(await Promise.all(Object.entries(replicas).map(async ([name, ports]) => [name, await Promise.all(ports.map((port) => served(port, metricOf(name))))] as const)));
    for (let i = 0; i < 20; i++) {
      expectStatus(await get(p.KUBE_SECURE_PORT, '/api/v1/namespaces/default/configmaps'), 200, 'GET configmaps');
      expectStatus(await get(p.KUBE_SECURE_PORT, '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders'), 200, 'GET flunders');
    }
    for (const [name, ports] of Object.entries(replicas)) {
      const after = await Promise.all(ports.map((port) => served(port, metricOf(name))));
      // Each replica's own counter grew by a good part of the 20 or 40 requests (metrics scrapes count too).
      after.forEach((n, i) => expect(n - before[name][i], `${name} on :${ports[i]}`).toBeGreaterThanOrEqual(5));
    }
  }, 240_000);

  it('runs the controllers in one controller-manager replica, the other standing by', async () => {
    const ports = [stack.ports.KUBE_CONTROLLER_MANAGER_PORT, stack.ports.KUBE_CONTROLLER_MANAGER_PORT + STEP];
    const leaders = async (): Promise<number[]> => Promise.all(ports.map((port) => served(port, 'leader_election_master_status')));
    expect(await until(async () => (await leaders()).reduce((a, b) => a + b, 0) === 1, 60_000)).toBe(true);
    expect((await leaders()).sort()).toEqual([0, 1]);
  }, 120_000);

  for (const version of ['1.27', '1.33']) {
    it(`serves kubectl ${version} through the balancer (TLS and client certificates end to end)`, async () => {
      const { ok } = kubectlSession(version, kubeconfig);
      const name = `kubectl-${version.replace('.', '-')}`;
      await ok(['create', 'configmap', name, '--from-literal=k=v']);
      expect((await ok(['get', 'configmap', name, '-o', 'jsonpath={.data.k}'])).trim()).toBe('v');
      expect(await ok(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'])).toBe('kubernetes-admin');
      await ok(['delete', 'configmap', name]);
    }, 120_000);
  }

  it('keeps answering while a core-api replica is killed with -9, and the launcher restarts it', async () => {
    const replica1 = stack.ports.KUBE_CORE_API_PORT + STEP;
    const victim = children().find((c) => c.name === 'core-api' && readFileSync(`/proc/${c.pid}/environ`, 'utf8').split('\0').includes(`KUBE_SECURE_PORT=${replica1}`));
    expect(victim, 'core-api-1 is a child of the launcher').toBeDefined();
    let stop = false;
    const failures: string[] = [];
    let answered = 0;
    const load = (async () => {
      while (!stop) {
        try {
          const res = await get(stack.ports.KUBE_SECURE_PORT, '/api/v1/namespaces/default/configmaps');
          if (res.status === 200) answered++;
          else failures.push(`${res.status} ${res.body.slice(0, 200)}`);
        } catch (err) {
          failures.push((err as Error).message);
        }
      }
    })();
    await until(async () => answered >= 5, 60_000);
    process.kill((victim as { pid: number }).pid, 'SIGKILL');
    const atKill = answered;
    expect(await until(async () => readFileSync(logFile, 'utf8').includes('restarted core-api-1'), 60_000), 'restarted').toBe(true);
    // Served again by the new process on the same port.
    expect(await until(async () => (await get(replica1, '/readyz').catch(() => ({ status: 0 }))).status === 200, 120_000)).toBe(true);
    await until(async () => answered >= atKill + 20, 60_000);
    stop = true;
    await load;
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(atKill + 10);
    const log = readFileSync(logFile, 'utf8');
    expect(log).toContain('core-api-1 was killed by SIGKILL');
    expect(log).toMatch(/restarting core-api-1 in 1 s \(restart 1 in a row\)/);
    expect(stack.running).toBe(true);
  }, 300_000);
});
