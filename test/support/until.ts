/**
 * Polls `cond` every 200 ms until it holds or `timeoutMs` passes; resolves with whether it held. A `cond` that
 * throws (a connection refused while a server restarts, a reply not yet parseable) counts as not holding yet;
 * if the last try at the deadline threw, that error is thrown, as it says more than `false`.
 */
export async function until(cond: () => Promise<boolean>, timeoutMs = 15_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let failure: { error: unknown } | undefined;
  while (Date.now() < deadline) {
    try {
      if (await cond()) return true;
      failure = undefined;
    } catch (error) {
      failure = { error };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  if (failure) throw failure.error;
  return false;
}
