/**
 * What Go's encoding/json (kube's sigs.k8s.io/json fork) refuses when it decodes a request body into a typed
 * struct: a JSON value of the wrong kind for a field. kube answers those with 400 and the decoder's message
 * (`json: cannot unmarshal object into Go struct field ObjectMeta.metadata.labels of type string`); code that
 * trusts the declared TypeScript types would otherwise meet an object where it expects a string (a 500).
 */

/** A Go type as encoding/json decodes into it. */
export type GoType =
  /** `name`: a named type (`types.UID`), as Go prints it. */
  | { readonly kind: 'string' | 'bool' | 'int64' | 'int32' | 'float64'; readonly name?: string }
  /** Any JSON (interface{}, json.RawMessage, FieldsV1, RawExtension). */
  | { readonly kind: 'any' }
  /** A type whose UnmarshalJSON reads a JSON string first (metav1.Time): other values fail as `Go value of type string`. */
  | { readonly kind: 'text' }
  | { readonly kind: 'map'; readonly elem: GoType }
  | { readonly kind: 'slice'; readonly elem: GoType }
  /** `name` is how Go prints the type (`v1.ObjectMeta`); `fields` by JSON name. */
  | { readonly kind: 'struct'; readonly name: string; readonly fields: Readonly<Record<string, GoType>> };

export const GO_STRING: GoType = { kind: 'string' };
export const GO_BOOL: GoType = { kind: 'bool' };
export const GO_INT64: GoType = { kind: 'int64' };
export const GO_INT32: GoType = { kind: 'int32' };
export const GO_ANY: GoType = { kind: 'any' };
export const GO_TIME: GoType = { kind: 'text' };

export const goNamedString = (name: string): GoType => ({ kind: 'string', name });
export const goMap = (elem: GoType): GoType => ({ kind: 'map', elem });
export const goSlice = (elem: GoType): GoType => ({ kind: 'slice', elem });
export const goStruct = (name: string, fields: Record<string, GoType>): GoType => ({ kind: 'struct', name, fields });

/** How Go prints a type in UnmarshalTypeError (`map[string]string`, `[]v1.OwnerReference`). */
function typeName(t: GoType): string {
  switch (t.kind) {
    case 'map':
      return `map[string]${typeName(t.elem)}`;
    case 'slice':
      return `[]${typeName(t.elem)}`;
    case 'struct':
      return t.name;
    case 'text':
      return 'string';
    case 'any':
      return 'interface {}';
    default:
      return t.name ?? t.kind;
  }
}

/** The JSON kind Go names in the message: `string`, `number`, `bool`, `array`, `object`. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

const INT_RANGE = { int64: [-(2n ** 63n), 2n ** 63n - 1n], int32: [-(2n ** 31n), 2n ** 31n - 1n] } as const;

/** The decoder's error context: the innermost struct and the JSON names of the fields on the way (slice indexes and map keys are not named). */
interface Context {
  struct: string;
  fields: string[];
}

interface Mismatch {
  value: string;
  type: string;
  context: Context;
  /** The offending value and the type it should have decoded into. */
  actual: unknown;
  target: GoType;
}

function mismatch(value: unknown, t: GoType, ctx: Context, literal?: string): Mismatch {
  return { value: literal ?? jsonKind(value), type: typeName(t), context: { struct: ctx.struct, fields: [...ctx.fields] }, actual: value, target: t };
}

function unqualified(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}

/** The first mismatch in document order (Go keeps decoding after one and reports the first). */
function check(value: unknown, t: GoType, ctx: Context): Mismatch | undefined {
  if (value === null || value === undefined || t.kind === 'any') return undefined;
  switch (t.kind) {
    case 'string':
    case 'text':
      return typeof value === 'string' ? undefined : mismatch(value, t, ctx);
    case 'bool':
      return typeof value === 'boolean' ? undefined : mismatch(value, t, ctx);
    case 'float64':
      return typeof value === 'number' ? undefined : mismatch(value, t, ctx);
    case 'int64':
    case 'int32': {
      if (typeof value !== 'number') return mismatch(value, t, ctx);
      const [min, max] = INT_RANGE[t.kind];
      // JSON.parse kept no literal text: its shortest form stands for it.
      if (!Number.isInteger(value) || BigInt(value) < min || BigInt(value) > max) return mismatch(value, t, ctx, `number ${value}`);
      return undefined;
    }
    case 'map': {
      if (typeof value !== 'object' || Array.isArray(value)) return mismatch(value, t, ctx);
      for (const v of Object.values(value)) {
        const m = check(v, t.elem, ctx);
        if (m) return m;
      }
      return undefined;
    }
    case 'slice': {
      if (!Array.isArray(value)) return mismatch(value, t, ctx);
      for (const v of value) {
        const m = check(v, t.elem, ctx);
        if (m) return m;
      }
      return undefined;
    }
    case 'struct': {
      if (typeof value !== 'object' || Array.isArray(value)) return mismatch(value, t, ctx);
      for (const [k, v] of Object.entries(value)) {
        const field = Object.hasOwn(t.fields, k) ? t.fields[k] : undefined;
        if (!field) continue;
        const m = check(v, field, { struct: unqualified(t.name), fields: [...ctx.fields, k] });
        if (m) return m;
      }
      return undefined;
    }
  }
}

