/**
 * API Priority and Fairness: one noisy user floods LIST (one flow, far more requests in flight than its priority
 * level has seats) while a quiet user GETs one configmap on one connection, both through the front door. The
 * figure is the quiet user's p99 under noise against its own unloaded p99 in the same run (target ≤ 2×); the same
 * pair measured straight at core-api (max-in-flight, no fairness) shows what APF changes.
 * Run alone: `npm run build && node dist/bench/apf.bench.js` (BENCH_SECONDS, default 5).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensurePki, issueCertificate, loadCertificateAuthority, type PkiPaths } from '@kube/pki';
import { freePort, startEtcd, tempDir } from '@kube/testing';
import { agentFor, call, runLoad, warmupSeconds, type LoadResult, type TlsClient } from './load.generator';
import { figure } from './report';

export interface ApfBenchTarget {
  root: string;
  etcdEndpoint: string;
  pki: PkiPaths;
  tls: TlsClient;
  seconds: number;
}

/**
 * The front door's server concurrency limit, sized to a small machine (kube's 600 is for many cores): 12 seats,
 * of which global-default gets ceil(12 × 20/245) = 1, so one noisy flow saturates its level and has to queue.
 */
const MAX_REQUESTS_INFLIGHT = Number(process.env.APF_BENCH_MAX_INFLIGHT ?? 8);
const MAX_MUTATING_REQUESTS_INFLIGHT = Number(process.env.APF_BENCH_MAX_MUTATING_INFLIGHT ?? 4);
const NOISY_CONCURRENCY = 48;
const LISTED = 200;

function start(root: string, app: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, [join(root, `dist/apps/${app}/src/main.js`)], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  return child;
}

async function ready(port: number, tls: TlsClient, path = '/readyz'): Promise<void> {
  const agent = agentFor(tls, 1);
  const deadline = Date.now() + 60_000;
  try {
    while (Date.now() < deadline) {
      if ((await call(agent, port, { method: 'GET', path }).catch(() => ({ status: 0 }))).status === 200) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`port ${port} did not become ready`);
  } finally {
    agent.destroy();
  }
}

/** The quiet user's p99 alone, then while the noisy user floods LIST: both on `port`. */
async function measure(port: number, quiet: TlsClient, noisy: TlsClient, seconds: number): Promise<{ alone: LoadResult; underNoise: LoadResult; noise: LoadResult }> {
  const quietAgent = agentFor(quiet, 1);
  const noisyAgent = agentFor(noisy, NOISY_CONCURRENCY);
  const get = async (): Promise<boolean> => (await call(quietAgent, port, { method: 'GET', path: '/api/v1/namespaces/apf-bench/configmaps/quiet' })).status === 200;
  const list = async (): Promise<boolean> => (await call(noisyAgent, port, { method: 'GET', path: '/api/v1/namespaces/apf-bench/configmaps' })).status === 200;
  await runLoad(1, warmupSeconds(seconds), get);
  await runLoad(NOISY_CONCURRENCY, warmupSeconds(seconds), list);
  const alone = await runLoad(1, seconds, get);
  const [underNoise, noise] = await Promise.all([runLoad(1, seconds, get), runLoad(NOISY_CONCURRENCY, seconds, list)]);
  quietAgent.destroy();
  noisyAgent.destroy();
  return { alone, underNoise, noise };
}

function report(name: string, m: { alone: LoadResult; underNoise: LoadResult; noise: LoadResult }, target: string): void {
  const ratio = m.underNoise.p99ms / m.alone.p99ms;
  const detail = `quiet GET p99 ${m.underNoise.p99ms.toFixed(2)} ms under noise vs ${m.alone.p99ms.toFixed(2)} ms alone = ${ratio.toFixed(2)}× (noisy LIST ${m.noise.rps.toFixed(0)} req/s, ${m.noise.errors} refused; quiet errors ${m.underNoise.errors})`;
  console.log(figure(name, ratio, '×', detail, target));
}

