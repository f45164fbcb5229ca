/** core/v1 Event (legacyValidateEvent, event ToSelectableFields, printEvent). */
import { FieldError, type KubeObject } from '@kube/apimachinery';
import type { ResourceDefinition, ResourceStrategy } from '@kube/apiserver';
import type { ObjectReference } from './serviceaccounts.resource';
import { since } from './table.helpers';
import { byteLength, isRecord, validateQualifiedName } from './validation.helpers';
import { fieldLabelNotSupported } from './field-labels';

export interface Event extends KubeObject {
  involvedObject?: ObjectReference;
  reason?: string;
  message?: string;
  source?: { component?: string; host?: string };
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  count?: number;
  type?: string;
  eventTime?: string | null;
  series?: { count?: number; lastObservedTime?: string | null } | null;
  action?: string;
  related?: ObjectReference;
  reportingComponent?: string;
  reportingInstance?: string;
}

const REPORTING_INSTANCE_LENGTH_LIMIT = 128;
const ACTION_LENGTH_LIMIT = 128;
const REASON_LENGTH_LIMIT = 128;
const NOTE_LENGTH_LIMIT = 1024;

const NAMESPACE_DEFAULT = 'default';
const NAMESPACE_SYSTEM = 'kube-system';

function namespaceMismatch(event: Event): FieldError {
  return FieldError.invalid('involvedObject.namespace', event.involvedObject?.namespace ?? '', 'does not match event.namespace');
}

/** Old-style events (no eventTime): the event lives in its object's namespace, or "default" for cluster objects. */
function validateLegacyNamespace(event: Event): FieldError[] {
  const involved = event.involvedObject?.namespace ?? '';
  const namespace = event.metadata.namespace ?? '';
  if (involved === '') return namespace === '' || namespace === NAMESPACE_DEFAULT ? [] : [namespaceMismatch(event)];
  return namespace === involved ? [] : [namespaceMismatch(event)];
}

function requiredWithin(value: string | undefined, path: string, limit: number): FieldError[] {
  if (!value) return [FieldError.required(path)];
  return byteLength(value) > limit ? [FieldError.invalid(path, '', `can have at most ${limit} characters`)] : [];
}

/** New-style events (eventTime set) carry reporting controller, instance, action and reason. */
function validateReportedEvent(event: Event): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = event.metadata.namespace ?? '';
  if (!event.involvedObject?.namespace && namespace !== NAMESPACE_DEFAULT && namespace !== NAMESPACE_SYSTEM) {
    errs.push(namespaceMismatch(event));
  }
  const controller = event.reportingComponent ?? '';
  if (!controller) errs.push(FieldError.required('reportingController'));
  errs.push(...validateQualifiedName(controller, 'reportingController'));
  errs.push(...requiredWithin(event.reportingInstance, 'reportingInstance', REPORTING_INSTANCE_LENGTH_LIMIT));
  errs.push(...requiredWithin(event.action, 'action', ACTION_LENGTH_LIMIT));
  errs.push(...requiredWithin(event.reason, 'reason', REASON_LENGTH_LIMIT));
  if (event.message && byteLength(event.message) > NOTE_LENGTH_LIMIT) {
    errs.push(FieldError.invalid('message', '', `can have at most ${NOTE_LENGTH_LIMIT} characters`));
  }
  return errs;
}

export function validateEvent(event: Event): FieldError[] {
  if (!isRecord(event.involvedObject)) return [FieldError.required('involvedObject')];
  return event.eventTime ? validateReportedEvent(event) : validateLegacyNamespace(event);
}

/** Field selector values (pkg/registry/core/event ToSelectableFields). */
export function eventFields(event: Event): Record<string, string> {
  const involved = event.involvedObject ?? {};
  return {
    'involvedObject.kind': involved.kind ?? '',
    'involvedObject.namespace': involved.namespace ?? '',
    'involvedObject.name': involved.name ?? '',
    'involvedObject.uid': involved.uid ?? '',
    'involvedObject.apiVersion': involved.apiVersion ?? '',
    'involvedObject.resourceVersion': involved.resourceVersion ?? '',
    'involvedObject.fieldPath': involved.fieldPath ?? '',
    reason: event.reason ?? '',
    reportingComponent: event.reportingComponent ?? '',
    source: event.source?.component || event.reportingComponent || '',
    type: event.type ?? '',
  };
}

