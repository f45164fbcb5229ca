import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueCertificate, type IssuedCertificate } from '@kube/pki';
import { EtcdClient, checkEtcdConnection } from '@kube/storage';
import { freePorts, startEtcd, tempDir, type EtcdProcess } from '@kube/testing';

/** etcd serving plain HTTP (for its health probe) and HTTPS with client-certificate authentication. */
let etcd: EtcdProcess;
let secureEndpoint: string;
let caPem: string;
let client: IssuedCertificate;
const clients: EtcdClient[] = [];

beforeAll(async () => {
  const ca = await createCertificateAuthority({ commonName: 'etcd-ca' });
  caPem = ca.certPem;
  const serving = await issueCertificate(ca, { commonName: 'etcd', ipAddresses: ['127.0.0.1'], usage: 'server' });
  client = await issueCertificate(ca, { commonName: 'kube-apiserver-etcd-client', usage: 'client' });
  const dir = tempDir('etcd-tls');
  const file = (name: string, pem: string): string => {
    const path = join(dir, name);
    writeFileSync(path, pem, { mode: 0o600 });
    return path;
  };
  const [clientPort, peerPort, tlsPort] = await freePorts(3);
  secureEndpoint = `https://127.0.0.1:${tlsPort}`;
  etcd = await startEtcd({
    clientPort,
    peerPort,
    extraArgs: [
      `--listen-client-urls=http://127.0.0.1:${clientPort},${secureEndpoint}`,
      `--advertise-client-urls=${secureEndpoint}`,
      `--cert-file=${file('server.crt', serving.certPem)}`,
      `--key-file=${file('server.key', serving.keyPem)}`,
      `--trusted-ca-file=${file('ca.crt', ca.certPem)}`,
      '--client-cert-auth',
    ],
  });
});

afterAll(async () => {
  clients.forEach((c) => c.close());
  await etcd?.stop();
});

function connect(options: ConstructorParameters<typeof EtcdClient>[0]): EtcdClient {
  const c = new EtcdClient(options);
  clients.push(c);
  return c;
}

describe('etcd over TLS (KUBE_ETCD_CAFILE / CERTFILE / KEYFILE)', () => {
  it('reads and writes over https with the CA and a client certificate', async () => {
    const c = connect({ endpoints: [secureEndpoint], tls: { caPem, certPem: client.certPem, keyPem: client.keyPem } });
    await c.raw.put('/registry/tls-check').value('over-tls');
    expect(await c.raw.get('/registry/tls-check').string()).toBe('over-tls');
  });

  it('never falls back to plaintext: an https endpoint without the client certificate is refused by etcd', async () => {
    const c = connect({ endpoints: [secureEndpoint], tls: { caPem } });
    await expect(c.raw.get('/registry/tls-check').string()).rejects.toThrow();
  });

  it('refuses settings that do not fit together, before connecting', () => {
    expect(() => checkEtcdConnection({ endpoints: ['http://127.0.0.1:2379'], tls: { caPem } })).toThrow(
      'etcd TLS settings (CA file) are given but the etcd endpoints use http://: use https:// endpoints',
    );
    expect(() => checkEtcdConnection({ endpoints: ['http://a:2379', 'https://b:2379'] })).toThrow('etcd endpoints mix http:// and https://: http://a:2379,https://b:2379');
    expect(() => checkEtcdConnection({ endpoints: [secureEndpoint], tls: { certPem: client.certPem } })).toThrow('an etcd client certificate needs its key, and a key its certificate');
    expect(checkEtcdConnection({ endpoints: [secureEndpoint] })).toEqual({ secure: true });
    expect(checkEtcdConnection({ endpoints: ['127.0.0.1:2379'] })).toEqual({ secure: false });
  });
});
