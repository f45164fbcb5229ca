import { describe, expect, it } from 'vitest';
import { isStatusError } from '@kube/apimachinery';
import { decodeContinueToken, encodeContinueToken } from './continue-token';

describe('continue token', () => {
  it('round-trips revision and start key in kube wire form', () => {
    const token = encodeContinueToken({ resourceVersion: 42, startKey: 'default/b\u0000' });
    expect(JSON.parse(Buffer.from(token, 'base64url').toString())).toEqual({ v: 'meta.k8s.io/v1', rv: 42, start: 'default/b\u0000' });
    expect(decodeContinueToken(token)).toEqual({ resourceVersion: 42, startKey: 'default/b\u0000' });
  });

  it.each(['%%%', Buffer.from('{"v":"x","rv":1,"start":"a"}').toString('base64url'), Buffer.from('{"v":"meta.k8s.io/v1","rv":1,"start":"../etc"}').toString('base64url')])(
    'rejects %s as a 400',
    (bad) => {
      try {
        decodeContinueToken(bad);
        expect.unreachable();
      } catch (err) {
        expect(isStatusError(err) && err.code).toBe(400);
      }
    },
  );
});