export async function benchPriorityAndFairness(t: ApfBenchTarget): Promise<void> {
  const ca = await loadCertificateAuthority(t.pki.caCert, t.pki.caKey);
  const client = async (user: string): Promise<TlsClient> => {
    const c = await issueCertificate(ca, { commonName: user, usage: 'client' });
    return { ca: t.tls.ca, cert: Buffer.from(c.certPem), key: Buffer.from(c.keyPem) };
  };
  const [quiet, noisy] = [await client('quiet'), await client('noisy')];
  const common = {
    KUBE_ETCD_ENDPOINTS: t.etcdEndpoint,
    KUBE_TLS_CERT_FILE: t.pki.apiserverCert,
    KUBE_TLS_PRIVATE_KEY_FILE: t.pki.apiserverKey,
    KUBE_CLIENT_CA_FILE: t.pki.caCert,
    // Fairness is what is measured, not RBAC: both users may read everything.
    KUBE_AUTHORIZATION_MODE: 'AlwaysAllow',
  };
  const apiPort = await freePort();
  const api = start(t.root, 'core-api', { ...common, KUBE_SECURE_PORT: String(apiPort), KUBE_REQUESTHEADER_CLIENT_CA_FILE: t.pki.frontProxyCaCert, KUBE_REQUESTHEADER_ALLOWED_NAMES: 'front-proxy-client' });
  const children = [api];
  try {
    await ready(apiPort, t.tls);
    const aggPort = await freePort();
    children.push(
      start(t.root, 'aggregator', {
        ...common,
        KUBE_SECURE_PORT: String(aggPort),
        KUBE_PROXY_CLIENT_CERT_FILE: t.pki.frontProxyClientCert,
        KUBE_PROXY_CLIENT_KEY_FILE: t.pki.frontProxyClientKey,
        KUBE_AGGREGATOR_BACKENDS: `core-api=https://127.0.0.1:${apiPort}`,
        KUBE_MAX_REQUESTS_INFLIGHT: String(MAX_REQUESTS_INFLIGHT),
        KUBE_MAX_MUTATING_REQUESTS_INFLIGHT: String(MAX_MUTATING_REQUESTS_INFLIGHT),
      }),
    );
    // /version answers once the front door listens; the routes to core-api follow its first discovery.
    await ready(aggPort, t.tls, '/api/v1/namespaces/default');
    const admin = agentFor(t.tls, 16);
    await call(admin, apiPort, { method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: 'apf-bench' } }) });
    await call(admin, apiPort, { method: 'POST', path: '/api/v1/namespaces/apf-bench/configmaps', body: JSON.stringify({ metadata: { name: 'quiet' }, data: { key: 'value' } }) });
    for (let i = 0; i < LISTED; i += 20) {
      await Promise.all(Array.from({ length: 20 }, (_, j) => call(admin, apiPort, { method: 'POST', path: '/api/v1/namespaces/apf-bench/configmaps', body: JSON.stringify({ metadata: { name: `noise-${i + j}` }, data: { key: 'x'.repeat(100) } }) })));
    }
    admin.destroy();
    const fair = await measure(aggPort, quiet, noisy, t.seconds);
    report('APF: quiet user vs LIST flood', fair, '≤ 2×');
    const unfair = await measure(apiPort, quiet, noisy, t.seconds);
    report('  core-api direct (max-in-flight)', unfair, 'report, what APF changes');
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
  }
}

if (require.main === module) {
  void (async () => {
    const etcd = await startEtcd();
    try {
      const pki = await ensurePki(join(tempDir('apf-bench'), 'pki'));
      const tls: TlsClient = { ca: readFileSync(pki.caCert), cert: readFileSync(pki.adminCert), key: readFileSync(pki.adminKey) };
      await benchPriorityAndFairness({ root: resolve(__dirname, '..', '..'), etcdEndpoint: etcd.endpoint, pki, tls, seconds: Number(process.env.BENCH_SECONDS ?? 5) });
    } finally {
      await etcd.stop();
    }
  })().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
