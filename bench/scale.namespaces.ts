/**
 * `scale-namespaces`: 1,000 namespaces (BENCH_SCALE_NAMESPACES; `--quick` 100), each with two ConfigMaps, a Secret
 * and a custom resource, deleted at once, on a stack of its own (core-api, extensions, the aggregator and the
 * controller-manager's namespace controller, bench/scale.stack.ts): the time until every namespace is gone, the
 * deletions per second (namespaces, and the objects in them), and how many are still Terminating when the wait
 * ends (must be none).
 */
import { agentFor, call } from './load.generator';
import { figure } from './report';
import { ScaleStack } from './scale.stack';

export interface ScaleNamespacesOptions {
  root: string;
  quick: boolean;
}

const GROUP = 'ns.scale.example.com';
const n = (x: number): string => x.toLocaleString('en-US');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `things.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
  },
};

/** Runs `jobs` `concurrency` at a time; returns the failures' first message and count. */
async function pool(jobs: number, concurrency: number, job: (i: number) => Promise<string | undefined>): Promise<{ failed: number; first?: string }> {
  let next = 0;
  let failed = 0;
  let first: string | undefined;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs) {
        const err = await job(next++).catch((e: unknown) => String(e));
        if (err) {
          failed++;
          first ??= err;
        }
      }
    }),
  );
  return { failed, first };
}

export async function benchScaleNamespaces(o: ScaleNamespacesOptions): Promise<void> {
  const count = Number(process.env.BENCH_SCALE_NAMESPACES ?? (o.quick ? 100 : 1000));
  const stack = await ScaleStack.start(o.root, 'namespaces');
  const agent = agentFor(stack.tls, 64);
  try {
    await stack.add('core-api');
    await stack.add('extensions');
    const front = (await stack.add('aggregator')).port;
    // Only the namespace controller: the figure is its work (the other controllers would add their own objects).
    const manager = await stack.add('controller-manager', { env: { KUBE_CONTROLLERS: 'namespace-controller' } });
    const api = (method: string, path: string, body?: unknown) => call(agent, front, { method, path, body: body === undefined ? undefined : JSON.stringify(body) });
    const expect = async (status: number | number[], method: string, path: string, body?: unknown): Promise<string | undefined> => {
      const r = await api(method, path, body);
      return ([] as number[]).concat(status).includes(r.status) ? undefined : `${method} ${path}: ${r.status} ${r.body.slice(0, 200)}`;
    };
    const crd = await expect(201, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', CRD);
    if (crd) throw new Error(`scale-namespaces: ${crd}`);
    const gone = async (ns: string, timeoutMs: number): Promise<boolean> => {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if ((await api('GET', `/api/v1/namespaces/${ns}`)).status === 404) return true;
        await sleep(200);
      }
      return false;
    };
    // The CRD served through the front door, and the namespace controller leading and deleting: one namespace first.
    const deadline = Date.now() + 120_000;
    await api('POST', '/api/v1/namespaces', { metadata: { name: 'scale-ns-probe' } });
    while ((await api('POST', `/apis/${GROUP}/v1/namespaces/scale-ns-probe/things`, { apiVersion: `${GROUP}/v1`, kind: 'Thing', metadata: { name: 't' } })).status !== 201) {
      if (Date.now() > deadline) throw new Error('scale-namespaces: the CRD is never served through the aggregator');
      await sleep(200);
    }
    await api('DELETE', '/api/v1/namespaces/scale-ns-probe');
    if (!(await gone('scale-ns-probe', 120_000))) throw new Error(`scale-namespaces: the controller-manager (pid ${manager.pid}) never deleted a namespace`);

    const name = (i: number): string => `scale-ns-${i}`;
    const c0 = performance.now();
    const made = await pool(count, 64, async (i) => {
      const ns = name(i);
      const first = await expect(201, 'POST', '/api/v1/namespaces', { metadata: { name: ns, labels: { bench: 'scale-ns' } } });
      if (first) return first;
      const each = await Promise.all([
        expect(201, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'a' }, data: { k: 'v' } }),
        expect(201, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'b' }, data: { k: 'v' } }),
        expect(201, 'POST', `/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 's' }, stringData: { k: 'v' } }),
        expect(201, 'POST', `/apis/${GROUP}/v1/namespaces/${ns}/things`, { apiVersion: `${GROUP}/v1`, kind: 'Thing', metadata: { name: 't' }, spec: { size: i } }),
      ]);
      return each.find(Boolean);
    });
    const createdS = (performance.now() - c0) / 1000;
    if (made.failed) throw new Error(`scale-namespaces: ${made.failed} namespaces not filled, e.g. ${made.first}`);
    console.log(`  ${n(count)} namespaces with 2 ConfigMaps, a Secret and a CR each created in ${createdS.toFixed(1)} s`);

    const objects = count * 5;
    const t0 = performance.now();
    const deleted = await pool(count, 64, (i) => expect([200, 202], 'DELETE', `/api/v1/namespaces/${name(i)}`));
    const issuedS = (performance.now() - t0) / 1000;
    const left = async (): Promise<{ total: number; terminating: number }> => {
      const list = JSON.parse((await api('GET', '/api/v1/namespaces?labelSelector=bench%3Dscale-ns')).body) as { items: Array<{ status?: { phase?: string } }> };
      return { total: list.items.length, terminating: list.items.filter((x) => x.status?.phase === 'Terminating').length };
    };
    const timeoutMs = o.quick ? 180_000 : 900_000;
    let now = await left();
    while (now.total > 0 && performance.now() - t0 < timeoutMs) {
      await sleep(500);
      now = await left();
    }
    const allS = (performance.now() - t0) / 1000;
    const failure = deleted.failed ? `${deleted.failed} DELETEs failed, e.g. ${deleted.first}` : now.total ? `${n(now.total)} namespaces left after ${allS.toFixed(0)} s (${n(now.terminating)} stuck Terminating)` : undefined;
    console.log(
      figure(
        `SCALE ${n(count)} namespaces deleted at once`,
        now.total ? NaN : allS,
        's',
        `all gone after ${allS.toFixed(1)} s (DELETEs issued in ${issuedS.toFixed(1)} s, 64 in flight): ${(count / allS).toFixed(1)} namespaces/s, ${(objects / allS).toFixed(0)} objects/s (each namespace and its 2 ConfigMaps, Secret and CR); ${n(now.terminating)} left Terminating`,
        'report',
        failure,
      ),
    );
  } finally {
    agent.destroy();
    await stack.stop();
  }
}
