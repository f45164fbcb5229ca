import { get } from 'node:http';
import { get as httpsGet } from 'node:https';
import type { SupervisedProcess } from './supervised.process';

const POLL_MS = 100;

/** PEM: the CA an https:// probe verifies the server with, and the client certificate it presents. */
export interface HealthProbeTls {
  readonly ca: string;
  readonly cert?: string;
  readonly key?: string;
}

/** Resolves with the HTTP status of GET url, or undefined when nothing answers. */
export function httpStatus(url: string, timeoutMs = 2_000, tls?: HealthProbeTls): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = (url.startsWith('https:') ? httpsGet : get)(url, { timeout: timeoutMs, ...tls }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
  });
}

/**
 * Polls `ready` until it returns true. Fails fast, with the process's last output, if the process exits
 * first; fails with the same output after `timeoutMs`.
 */
export async function waitUntilReady(proc: SupervisedProcess, ready: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!proc.running) throw startupError(proc, proc.describeExit());
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  await proc.kill();
  throw startupError(proc, `${proc.name} not ready after ${timeoutMs} ms`);
}

function startupError(proc: SupervisedProcess, reason: string): Error {
  return new Error(`${reason}; last output:\n${proc.output() || '(none)'}`);
}

/** True when a failed start was caused by a port taken between freePorts() and the bind: worth retrying. */
export function isPortClash(err: unknown): boolean {
  return err instanceof Error && /address already in use/i.test(err.message);
}
