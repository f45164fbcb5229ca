import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@kube/testing';
import { describe, expect, it } from 'vitest';
import { natsTlsFromEnv, requestHeaderFromEnv } from './server.config';

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

describe('requestHeaderFromEnv', () => {
  const dir = tempDir('requestheader-env');
  const ca = join(dir, 'front-proxy-ca.crt');
  writeFileSync(ca, 'pem');

  it('allows only front-proxy-client when no names are given; any CN only when the variable is set empty', () => {
    expect(requestHeaderFromEnv({})).toBeUndefined();
    expect(requestHeaderFromEnv({ KUBE_REQUESTHEADER_CLIENT_CA_FILE: ca })).toEqual({ caPem: 'pem', allowedNames: ['front-proxy-client'] });
    expect(requestHeaderFromEnv({ KUBE_REQUESTHEADER_CLIENT_CA_FILE: ca, KUBE_REQUESTHEADER_ALLOWED_NAMES: 'aggregator, proxy-2' })).toEqual({ caPem: 'pem', allowedNames: ['aggregator', 'proxy-2'] });
    expect(requestHeaderFromEnv({ KUBE_REQUESTHEADER_CLIENT_CA_FILE: ca, KUBE_REQUESTHEADER_ALLOWED_NAMES: '' })).toEqual({ caPem: 'pem', allowedNames: [] });
  });
});
