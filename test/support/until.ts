/** Polls `cond` every 200 ms until it holds or `timeoutMs` passes; resolves with whether it held. */
export async function until(cond: () => Promise<boolean>, timeoutMs = 15_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}
