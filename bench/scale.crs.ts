/**
 * `scale-crs`: 50,000 custom resources of one CRD (BENCH_SCALE_CRS; `--quick` 5,000) on a stack of its own
 * (core-api and extensions, bench/scale.stack.ts): the create rate (64 in flight, straight to extensions), the
 * live heap and RSS extensions spends per CR against the CR's JSON size, LIST of all of them (unpaged, consistent
 * and at resourceVersion=0, and every page of 500), and after a restart of extensions the time until it is ready
 * and until its watch cache answers a LIST of every CR.
 */
import { join } from 'node:path';
import { tempDir } from '@kube/testing';
import { agentFor, call, percentile, type TlsClient } from './load.generator';
import { figure } from './report';
import { memoryProbe } from './servers';
import { ScaleStack } from './scale.stack';

export interface ScaleCrsOptions {
  root: string;
  quick: boolean;
}

const MB = 1024 * 1024;
const GROUP = 'crs.scale.example.com';
const PATH = `/apis/${GROUP}/v1/namespaces/default/gadgets`;
const n = (x: number): string => x.toLocaleString('en-US');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `gadgets.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' }, color: { type: 'string', maxLength: 63 }, enabled: { type: 'boolean' }, tags: { type: 'array', items: { type: 'string' } } } } } } },
      },
    ],
  },
};

const gadget = (i: number): string => JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: 'Gadget', metadata: { name: `g-${i}`, labels: { bench: 'scale' } }, spec: { size: i, color: 'blue', enabled: true, tags: ['a', 'b'] } });

/** `count` calls of `one(i)`, `concurrency` at a time: elapsed ms and failures (with the first for the message). */
async function all(count: number, concurrency: number, one: (i: number) => Promise<{ status: number; body: string }>): Promise<{ ms: number; failed: number; first?: string }> {
  let next = 0;
  let failed = 0;
  let first: string | undefined;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const r = await one(next++).catch((err: unknown) => ({ status: 0, body: String(err) }));
        if (r.status !== 201) {
          failed++;
          first ??= `${r.status} ${r.body.slice(0, 200)}`;
        }
      }
    }),
  );
  return { ms: performance.now() - t0, failed, first };
}

/** p50 of `rounds` GETs of `path`: ms, bytes, items of the first answer. */
async function timeList(port: number, tls: TlsClient, path: string, rounds: number): Promise<{ p50: number; bytes: number; items: number }> {
  const agent = agentFor(tls, 1);
  const times: number[] = [];
  let bytes = 0;
  let items = 0;
  try {
    for (let i = 0; i < rounds; i++) {
      const t0 = performance.now();
      const r = await call(agent, port, { method: 'GET', path });
      times.push(performance.now() - t0);
      if (i === 0) {
        bytes = Buffer.byteLength(r.body);
        items = (JSON.parse(r.body) as { items?: unknown[] }).items?.length ?? 0;
      }
    }
  } finally {
    agent.destroy();
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), bytes, items };
}

/** Every page of `limit`: total ms, pages, items. */
async function walkPages(port: number, tls: TlsClient, limit: number): Promise<{ ms: number; pages: number; items: number }> {
  const agent = agentFor(tls, 1);
  const t0 = performance.now();
  let pages = 0;
  let items = 0;
  try {
    for (let token: string | undefined = ''; token !== undefined; pages++) {
      const r = await call(agent, port, { method: 'GET', path: `${PATH}?limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}` });
      const body = JSON.parse(r.body) as { items: unknown[]; metadata: { continue?: string } };
      items += body.items.length;
      token = body.metadata.continue || undefined;
    }
  } finally {
    agent.destroy();
  }
  return { ms: performance.now() - t0, pages, items };
}

export async function benchScaleCrs(o: ScaleCrsOptions): Promise<void> {
  const count = Number(process.env.BENCH_SCALE_CRS ?? (o.quick ? 5000 : 50_000));
  const stack = await ScaleStack.start(o.root, 'crs');
  const probe = memoryProbe(o.root, join(tempDir('bench-heap'), 'extensions-crs.json'));
  const agent = agentFor(stack.tls, 64);
  try {
    await stack.add('core-api');
    let ext = await stack.add('extensions', { nodeArgs: probe.nodeArgs, env: probe.env });
    const port = (): number => ext.port;
    const crd = await call(agent, port(), { method: 'POST', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', body: JSON.stringify(CRD) });
    if (crd.status !== 201) throw new Error(`scale-crs: the CRD: ${crd.status} ${crd.body}`);
    const deadline = Date.now() + 60_000;
    while ((await call(agent, port(), { method: 'GET', path: PATH })).status !== 200) {
      if (Date.now() > deadline) throw new Error('scale-crs: the CRD is never served');
      await sleep(100);
    }
    await sleep(1000);
    const mem0 = await probe.read(ext.pid);

    const created = await all(count, 64, (i) => call(agent, port(), { method: 'POST', path: PATH, body: gadget(i) }));
    const rate = (count / created.ms) * 1000;
    console.log(
      figure(`SCALE ${n(count)} CRs of one CRD, create rate`, rate, 'CR/s', `${rate.toFixed(0)} CR/s: ${n(count)} in ${(created.ms / 1000).toFixed(1)} s, 64 in flight straight to extensions; errors ${created.failed}`, 'report', created.failed ? `${created.failed} of ${n(count)} creates failed, e.g. ${created.first}` : undefined),
    );
    await sleep(2000);
    const mem1 = await probe.read(ext.pid);
    const jsonBytes = Buffer.byteLength(gadget(count));
    const heapPer = (mem1.heapUsed - mem0.heapUsed) / count;
    const rssPer = (mem1.rss - mem0.rss) / count;
    console.log(figure(`  extensions live heap per CR`, heapPer, 'bytes', `${heapPer.toFixed(0)} bytes (a CR is ~${jsonBytes} bytes of JSON as sent; heap ${(mem0.heapUsed / MB).toFixed(0)} → ${(mem1.heapUsed / MB).toFixed(0)} MiB)`));
    console.log(figure(`  extensions RSS per CR`, rssPer, 'bytes', `${rssPer.toFixed(0)} bytes (RSS ${(mem0.rss / MB).toFixed(0)} → ${(mem1.rss / MB).toFixed(0)} MiB)`));

    const listFailure = (items: number): string | undefined => (items === count ? undefined : `${n(items)} of ${n(count)} items`);
    const whole = await timeList(port(), stack.tls, PATH, 3);
    console.log(figure(`SCALE LIST ${n(count)} CRs, no limit`, whole.p50, 'ms', `p50 ${whole.p50.toFixed(0)} ms over 3, ${(whole.bytes / MB).toFixed(1)} MiB, ${n(whole.items)} items (consistent read)`, 'report', listFailure(whole.items)));
    const whole0 = await timeList(port(), stack.tls, `${PATH}?resourceVersion=0`, 3);
    console.log(figure(`  the same at resourceVersion=0`, whole0.p50, 'ms', `p50 ${whole0.p50.toFixed(0)} ms over 3 (watch cache)`, 'report', listFailure(whole0.items)));
    const paged = await walkPages(port(), stack.tls, 500);
    console.log(figure(`  every page of 500`, paged.ms, 'ms', `${paged.ms.toFixed(0)} ms for ${paged.pages} pages, ${n(paged.items)} items`, 'report', listFailure(paged.items)));

    // Restart: start-up until /readyz, then until a LIST from the watch cache holds every CR.
    await stack.remove(ext);
    const r0 = performance.now();
    ext = await stack.add('extensions', { nodeArgs: probe.nodeArgs, env: probe.env });
    const readyMs = performance.now() - r0;
    let cachedMs = NaN;
    const cacheDeadline = Date.now() + 600_000;
    const one = agentFor(stack.tls, 1);
    while (Date.now() < cacheDeadline) {
      const r = await call(one, port(), { method: 'GET', path: `${PATH}?resourceVersion=0` }).catch(() => ({ status: 0, body: '' }));
      if (r.status === 200 && (JSON.parse(r.body) as { items: unknown[] }).items.length === count) {
        cachedMs = performance.now() - r0;
        break;
      }
      await sleep(50);
    }
    one.destroy();
    console.log(
      figure(`SCALE extensions restart, ${n(count)} CRs`, cachedMs / 1000, 's', `ready (/readyz) after ${(readyMs / 1000).toFixed(2)} s; a LIST from the watch cache holds every CR after ${(cachedMs / 1000).toFixed(2)} s`, 'report', Number.isNaN(cachedMs) ? 'the watch cache never held every CR' : undefined),
    );
  } finally {
    agent.destroy();
    await stack.stop();
  }
}
