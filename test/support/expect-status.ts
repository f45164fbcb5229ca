import { expect } from 'vitest';

/** An HTTP answer as the e2e helpers return it: the body as text (`body` or `text`) or bytes. */
export interface StatusAnswer {
  readonly status: number;
  readonly body?: string | Buffer;
  readonly text?: string;
}

/**
 * Asserts the answer's status code and, when it is not the one expected, puts the body (a metav1.Status says
 * why: AlreadyExists, a conflict, a timeout) into the failure message: a flake on a loaded CI machine is then
 * diagnosable from its one log line.
 */
export function expectStatus(res: StatusAnswer, code: number, what = 'request'): void {
  if (res.status === code) return;
  const body = res.text ?? (typeof res.body === 'string' ? res.body : res.body?.toString('utf8')) ?? '';
  expect(res.status, `${what} answered ${res.status}: ${body.slice(0, 2_000)}`).toBe(code);
}
