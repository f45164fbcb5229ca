import { readFileSync } from 'node:fs';
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
