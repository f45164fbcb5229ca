/**
 * events.k8s.io/v1 Event: the same objects as core/v1 events, in the same storage (/registry/events), seen
 * through kube's field mapping (pkg/apis/events/v1 conversion): regarding/involvedObject, note/message,
 * reportingController/reportingComponent, deprecated* for the legacy fields. controller-runtime and
 * client-go's new recorder write here.
 */
import { FieldError, type KubeObject } from '@kube/apimachinery';
import type { ResourceConversion, ResourceDefinition, TableColumn } from '@kube/apiserver';
import { eventFields, eventsResource, validateEvent, type Event } from './events.resource';
import { fieldLabelNotSupported } from './field-labels';

const API_VERSION = 'events.k8s.io/v1';

/** Fields renamed between the two versions: [events.k8s.io/v1, core/v1]. */
const RENAMED: ReadonlyArray<[string, string]> = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

function rename(obj: KubeObject, apiVersion: string, pairs: ReadonlyArray<[string, string]>): KubeObject {
  const out: Record<string, unknown> = { ...obj, apiVersion, kind: 'Event' };
  for (const [from, to] of pairs) {
    delete out[from];
    const value = (obj as Record<string, unknown>)[from];
    if (value !== undefined) out[to] = value;
  }
  return out as KubeObject;
}

/** events.k8s.io/v1 → core/v1 (the storage form). */
export function toCoreEvent(obj: KubeObject): Event {
  return rename(obj, 'v1', RENAMED) as Event;
}

/** core/v1 → events.k8s.io/v1. */
export function toEventsV1(obj: KubeObject): KubeObject {
  return rename(obj, API_VERSION, RENAMED.map(([a, b]) => [b, a]));
}

const conversion: ResourceConversion = {
  toStorage: async (obj) => toCoreEvent(obj),
  fromStorage: async (objs) => objs.map(toEventsV1),
};

/** ValidateEventCreate for events.k8s.io/v1: the legacy rules, then the strict ones of the new API. */
export function validateEventsV1(obj: KubeObject): FieldError[] {
  const event = toCoreEvent(obj);
  const errs = [...validateEvent({ ...event, involvedObject: event.involvedObject ?? {} })];
  if (event.series) {
    if ((event.series.count ?? 0) < 2) errs.push(FieldError.invalid('series.count', '', 'should be at least 2'));
    if (!event.series.lastObservedTime) errs.push(FieldError.required('series.lastObservedTime'));
  }
  if (!event.eventTime) errs.push(FieldError.required('eventTime'));
  if (event.type !== 'Normal' && event.type !== 'Warning') errs.push(FieldError.invalid('type', '', `has invalid value: ${event.type ?? ''}`));
  if (event.firstTimestamp) errs.push(FieldError.invalid('deprecatedFirstTimestamp', '', 'needs to be unset'));
  if (event.lastTimestamp) errs.push(FieldError.invalid('deprecatedLastTimestamp', '', 'needs to be unset'));
  if (event.count) errs.push(FieldError.invalid('deprecatedCount', '', 'needs to be unset'));
  if (event.source?.component || event.source?.host) errs.push(FieldError.invalid('deprecatedSource', '', 'needs to be unset'));
  return errs;
}

/** The same printed columns as core/v1 events (kube registers printEvent for both), read from the core form. */
const columns: TableColumn[] = (eventsResource.tableColumns ?? []).map((c) => ({ ...c, cell: (obj: KubeObject) => c.cell(toCoreEvent(obj)) }));

/** core/v1's Event definition (names, scope, printing) in group events.k8s.io, on core's storage keys. */
export const eventsV1Resource: ResourceDefinition = {
  ...eventsResource,
  group: 'events.k8s.io',
  storagePrefix: 'events',
  conversion,
  tableColumns: columns,
  strategy: {
    validate: (obj) => validateEventsV1(obj),
    validateUpdate: (obj) => validateEventsV1(obj),
    // Selectors use the events.k8s.io/v1 names (kube's field label conversion), read off the stored core/v1 objects.
    fields: (obj) => {
      const f = eventFields(obj as Event);
      return {
        reason: f.reason,
        'regarding.kind': f['involvedObject.kind'],
        'regarding.namespace': f['involvedObject.namespace'],
        'regarding.name': f['involvedObject.name'],
        'regarding.uid': f['involvedObject.uid'],
        'regarding.apiVersion': f['involvedObject.apiVersion'],
        'regarding.resourceVersion': f['involvedObject.resourceVersion'],
        'regarding.fieldPath': f['involvedObject.fieldPath'],
        reportingController: f.reportingComponent,
        source: f.source,
        type: f.type,
      };
    },
    unknownFieldLabel: fieldLabelNotSupported,
  },
};
