import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { formatTimestamp } from '@kube/apiserver';
import { resourcePath, type RestClient } from '@kube/client';

/** What an event is about (core/v1 ObjectReference). */
export interface InvolvedObject {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  uid: string;
}

const EVENTS = { group: '', version: 'v1', resource: 'events', namespaced: true };

/** client-go's EventRecorder, without aggregation: one core/v1 Event per call, best effort (a failure is only logged). */
export class EventRecorder {
  private readonly logger = new Logger('EventRecorder');

  constructor(
    private readonly client: RestClient,
    private readonly component: string,
  ) {}

  warning(object: InvolvedObject, reason: string, message: string): void {
    this.record(object, 'Warning', reason, message);
  }

  normal(object: InvolvedObject, reason: string, message: string): void {
    this.record(object, 'Normal', reason, message);
  }

  private record(object: InvolvedObject, type: string, reason: string, message: string): void {
    // Events of cluster-scoped objects go to "default", as client-go's recorder does.
    const namespace = object.namespace || 'default';
    const now = formatTimestamp(new Date());
    const event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${object.name}.${randomBytes(8).toString('hex')}`, namespace },
      involvedObject: object,
      reason,
      message,
      type,
      source: { component: this.component },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      reportingComponent: this.component,
    };
    this.client.request('POST', resourcePath(EVENTS, namespace), { body: event }).catch((err: unknown) => this.logger.warn(`event ${reason} on ${object.kind} ${object.name}: ${(err as Error).message}`));
  }
}
