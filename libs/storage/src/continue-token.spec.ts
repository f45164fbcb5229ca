import { describe, expect, it } from 'vitest';
import { isStatusError } from '@kube/apimachinery';
import { decodeContinueToken, encodeContinueToken } from './continue-token';

const token = (wire: unknown): string => Buffer.from(JSON.stringify(wire)).toString('base64url');

describe('continue token', () => {
  it('round-trips revision and start key in kube wire form', () => {
    const encoded = encodeContinueToken({ resourceVersion: 42, startKey: 'default/b\u0000' });
    expect(JSON.parse(Buffer.from(encoded, 'base64url').toString())).toEqual({ v: 'meta.k8s.io/v1', rv: 42, start: 'default/b\u0000' });
    expect(decodeContinueToken(encoded)).toEqual({ resourceVersion: 42, startKey: 'default/b\u0000' });
  });

  it('takes the token of kube 410 for a compacted one (rv -1: the rest at the latest revision)', () => {
    expect(decodeContinueToken(token({ v: 'meta.k8s.io/v1', rv: -1, start: 'b\u0000' }))).toEqual({ resourceVersion: -1, startKey: 'b\u0000' });
  });

  // kube: "invalid continue token: " + storage.DecodeContinue's error (base64, encoding/json, then its own checks).
  it.each([
    ['%%%', 'illegal base64 data at input byte 0'],
    ['abc=', 'illegal base64 data at input byte 3'],
    ['garbage', "invalid character '\\u0081' looking for beginning of value"],
    [token('x'), 'json: cannot unmarshal string into Go value of type storage.continueToken'],
    [token({ v: 'meta.k8s.io/v1', rv: '1', start: 'a' }), 'json: cannot unmarshal string into Go struct field continueToken.rv of type int64'],
    [token({ v: 'x', rv: 1, start: 'a' }), 'server does not recognize this encoded version x'],
    [token({ v: 'meta.k8s.io/v1', rv: 0, start: 'a' }), 'incorrect encoded start resourceVersion (version meta.k8s.io/v1)'],
    [token({ v: 'meta.k8s.io/v1', rv: 1, start: '' }), 'encoded start key empty (version meta.k8s.io/v1)'],
    [token({ v: 'meta.k8s.io/v1', rv: 1, start: '../etc' }), '../etc'],
  ])('rejects %s as kube does', (bad, detail) => {
    try {
      decodeContinueToken(bad);
      expect.unreachable();
    } catch (err) {
      expect(isStatusError(err) && err.status).toMatchObject({ code: 400, reason: 'BadRequest', message: `invalid continue token: continue key is not valid: ${detail}` });
    }
  });
});
