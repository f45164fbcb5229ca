import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { RestConfig } from '@kube/client';
import type { PkiPaths } from '@kube/pki';
import { profilingFromEnv, tracingFromEnv, type TracingConfiguration } from '@kube/apiserver';
import { simulationOptionsFromEnv, type SimulationOptions } from './simulation/simulation.options';

export interface ControllerManagerOptions {
  /** The front door (or any API server), and the controller-manager's own client certificate. */
  api: RestConfig;
  /** Health and metrics endpoint (kube: 10257). Port 0 picks a free one. */
  serving: { bindAddress: string; port: number; certPem: string; keyPem: string };
  /** kube-controller-manager's --profiling (KUBE_PROFILING, default true): /debug/pprof on the secure port. */
  profiling?: boolean;
  /** KUBE_TRACING_CONFIG_FILE: its API requests as client spans, exported like the servers' (docs/operations.md "Tracing"). */
  tracing?: TracingConfiguration;
  /** kube's --root-ca-file: what kube-root-ca.crt publishes. */
  rootCaPem: string;
  /** kube's --cluster-signing-cert-file/--cluster-signing-key-file: the CA the csrsigning controller signs with. */
  clusterSigning?: { certPem: string; keyPem: string };
  /** holderIdentity in the Lease; kube: `<hostname>_<uuid>`. */
  identity?: string;
  leaderElection?: { leaseDurationMs?: number; renewDeadlineMs?: number; retryPeriodMs?: number };
  /** Controllers to run (kube's --controllers); all by default. */
  controllers?: string[];
  /** Simulated nodes with their scheduler and kubelets (KUBE_SIMULATED_NODES); off when undefined. */
  simulation?: SimulationOptions;
}

export const LEASE_NAMESPACE = 'kube-system';
export const LEASE_NAME = 'kube-controller-manager';

export function defaultIdentity(): string {
  return `${hostname()}_${randomUUID()}`;
}

function file(env: NodeJS.ProcessEnv, name: string): string {
  const path = env[name];
  if (!path) throw new Error(`${name} is required`);
  return readFileSync(path, 'utf8');
}

/**
 * KUBE_MASTER_URL (the front door), KUBE_CLIENT_CERT_FILE / KUBE_CLIENT_KEY_FILE (the system:kube-controller-manager
 * certificate), KUBE_CLIENT_CA_FILE (verifies the front door), KUBE_ROOT_CA_FILE (published as kube-root-ca.crt;
 * default the client CA), KUBE_TLS_CERT_FILE / KUBE_TLS_PRIVATE_KEY_FILE and KUBE_BIND_ADDRESS / KUBE_SECURE_PORT
 * for /healthz, /readyz and /metrics, KUBE_CONTROLLERS (comma-separated, default all),
 * KUBE_CLUSTER_SIGNING_CERT_FILE / KUBE_CLUSTER_SIGNING_KEY_FILE (the CA approved kube-apiserver-client CSRs are
 * signed with; without them the signing controller does not run), KUBE_SIMULATED_NODES and its companions
 * (simulation/simulation.options.ts).
 */
export function controllerManagerOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): ControllerManagerOptions {
  const url = env.KUBE_MASTER_URL;
  if (!url) throw new Error('KUBE_MASTER_URL is required (the front door, e.g. https://127.0.0.1:6443)');
  const caPem = file(env, 'KUBE_CLIENT_CA_FILE');
  return {
    api: { url, caPem, certPem: file(env, 'KUBE_CLIENT_CERT_FILE'), keyPem: file(env, 'KUBE_CLIENT_KEY_FILE'), userAgent: 'kube-controller-manager/v1.33.0 (linux/amd64) kube-ts' },
    serving: { bindAddress: env.KUBE_BIND_ADDRESS ?? '0.0.0.0', port: Number(env.KUBE_SECURE_PORT ?? 10257), certPem: file(env, 'KUBE_TLS_CERT_FILE'), keyPem: file(env, 'KUBE_TLS_PRIVATE_KEY_FILE') },
    profiling: profilingFromEnv(env),
    tracing: tracingFromEnv(env),
    rootCaPem: env.KUBE_ROOT_CA_FILE ? readFileSync(env.KUBE_ROOT_CA_FILE, 'utf8') : caPem,
    clusterSigning: clusterSigningFromEnv(env),
    controllers: env.KUBE_CONTROLLERS ? env.KUBE_CONTROLLERS.split(',').map((s) => s.trim()).filter(Boolean) : undefined,
    simulation: simulationOptionsFromEnv(env),
  };
}

function clusterSigningFromEnv(env: NodeJS.ProcessEnv): ControllerManagerOptions['clusterSigning'] {
  const cert = env.KUBE_CLUSTER_SIGNING_CERT_FILE;
  const key = env.KUBE_CLUSTER_SIGNING_KEY_FILE;
  if (!cert && !key) return undefined;
  if (!cert || !key) throw new Error('KUBE_CLUSTER_SIGNING_CERT_FILE and KUBE_CLUSTER_SIGNING_KEY_FILE go together');
  return { certPem: readFileSync(cert, 'utf8'), keyPem: readFileSync(key, 'utf8') };
}

/**
 * The environment of a controller-manager beside a local PKI (`npm start`, process tests): the front door at
 * `masterUrl`, its own certificate, health and metrics on 127.0.0.1:`port`, CSRs signed with the cluster CA.
 */
export function localControllerManagerEnv(pki: PkiPaths, masterUrl: string, port: number): Record<string, string> {
  return {
    KUBE_MASTER_URL: masterUrl,
    KUBE_CLIENT_CERT_FILE: pki.controllerManagerCert,
    KUBE_CLIENT_KEY_FILE: pki.controllerManagerKey,
    KUBE_CLIENT_CA_FILE: pki.caCert,
    KUBE_ROOT_CA_FILE: pki.caCert,
    KUBE_BIND_ADDRESS: '127.0.0.1',
    KUBE_SECURE_PORT: String(port),
    KUBE_TLS_CERT_FILE: pki.apiserverCert,
    KUBE_TLS_PRIVATE_KEY_FILE: pki.apiserverKey,
    KUBE_CLUSTER_SIGNING_CERT_FILE: pki.caCert,
    KUBE_CLUSTER_SIGNING_KEY_FILE: pki.caKey,
  };
}
