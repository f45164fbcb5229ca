/** Runs `fn` until it succeeds, at most `attempts` times `delayMs` apart; the last failure is thrown. For start-up steps that wait on another component. */
export async function retrying<T>(fn: () => Promise<T>, attempts: number, delayMs: number): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= attempts) throw err;
      await new Promise((r) => setTimeout(r, delayMs));
    }
  }
}
