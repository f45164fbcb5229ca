import type { SelectionPredicate, StorageEvent } from './storage.interface';

/**
 * An event as a watch with this predicate sees it (kube's cacheWatcher filtering): entering the selection is
 * ADDED, leaving it DELETED, otherwise the event passes as is or is dropped. Allocates only for a changed type.
 */
export function filterEvent(ev: StorageEvent, predicate: SelectionPredicate): StorageEvent | undefined {
  switch (ev.type) {
    case 'ADDED':
      return predicate(ev.object) ? ev : undefined;
    case 'DELETED':
      return ev.prevObject !== undefined && predicate(ev.prevObject) ? ev : undefined;
    case 'MODIFIED': {
      const now = predicate(ev.object);
      const before = ev.prevObject !== undefined && predicate(ev.prevObject);
      if (now) return before ? ev : { ...ev, type: 'ADDED' };
      return before ? { ...ev, type: 'DELETED' } : undefined;
    }
    default:
      return ev;
  }
}