// ---------------------------------------------------------------------------
// Printing (printEvent)
// ---------------------------------------------------------------------------

function firstSeen(event: Event, now: number): string {
  return event.firstTimestamp ? since(event.firstTimestamp, now) : since(event.eventTime, now);
}

function lastSeen(event: Event, now: number): string {
  if (event.series) return since(event.series.lastObservedTime, now);
  return event.lastTimestamp ? since(event.lastTimestamp, now) : firstSeen(event, now);
}

function eventCount(event: Event): number {
  if (event.series) return event.series.count ?? 0;
  return event.count || 1;
}

/** "kind/name" in lower-case kind, or just the kind. */
function eventTarget(event: Event): string {
  const kind = (event.involvedObject?.kind ?? '').toLowerCase();
  const name = event.involvedObject?.name;
  return name ? `${kind}/${name}` : kind;
}

/** formatEventSource: "component, host", falling back to the reporting controller and instance. */
function eventSource(event: Event): string {
  const component = event.source?.component || event.reportingComponent || '';
  const instance = event.source?.host || event.reportingInstance || '';
  return instance ? `${component}, ${instance}` : component;
}

const asEvent = (obj: KubeObject): Event => obj as Event;

export const eventStrategy: ResourceStrategy = {
  validate: (obj: KubeObject) => validateEvent(asEvent(obj)),
  validateUpdate: (obj: KubeObject) => validateEvent(asEvent(obj)),
  fields: (obj: KubeObject) => eventFields(asEvent(obj)),
  unknownFieldLabel: fieldLabelNotSupported,
};

export const eventsResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Event',
  plural: 'events',
  singular: 'event',
  shortNames: ['ev'],
  namespaced: true,
  strategy: eventStrategy,
  // printEvent has no Age column.
  tableAge: false,
  // kube prints no leading Name column for events: the name comes last, in wide output only.
  tableColumns: [
    {
      name: 'Last Seen',
      type: 'string',
      description: 'The time at which the most recent occurrence of this event was recorded.',
      cell: (obj: KubeObject, now: number = Date.now()) => lastSeen(asEvent(obj), now),
    },
    { name: 'Type', type: 'string', description: 'Type of this event (Normal, Warning), new types could be added in the future', cell: (obj) => asEvent(obj).type ?? '' },
    { name: 'Reason', type: 'string', description: "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.", cell: (obj) => asEvent(obj).reason ?? '' },
    { name: 'Object', type: 'string', description: 'The object that this event is about.', cell: (obj) => eventTarget(asEvent(obj)) },
    { name: 'Subobject', type: 'string', priority: 1, description: 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].', cell: (obj) => asEvent(obj).involvedObject?.fieldPath ?? '' },
    { name: 'Source', type: 'string', priority: 1, description: 'The component reporting this event. Should be a short machine understandable string.', cell: (obj) => eventSource(asEvent(obj)) },
    { name: 'Message', type: 'string', description: 'A human-readable description of the status of this operation.', cell: (obj) => (asEvent(obj).message ?? '').trim() },
    {
      name: 'First Seen',
      type: 'string',
      priority: 1,
      description: 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
      cell: (obj: KubeObject, now: number = Date.now()) => firstSeen(asEvent(obj), now),
    },
    { name: 'Count', type: 'string', priority: 1, description: 'The number of times this event has occurred.', cell: (obj) => eventCount(asEvent(obj)) },
    { name: 'Name', type: 'string', priority: 1, format: 'name', description: 'Name must be unique within a namespace.', cell: (obj) => obj.metadata.name ?? '' },
  ],
};
