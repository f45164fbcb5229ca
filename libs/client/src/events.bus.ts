/**
 * A small typed publish/subscribe bus: controllers tell each other about changes through an injected bus
 * instead of setting callbacks on each other. `E` maps each event name to its payload.
 */
export class EventBus<E extends Record<string, unknown>> {
  private readonly subscribers = new Map<keyof E, Set<(payload: never) => void>>();

  subscribe<K extends keyof E>(event: K, fn: (payload: E[K]) => void): () => void {
    const set = this.subscribers.get(event) ?? new Set();
    set.add(fn as (payload: never) => void);
    this.subscribers.set(event, set);
    return () => set.delete(fn as (payload: never) => void);
  }

  publish<K extends keyof E>(event: K, payload: E[K]): void {
    for (const fn of this.subscribers.get(event) ?? []) (fn as (payload: E[K]) => void)(payload);
  }
}
