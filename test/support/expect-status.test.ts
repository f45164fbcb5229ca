import { describe, expect, it } from 'vitest';
import { expectStatus } from './expect-status';

describe('expectStatus', () => {
  const conflict = JSON.stringify({ kind: 'Status', status: 'Failure', reason: 'AlreadyExists', code: 409, message: 'customresourcedefinitions.apiextensions.k8s.io "widgets.elected.example.com" already exists' });

  it('passes on the expected code', () => {
    expectStatus({ status: 201, body: '{}' }, 201);
  });

  it("names the request and carries the answer's Status into the failure, from a string, a Buffer or text", () => {
    for (const res of [{ status: 409, body: conflict }, { status: 409, body: Buffer.from(conflict) }, { status: 409, text: conflict }]) {
      expect(() => expectStatus(res, 201, 'POST the CRD')).toThrow(/POST the CRD answered 409: .*"reason":"AlreadyExists".*widgets\.elected\.example\.com.*expected 409 to be 201/s);
    }
  });
});
