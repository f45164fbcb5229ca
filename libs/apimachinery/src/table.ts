import type { KubeObject, ListMeta } from './types';

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableRow {
  cells: unknown[];
  object?: unknown;
}

export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: ListMeta;
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** A printed column: definition + cell function. */
export interface PrintColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  cell(obj: KubeObject, now: number): unknown;
}

export const NAME_COLUMN: PrintColumn = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  cell: (obj) => obj.metadata.name ?? '',
};

export const AGE_COLUMN: PrintColumn = {
  name: 'Age',
  type: 'string',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
  cell: (obj, now) => humanAge(obj.metadata.creationTimestamp, now),
};

/**
 * Human-readable duration as kubectl prints ages (k8s.io/apimachinery/pkg/util/duration.HumanDuration).
 */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.floor(hours / 24) % 365;
    return dy === 0 ? `${Math.floor(hours / 24 / 365)}y` : `${Math.floor(hours / 24 / 365)}y${dy}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

export function humanAge(timestamp: string | undefined, now: number): string {
  if (!timestamp) return '<unknown>';
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
}

function rowObject(obj: KubeObject, include: IncludeObject): unknown {
  if (include === 'None') return undefined;
  if (include === 'Object') return obj;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

/** Builds a meta.k8s.io/v1 Table: Name, the given columns, then Age unless a column already is "Age". */
export function buildTable(columns: readonly PrintColumn[], objects: readonly KubeObject[], meta: ListMeta, include: IncludeObject = 'Metadata', withDefinitions = true, withAge = true): Table {
  const all = allColumns(columns, withAge);
  const now = Date.now();
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: meta,
    columnDefinitions: withDefinitions ? all.map(toDefinition) : [],
    rows: objects.map((obj) => {
      const row: TableRow = { cells: all.map((c) => c.cell(obj, now)) };
      const o = rowObject(obj, include);
      if (o !== undefined) row.object = o;
      return row;
    }),
  };
}

/** Name first; Age last unless the resource prints its own Age column (kube's default printer does this). */
export function allColumns(columns: readonly PrintColumn[], withAge = true): PrintColumn[] {
  const hasAge = !withAge || columns.some((c) => c.name.toLowerCase() === 'age');
  const hasName = columns.some((c) => c.format === 'name');
  return [...(hasName ? [] : [NAME_COLUMN]), ...columns, ...(hasAge ? [] : [AGE_COLUMN])];
}

function toDefinition(c: PrintColumn): TableColumnDefinition {
  return { name: c.name, type: c.type, format: c.format ?? '', description: c.description ?? '', priority: c.priority ?? 0 };
}
