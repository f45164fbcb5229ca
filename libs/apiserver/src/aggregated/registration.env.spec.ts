import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registrationTargetFromEnv } from './registration.env';

describe('registrationTargetFromEnv', () => {
  it('is off without KUBE_REGISTER_URL', () => {
    expect(registrationTargetFromEnv({})).toBeUndefined();
  });

  it('reads the client certificate, key and CA files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'register-env-'));
    const file = (name: string): string => {
      writeFileSync(join(dir, name), `${name} pem`);
      return join(dir, name);
    };
    const env = { KUBE_REGISTER_URL: 'https://127.0.0.1:6443', KUBE_REGISTER_CERT_FILE: file('admin.crt'), KUBE_REGISTER_KEY_FILE: file('admin.key'), KUBE_REGISTER_CA_FILE: file('ca.crt') };
    expect(registrationTargetFromEnv(env)).toEqual({ url: 'https://127.0.0.1:6443', certPem: 'admin.crt pem', keyPem: 'admin.key pem', caPem: 'ca.crt pem' });
  });

  it('names the missing variables', () => {
    expect(() => registrationTargetFromEnv({ KUBE_REGISTER_URL: 'https://127.0.0.1:6443', KUBE_REGISTER_CA_FILE: '/ca.crt' })).toThrow(
      'KUBE_REGISTER_URL is set but KUBE_REGISTER_CERT_FILE, KUBE_REGISTER_KEY_FILE are not',
    );
  });
});
