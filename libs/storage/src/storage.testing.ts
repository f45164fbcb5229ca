import { isStatusError, type Status } from '@kube/apimachinery';
import type { StorageEvent } from './storage.interface';
import type { WatchChannel } from './watch.channel';

/** The Status a storage call failed with (the spec fails if it succeeded or threw something else). */
export async function statusOf(p: Promise<unknown>): Promise<Status> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isStatusError(err)) throw new Error(`expected a StatusError, got ${String(err)}`);
  return err.status;
}

/** The next n events of a watch (fewer if it ends). */
export async function take(ch: WatchChannel<StorageEvent>, n: number): Promise<StorageEvent[]> {
  const out: StorageEvent[] = [];
  while (out.length < n) {
    const next = await ch.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
}
