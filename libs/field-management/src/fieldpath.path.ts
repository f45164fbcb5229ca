/**
 * Path elements and paths (sigs.k8s.io/structured-merge-diff fieldpath): a field name of a map or
 * struct, the key fields of an item of an associative list, the value of an item of a set, or the
 * index of an item of an atomic list (only when there is no schema to say otherwise).
 */
import { compareStrings, compareValues, goJson, goJsonString, valueToString, valuesEqual, type Value } from './value.order';

/** One key field of a keyed list item; a key is a list of them sorted by name. */
export interface KeyField {
  name: string;
  value: Value;
}

export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'key'; readonly key: readonly KeyField[] }
  | { readonly kind: 'value'; readonly value: Value }
  | { readonly kind: 'index'; readonly index: number };

export type Path = readonly PathElement[];

const KIND_ORDER = { field: 0, key: 1, value: 2, index: 3 } as const;

export const PathElements = {
  field(name: string): PathElement {
    return { kind: 'field', name };
  },
  /** Key fields are sorted by name (stable, as Go's FieldList.Sort). */
  key(fields: KeyField[]): PathElement {
    const key = fields.length < 2 ? fields : [...fields].sort((a, b) => compareStrings(a.name, b.name));
    return { kind: 'key', key };
  },
  value(value: Value): PathElement {
    return { kind: 'value', value };
  },
  index(index: number): PathElement {
    return { kind: 'index', index };
  },
};

function compareKeys(a: readonly KeyField[], b: readonly KeyField[]): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = compareStrings(a[i].name, b[i].name);
    if (c !== 0) return c;
    const cv = compareValues(a[i].value, b[i].value);
    if (cv !== 0) return cv;
  }
}

/** PathElement.Compare: field names < keys < values < indexes, then within each kind. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] < KIND_ORDER[b.kind] ? -1 : 1;
  switch (a.kind) {
    case 'field':
      return compareStrings(a.name, (b as typeof a).name);
    case 'key':
      return compareKeys(a.key, (b as typeof a).key);
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    default: {
      const j = (b as typeof a).index;
      return a.index < j ? -1 : a.index > j ? 1 : 0;
    }
  }
}

export function pathElementsEqual(a: PathElement, b: PathElement): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'field':
      return a.name === (b as typeof a).name;
    case 'key': {
      const k = (b as typeof a).key;
      if (a.key.length !== k.length) return false;
      for (let i = 0; i < k.length; i++) if (a.key[i].name !== k[i].name || !valuesEqual(a.key[i].value, k[i].value)) return false;
      return true;
    }
    case 'value':
      return valuesEqual(a.value, (b as typeof a).value);
    default:
      return a.index === (b as typeof a).index;
  }
}

/** PathElement.String(): `.name`, `[k=v,k2=v2]`, `[=v]`, `[i]` (as conflict messages print them). */
export function pathElementString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `.${pe.name}`;
    case 'key':
      return `[${pe.key.map((f) => `${f.name}=${valueToString(f.value)}`).join(',')}]`;
    case 'value':
      return `[=${valueToString(pe.value)}]`;
    default:
      return `[${pe.index}]`;
  }
}

export function pathString(path: Path): string {
  let s = '';
  for (const pe of path) s += pathElementString(pe);
  return s;
}

export function comparePaths(a: Path, b: Path): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = comparePathElements(a[i], b[i]);
    if (c !== 0) return c;
  }
}

/** Builds a path from parts: strings are field names, numbers indexes (fieldpath.MakePath). */
export function makePath(...parts: Array<string | number | PathElement>): Path {
  return parts.map((p) => (typeof p === 'string' ? PathElements.field(p) : typeof p === 'number' ? PathElements.index(p) : p));
}

/** The fieldsV1 key of a path element: `f:name`, `k:{"a":1}`, `v:"x"`, `i:0` (fieldpath.SerializePathElement). */
export function serializePathElement(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `f:${pe.name}`;
    case 'key':
      return `k:{${pe.key.map((f) => `${goJsonString(f.name)}:${goJson(f.value)}`).join(',')}}`;
    case 'value':
      return `v:${goJson(pe.value)}`;
    default:
      return `i:${pe.index}`;
  }
}

export class UnknownPathElementError extends Error {}

/** Parses a fieldsV1 key (fieldpath.DeserializePathElement); unknown prefixes raise UnknownPathElementError. */
export function deserializePathElement(s: string): PathElement {
  if (s.length < 2) throw new Error('key must be 2 characters long:');
  if (s[1] !== ':') throw new Error(`missing colon: ${s}`);
  const body = s.slice(2);
  switch (s[0]) {
    case 'f':
      return PathElements.field(body);
    case 'v':
      return PathElements.value(parseJson(body));
    case 'k': {
      const obj = parseJson(body);
      if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new Error(`invalid key: ${body}`);
      return PathElements.key(Object.entries(obj).map(([name, value]) => ({ name, value })));
    }
    case 'i': {
      if (!/^[+-]?\d+$/.test(body)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(body)}: invalid syntax`);
      return PathElements.index(Number(body));
    }
    default:
      throw new UnknownPathElementError('unknown path element type');
  }
}

function parseJson(text: string): Value {
  try {
    return JSON.parse(text) as Value;
  } catch (err) {
    throw new Error(`invalid JSON in path element: ${(err as Error).message}`);
  }
}
