import { EventBus } from '@kube/client';
import type { BackendTarget } from './proxy/backend.target';

/** A remote APIService's backend as the availability controller resolved it. */
export interface RemoteTarget {
  target: BackendTarget;
  groupVersion: string;
}

/** What the aggregator's controllers tell each other (payload per event). */
export interface AggregatorEventMap extends Record<string, unknown> {
  /** The set of reachable remote APIService backends changed (by APIService name): discovery is re-read. */
  remoteTargetsChanged: ReadonlyMap<string, RemoteTarget>;
}

/** The aggregator's event bus, one per application (a provider). */
export class AggregatorEvents extends EventBus<AggregatorEventMap> {}
