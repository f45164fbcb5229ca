import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@kube/testing';
import { describe, expect, it } from 'vitest';
import { natsTlsFromEnv } from './server.config';

describe('natsTlsFromEnv', () => {
  const dir = tempDir('nats-tls-env');
  const file = (name: string): string => {
    const path = join(dir, name);
    writeFileSync(path, 'pem');
    return path;
  };

  it('reads the NATS CA and this service\'s client certificate, or nothing', () => {
    const [ca, cert, key] = [file('ca.crt'), file('c.crt'), file('c.key')];
    expect(natsTlsFromEnv({})).toBeUndefined();
    expect(natsTlsFromEnv({ KUBE_NATS_CA_FILE: ca, KUBE_NATS_CERT_FILE: cert, KUBE_NATS_KEY_FILE: key })).toEqual({ caFile: ca, certFile: cert, keyFile: key });
    expect(natsTlsFromEnv({ KUBE_NATS_CA_FILE: ca })).toEqual({ caFile: ca, certFile: undefined, keyFile: undefined });
  });

  it('refuses half a client certificate and files it cannot read, at start', () => {
    expect(() => natsTlsFromEnv({ KUBE_NATS_CERT_FILE: file('only.crt') })).toThrow('KUBE_NATS_CERT_FILE and KUBE_NATS_KEY_FILE must be set together');
    expect(() => natsTlsFromEnv({ KUBE_NATS_CA_FILE: join(dir, 'missing.crt') })).toThrow(/ENOENT/);
  });
});
