/** Helpers of the registration specs (not exported from the lib). */
import type { RegistrationLogger } from './registration.types';

/** Collects warnings instead of printing them, so tests can check that a reason was logged. */
export class CapturingLogger implements RegistrationLogger {
  readonly warnings: string[] = [];
  log(): void {}
  warn(message: string): void {
    this.warnings.push(message);
  }
}

/** Retries `check` until it passes or `timeoutMs` is over (then its last failure is thrown). */
export async function eventually(check: () => void, timeoutMs = 3000, pollMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
}
