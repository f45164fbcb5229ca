/**
 * The SDK's cost: the wardle sample-apiserver (built only on the SDK) behind the aggregator, against our own
 * core API behind the same aggregator, in the same run: GET one Flunder vs GET one configmap at 32
 * connections, CREATE Flunders vs CREATE configmaps at 64 in flight. Target ≥ 80%.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { PkiPaths } from '@kube/pki';
import { freePort, tempDir } from '@kube/testing';
import { agentFor, call, runLoad, settleSeconds, type LoadResult, type TlsClient } from './load.generator';

export interface SdkBenchTarget {
  root: string;
  etcdEndpoint: string;
  aggPort: number;
  pki: PkiPaths;
  tls: TlsClient;
  seconds: number;
  line(name: string, ours: LoadResult, base: LoadResult, target: string): string;
}

function startSampleApiServer(t: SdkBenchTarget, port: number): ChildProcess {
  const child = spawn(process.execPath, [...(process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${join(process.env.BENCH_PROFILE_DIR, 'sample-apiserver')}`] : []), join(t.root, 'dist/apps/sample-apiserver/src/main.js')], {
    env: {
      ...process.env,
      KUBE_ETCD_ENDPOINTS: t.etcdEndpoint,
      KUBE_SECURE_PORT: String(port),
      KUBE_SIGNING_CA_CERT_FILE: t.pki.caCert,
      KUBE_SIGNING_CA_KEY_FILE: t.pki.caKey,
      KUBE_CERT_DIR: tempDir('bench-sample-certs'),
      KUBE_CLIENT_CA_FILE: t.pki.caCert,
      KUBE_REQUESTHEADER_CLIENT_CA_FILE: t.pki.frontProxyCaCert,
      KUBE_REQUESTHEADER_ALLOWED_NAMES: 'front-proxy-client',
      KUBE_MAX_REQUESTS_INFLIGHT: '2000',
      KUBE_MAX_MUTATING_REQUESTS_INFLIGHT: '1000',
      KUBE_REGISTER_URL: `https://127.0.0.1:${t.aggPort}`,
      KUBE_REGISTER_CERT_FILE: t.pki.adminCert,
      KUBE_REGISTER_KEY_FILE: t.pki.adminKey,
      KUBE_REGISTER_CA_FILE: t.pki.caCert,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

export async function benchSdk(t: SdkBenchTarget): Promise<void> {
  const sample = startSampleApiServer(t, await freePort());
  const agent = agentFor(t.tls, 64);
  try {
    const flunderPath = '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders';
    const configmapPath = '/api/v1/namespaces/default/configmaps';
    const deadline = Date.now() + 60_000;
    // Registered and Available once a Flunder can be created through the front door.
    for (;;) {
      const r = await call(agent, t.aggPort, { method: 'POST', path: flunderPath, body: JSON.stringify({ metadata: { name: 'bench' }, spec: { reference: 'x' } }) });
      if (r.status === 201 || r.status === 409) break;
      if (Date.now() > deadline) throw new Error(`the sample-apiserver never became reachable through the aggregator: ${r.status} ${r.body}`);
      await new Promise((res) => setTimeout(res, 100));
    }
    await call(agent, t.aggPort, { method: 'POST', path: configmapPath, body: JSON.stringify({ metadata: { name: 'sdk-bench' }, data: { reference: 'x' } }) });
    const get = (path: string) => async () => (await call(agent, t.aggPort, { method: 'GET', path })).status === 200;
    // The sample-apiserver is new: each path settles before it is measured (settleSeconds).
    await runLoad(32, settleSeconds(t.seconds), get(`${flunderPath}/bench`));
    await runLoad(32, settleSeconds(t.seconds), get(`${configmapPath}/sdk-bench`));
    const getConfigmap = await runLoad(32, t.seconds, get(`${configmapPath}/sdk-bench`));
    const getFlunder = await runLoad(32, t.seconds, get(`${flunderPath}/bench`));
    console.log(t.line('GET Flunder via aggregator (SDK)', getFlunder, getConfigmap, '≥ 90% of configmap GET via aggregator'));
    const create = (path: string, body: (n: number) => object) => async (n: number) => (await call(agent, t.aggPort, { method: 'POST', path, body: JSON.stringify(body(n)) })).status === 201;
    await runLoad(64, settleSeconds(t.seconds), create(configmapPath, (n) => ({ metadata: { name: `sdk-cm-warm-${n}` }, data: { reference: `r-${n}` } })));
    await runLoad(64, settleSeconds(t.seconds), create(flunderPath, (n) => ({ metadata: { name: `sdk-fl-warm-${n}` }, spec: { reference: `r-${n}` } })));
    const createConfigmap = await runLoad(64, t.seconds, create(configmapPath, (n) => ({ metadata: { name: `sdk-cm-${n}` }, data: { reference: `r-${n}` } })));
    const createFlunder = await runLoad(64, t.seconds, create(flunderPath, (n) => ({ metadata: { name: `sdk-fl-${n}` }, spec: { reference: `r-${n}` } })));
    console.log(t.line('CREATE Flunder via aggregator (SDK)', createFlunder, createConfigmap, '≥ 80% of configmap CREATE via aggregator'));
  } finally {
    agent.destroy();
    sample.kill('SIGTERM');
    await new Promise((r) => (sample.exitCode !== null ? r(null) : sample.once('exit', r)));
  }
}
