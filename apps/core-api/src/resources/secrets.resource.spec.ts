import { describe, expect, it } from 'vitest';
import { secretsResource, type Secret } from './secrets.resource';
import { cells, create, messages, meta, update } from './strategy.testing';

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const secret = (fields: Partial<Secret>): Secret => ({ metadata: meta('s', 'default'), ...fields });

describe('secrets', () => {
  it('defaults the type to Opaque', () => {
    const s = secret({ data: { a: b64('1') } });
    expect(create(secretsResource, s)).toEqual([]);
    expect(s.type).toBe('Opaque');
  });

  it('merges stringData into data, base64-encoded, and drops it', () => {
    const s = secret({ data: { a: b64('old'), b: b64('keep') }, stringData: { a: 'new', c: 'héllo' } });
    expect(create(secretsResource, s)).toEqual([]);
    expect(s.data).toEqual({ a: b64('new'), b: b64('keep'), c: b64('héllo') });
    expect(s).not.toHaveProperty('stringData');
  });

  it('rejects data values that are not base64 as 422 field errors on data[key]', () => {
    const errs = create(secretsResource, secret({ data: { password: 'hunter2!' } }));
    expect(messages(errs)).toEqual(['data[password]: Invalid value: "<secret contents redacted>": illegal base64 data at input byte 7']);
    expect(errs[0].type).toBe('FieldValueInvalid');
  });

  it('rejects invalid keys and oversized data', () => {
    expect(messages(create(secretsResource, secret({ stringData: { 'a/b': 'x' } })))[0]).toMatch(/^data\[a\/b\]: Invalid value: "a\/b": a valid config key/);
    const big = Buffer.alloc(1024 * 1024 + 1).toString('base64');
    expect(messages(create(secretsResource, secret({ data: { big } })))).toEqual(['data: Too long: must have at most 1048576 bytes']);
  });

  it('requires the keys of each well-known type', () => {
    const typed = (type: string, fields: Partial<Secret> = {}): string[] => messages(create(secretsResource, secret({ type, ...fields })));
    expect(typed('kubernetes.io/tls')).toEqual(['data[tls.crt]: Required value', 'data[tls.key]: Required value']);
    expect(typed('kubernetes.io/tls', { stringData: { 'tls.crt': 'c', 'tls.key': 'k' } })).toEqual([]);
    expect(typed('kubernetes.io/basic-auth')).toEqual(['data[username]: Required value', 'data[password]: Required value']);
    expect(typed('kubernetes.io/basic-auth', { stringData: { username: 'u' } })).toEqual([]);
    expect(typed('kubernetes.io/ssh-auth')).toEqual(['data[ssh-privatekey]: Required value']);
    expect(typed('kubernetes.io/dockerconfigjson')).toEqual(['data[.dockerconfigjson]: Required value']);
    expect(typed('kubernetes.io/dockerconfigjson', { stringData: { '.dockerconfigjson': '{"auths":{}}' } })).toEqual([]);
    expect(typed('kubernetes.io/dockerconfigjson', { stringData: { '.dockerconfigjson': '[]' } })).toEqual([
      'data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}',
    ]);
    expect(typed('kubernetes.io/service-account-token')).toEqual(['metadata.annotations[kubernetes.io/service-account.name]: Required value']);
    expect(typed('example.com/custom')).toEqual([]);
  });

  it('keeps the type immutable and honours immutable: true', () => {
    const old = secret({ type: 'Opaque', data: { a: b64('1') }, immutable: true });
    expect(messages(update(secretsResource, secret({ type: 'kubernetes.io/tls', stringData: { 'tls.crt': 'c', 'tls.key': 'k' } }), old))).toEqual([
      'type: Invalid value: "kubernetes.io/tls": field is immutable',
      'immutable: Forbidden: field is immutable when `immutable` is set',
      'data: Forbidden: field is immutable when `immutable` is set',
    ]);
    expect(update(secretsResource, secret({ data: { a: b64('1') }, immutable: true }), old)).toEqual([]);
  });

  it('prints type and data count, and selects on type', () => {
    const s = secret({ type: 'Opaque', data: { a: b64('1'), b: b64('2') } });
    expect(cells(secretsResource, s)).toEqual({ Type: 'Opaque', Data: 2 });
    expect(secretsResource.strategy?.fields?.(s)).toEqual({ type: 'Opaque' });
  });
});
