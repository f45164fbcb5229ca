import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

export interface KubeconfigOptions {
  /** e.g. https://127.0.0.1:6443 */
  readonly server: string;
  readonly caPem: string;
  readonly clientCertPem: string;
  readonly clientKeyPem: string;
  /** Defaults follow kubeadm's admin.conf: kubernetes-admin / kubernetes / kubernetes-admin@kubernetes. */
  readonly userName?: string;
  readonly clusterName?: string;
  readonly contextName?: string;
}

/** The subset of the kubeconfig (clientcmd v1 Config) schema that we write. */
export interface Kubeconfig {
  readonly apiVersion: 'v1';
  readonly kind: 'Config';
  readonly clusters: ReadonlyArray<{ name: string; cluster: { server: string; 'certificate-authority-data': string } }>;
  readonly users: ReadonlyArray<{ name: string; user: { 'client-certificate-data': string; 'client-key-data': string } }>;
  readonly contexts: ReadonlyArray<{ name: string; context: { cluster: string; user: string } }>;
  readonly 'current-context': string;
  readonly preferences: Record<string, never>;
}

export function buildKubeconfig(opts: KubeconfigOptions): Kubeconfig {
  const userName = opts.userName ?? 'kubernetes-admin';
  const clusterName = opts.clusterName ?? 'kubernetes';
  const contextName = opts.contextName ?? `${userName}@${clusterName}`;
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: clusterName, cluster: { server: opts.server, 'certificate-authority-data': base64(opts.caPem) } }],
    users: [
      {
        name: userName,
        user: { 'client-certificate-data': base64(opts.clientCertPem), 'client-key-data': base64(opts.clientKeyPem) },
      },
    ],
    contexts: [{ name: contextName, context: { cluster: clusterName, user: userName } }],
    'current-context': contextName,
    preferences: {},
  };
}

/** Writes the kubeconfig with mode 0600: it holds a private key, and kubectl warns about wider modes. */
export async function writeKubeconfig(path: string, opts: KubeconfigOptions): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, stringify(buildKubeconfig(opts)), { mode: 0o600 });
  // writeFile's mode applies only when it creates the file; an existing file keeps its old mode otherwise.
  await chmod(path, 0o600);
}

function base64(pem: string): string {
  return Buffer.from(pem, 'utf8').toString('base64');
}