/** Go's UnmarshalTypeError text for the first value in `value` that does not decode into `t`, or undefined. */
export function goDecodeError(value: unknown, t: GoType): string | undefined {
  const m = check(value, t, { struct: '', fields: [] });
  if (!m) return undefined;
  const where = m.context.struct || m.context.fields.length ? `Go struct field ${m.context.struct}.${m.context.fields.join('.')}` : 'Go value';
  return `json: cannot unmarshal ${m.value} into ${where} of type ${m.type}`;
}

/** The zero value Go's decoder leaves where a JSON null meets a map or slice element of type `t` (undefined: keep null). */
function zeroOf(t: GoType): unknown {
  switch (t.kind) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'int64':
    case 'int32':
    case 'float64':
      return 0;
    case 'struct':
      return {};
    default:
      return null;
  }
}

/**
 * Rewrites, in place, the JSON nulls Go's decoder turns into zero values: a null element of a map or slice of
 * strings, numbers, bools or structs (`labels: {"a": null}` is the label "a" with value ""). A value that passed
 * goDecodeError holds nothing else code typed after Go could trip over; nulls elsewhere (a field, an element of
 * pointers, maps or slices) stay, as Go leaves them nil.
 */
export function goZeroNulls(value: unknown, t: GoType): void {
  if (value === null || typeof value !== 'object') return;
  switch (t.kind) {
    case 'map':
    case 'slice': {
      const container = value as Record<string, unknown>;
      for (const k of Object.keys(container)) {
        if (container[k] === null) container[k] = zeroOf(t.elem);
        else goZeroNulls(container[k], t.elem);
      }
      return;
    }
    case 'struct': {
      if (Array.isArray(value)) return;
      const obj = value as Record<string, unknown>;
      for (const [k, v] of Object.entries(obj)) if (Object.hasOwn(t.fields, k)) goZeroNulls(v, t.fields[k]);
      return;
    }
    default:
      return;
  }
}

/** The Go type an unstructured value has (runtime's JSON decoding: integral numbers are int64). */
function unstructuredType(v: unknown): { kind: string; type: string } {
  if (Array.isArray(v)) return { kind: 'slice', type: '[]interface {}' };
  if (typeof v === 'object') return { kind: 'map', type: 'map[string]interface {}' };
  if (typeof v === 'number') return Number.isInteger(v) ? { kind: 'int64', type: 'int64' } : { kind: 'float64', type: 'float64' };
  return { kind: typeof v === 'boolean' ? 'bool' : 'string', type: typeof v === 'boolean' ? 'bool' : 'string' };
}

/**
 * runtime.DefaultUnstructuredConverter's error for the first value of `value` that does not convert into `t`
 * (`cannot restore map from string`), as kube reports a strategic merge patch whose result has the wrong types.
 */
export function goUnstructuredConvertError(value: unknown, t: GoType): string | undefined {
  const m = check(value, t, { struct: '', fields: [] });
  if (!m) return undefined;
  const source = unstructuredType(m.actual);
  switch (m.target.kind) {
    case 'map':
    case 'slice':
      return `cannot restore ${m.target.kind} from ${source.kind}`;
    case 'struct':
      return `cannot restore struct from: ${source.kind}`;
    default:
      return `cannot convert ${source.type} to ${m.type}`;
  }
}

/** Go's %+v of a decoded JSON value (a strategic merge patch's map, as kube prints it in an error). */
export function goSprintValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goSprintValue).join(' ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `map[${entries.map(([k, v]) => `${k}:${goSprintValue(v)}`).join(' ')}]`;
  }
  if (typeof value === 'number' && !Number.isInteger(value)) {
    // %v of a float64: strconv 'g' with the shortest precision (exponent from 1e21, as Go switches at e+21).
    return Math.abs(value) >= 1e21 || (value !== 0 && Math.abs(value) < 1e-4) ? value.toExponential().replace(/e([+-])(\d)$/, (_m, sign: string, digit: string) => `e${sign}0${digit}`) : String(value);
  }
  return String(value);
}
