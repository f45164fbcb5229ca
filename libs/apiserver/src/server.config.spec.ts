import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@kube/testing';
import { describe, expect, it } from 'vitest';
import { natsTlsFromEnv, parseTokenFile, requestHeaderFromEnv } from './server.config';

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

describe('parseTokenFile', () => {
  it('reads kube\'s CSV columns token,user,uid,"groups": an empty uid stays empty and the groups stay groups', () => {
    const tokens = parseTokenFile(['admin-token,admin,,"system:masters"', 'bob-token,bob,uid-2,"devs,ops"', ' carol-token, carol,3', 'dan-token,"d,an",4,""', '# a comment', ''].join('\n'));
    expect(tokens.get('admin-token')).toEqual({ name: 'admin', uid: undefined, groups: ['system:masters', 'system:authenticated'] });
    expect(tokens.get('bob-token')).toEqual({ name: 'bob', uid: 'uid-2', groups: ['devs', 'ops', 'system:authenticated'] });
    expect(tokens.get('carol-token')).toEqual({ name: 'carol', uid: '3', groups: ['system:authenticated'] });
    expect(tokens.get('dan-token')).toEqual({ name: 'd,an', uid: '4', groups: ['', 'system:authenticated'] });
  });

  it('refuses a record of fewer than 3 columns with kube\'s message, and skips an empty token', () => {
    expect(() => parseTokenFile('t,user\n', '/etc/tokens.csv')).toThrow("token file '/etc/tokens.csv' must have at least 3 columns (token, user name, user uid), found 2");
    expect(parseTokenFile(',user,1\n').size).toBe(0);
  });
});
