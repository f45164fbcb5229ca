/** Printing helpers for the core resources' Table columns (pkg/printers/internalversion). */
import { humanAge, type KubeObject } from '@kube/apimachinery';
import type { TableColumn } from '@kube/apiserver';
import { entriesOf, type StringMap } from './validation.helpers';

export const NONE = '<none>';

export const CREATION_TIMESTAMP_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** translateTimestampSince: a human age, "<unknown>" for a missing timestamp. */
export function since(timestamp: string | undefined | null, now: number = Date.now()): string {
  return humanAge(timestamp ?? undefined, now);
}

/** An explicit Age column, for resources that print columns after it (pods). */
export const ageColumn: TableColumn = {
  name: 'Age',
  type: 'string',
  description: CREATION_TIMESTAMP_DESCRIPTION,
  cell: (obj: KubeObject, now: number = Date.now()) => since(obj.metadata.creationTimestamp, now),
};

/** NAME, CREATED AT (RFC 3339, UTC) as printRole and printLimitRange print it. */
export const createdAtColumn: TableColumn = {
  name: 'Created At',
  type: 'date',
  description: CREATION_TIMESTAMP_DESCRIPTION,
  cell: (obj: KubeObject) => obj.metadata.creationTimestamp ?? null,
};

/** labels.FormatLabels: "k=v,k2=v2" sorted by key, "<none>" when empty. */
export function formatLabels(labels: StringMap | undefined): string {
  const pairs = entriesOf(labels)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`);
  return pairs.length > 0 ? pairs.join(',') : NONE;
}

/** Number of keys of a JSON object, 0 when absent. */
export function countKeys(value: Record<string, unknown> | undefined): number {
  return entriesOf(value).length;
}
