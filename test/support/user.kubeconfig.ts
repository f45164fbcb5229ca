import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { issueCertificate, loadCertificateAuthority, writeKubeconfig } from '@kube/pki';
import { tempDir } from '@kube/testing';
import type { StackHarness } from './core-api.harness';

/** A kubeconfig for a user of the stack: a client certificate from its CA (CN = user, O = groups). */
export async function userKubeconfig(stack: StackHarness, user: string, groups: string[] = []): Promise<string> {
  const ca = await loadCertificateAuthority(stack.pki.caCert, stack.pki.caKey);
  const cert = await issueCertificate(ca, { commonName: user, organizations: groups, usage: 'client' });
  const path = join(tempDir('user'), `kubeconfig-${user.replace(/[^a-z0-9-]/gi, '_')}`);
  await writeKubeconfig(path, { server: stack.url, caPem: readFileSync(stack.pki.caCert, 'utf8'), clientCertPem: cert.certPem, clientKeyPem: cert.keyPem });
  return path;
}

/** A kubeconfig with the stack's server and CA but no credentials (pass `--token`). */
export function tokenKubeconfig(stack: StackHarness): string {
  const path = join(tempDir('token-user'), 'kubeconfig');
  const ca = Buffer.from(readFileSync(stack.pki.caCert)).toString('base64');
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'kubernetes', cluster: { server: stack.url, 'certificate-authority-data': ca } }],
    users: [{ name: 'token-user', user: {} }],
    contexts: [{ name: 'token-user@kubernetes', context: { cluster: 'kubernetes', user: 'token-user' } }],
    'current-context': 'token-user@kubernetes',
  };
  writeFileSync(path, JSON.stringify(config));
  return path;
}
