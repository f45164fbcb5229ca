/**
 * OpenAPI v3 value validation as kube-openapi's validate.SchemaValidator does it for custom resources
 * (pkg/validation/validate: schema.go, type.go, validator.go, values.go, object_validator.go,
 * slice_validator.go, schema_props.go), converted to field errors the way apiextensions-apiserver's
 * kubeOpenAPIResultToFieldErrors does. Every violation is reported, in a stable order: per value the
 * validators run type, allOf/anyOf/oneOf/not, string, format, number, array, enum, object; object
 * properties in schema order.
 */
import { FieldError, type JSONSchemaProps } from '@kube/apimachinery';
import { childPath, reportedPath } from './field-path.format';
import { compileGoRegexp } from './go-regexp.engine';
import { goFloatString, goNumberString, isJsonInteger, isJsonMap, deepEqualJson, runeCount } from './json.values';
import { effectiveFormat, validatesFormat } from './string-format.registry';
import { itemsSchema, properties } from './schema.props';

type Code =
  | 'invalidType'
  | 'required'
  | 'tooLong'
  | 'tooShort'
  | 'pattern'
  | 'enum'
  | 'multipleOf'
  | 'max'
  | 'min'
  | 'unique'
  | 'maxItems'
  | 'minItems'
  | 'tooFewProperties'
  | 'tooManyProperties'
  | 'unallowedProperty'
  | 'multipleOfMustBePositive';

/** errors.Validation (with a code) or a plain error (composite messages, range checks). */
interface OpenAPIError {
  code?: Code;
  name: string;
  message: string;
  /** The offending value; undefined is Go's nil. */
  value?: unknown;
  /** The limit for tooLong / maxItems / tooManyProperties. */
  limit?: number;
  values?: unknown[];
}

/** validate.Result: errors deduplicated by message, plus the match count anyOf/oneOf rank failures by. */
class Result {
  readonly errors: OpenAPIError[] = [];
  matchCount = 0;

  add(...errs: Array<OpenAPIError | undefined>): this {
    for (const e of errs) if (e && !this.errors.some((x) => x.message === e.message)) this.errors.push(e);
    return this;
  }

  merge(...others: Array<Result | undefined>): this {
    for (const o of others) {
      if (!o) continue;
      if (o.errors.length) this.add(...o.errors);
      this.matchCount += o.matchCount;
    }
    return this;
  }

  inc(): this {
    this.matchCount++;
    return this;
  }

  get valid(): boolean {
    return this.errors.length === 0;
  }
}

const IN = 'body';
const single = (e: OpenAPIError): Result => new Result().add(e);

/** Go's reflect kind of a decoded JSON value. */
type Kind = 'bool' | 'string' | 'int' | 'float' | 'slice' | 'map';

function kindOf(data: unknown): Kind {
  if (typeof data === 'boolean') return 'bool';
  if (typeof data === 'string') return 'string';
  if (typeof data === 'number') return isJsonInteger(data) ? 'int' : 'float';
  if (Array.isArray(data)) return 'slice';
  return 'map';
}

/** What kube-openapi sees of a CRD schema node after ConvertJSONSchemaProps and format stripping. */
interface NodeInfo {
  types: string[];
  format: string;
  /** The type and format the number validator range-checks with (only for a single type). */
  numberType: string;
  numberFormat: string;
  /** The declared properties, in schema order. */
  properties: Array<[string, JSONSchemaProps]>;
}

const infoCache = new WeakMap<JSONSchemaProps, NodeInfo>();

function nodeInfo(s: JSONSchemaProps): NodeInfo {
  let info = infoCache.get(s);
  if (info) return info;
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const types = intOrString ? ['integer', 'string'] : s.type ? [s.type] : [];
  const format = effectiveFormat(s.type, s.format, intOrString);
  const numberType = types.length === 1 && (types[0] === 'integer' || types[0] === 'number') ? types[0] : '';
  const numberFormat = numberType ? format : '';
  info = { types, format, numberType, numberFormat, properties: properties(s) };
  infoCache.set(s, info);
  return info;
}

// ---- messages (kube-openapi errors/schema.go) ----

function invalidType(path: string, typeName: string, value: unknown): OpenAPIError {
  const message = typeof value === 'string' ? `${path} in ${IN} must be of type ${typeName}: ${JSON.stringify(value)}` : `${path} in ${IN} must be of type ${typeName}`;
  return { code: 'invalidType', name: path, message, value };
}

const plain = (message: string): OpenAPIError => ({ name: '', message });

// ---- the schema validator ----

function validateValue(s: JSONSchemaProps, path: string, data: unknown): Result {
  const info = nodeInfo(s);
  const result = new Result();
  if (data === null || data === undefined) {
    result.merge(validateType(s, info, path, null));
    result.merge(validateEnum(s, path, null));
    return result;
  }
  const kind = kindOf(data);
  const run = (r: Result | undefined): void => {
    result.merge(r);
    result.inc();
  };
  if (info.types.length > 0 || info.format) run(validateType(s, info, path, data));
  run(validateSchemaProps(s, path, data));
  if (kind === 'string') run(validateString(s, path, data as string));
  if (kind === 'string' && info.format) run(validateFormat(info.format, path, data as string));
  if (kind === 'int' || kind === 'float') run(validateNumber(s, info, path, data as number));
  if (kind === 'slice') run(validateSlice(s, path, data as unknown[]));
  run(validateEnum(s, path, data));
  if (kind === 'map') run(validateObject(s, path, data as Record<string, unknown>));
  result.inc();
  return result;
}

/** typeValidator: the go-openapi type/format compatibility rules, quirks included. */
function validateType(s: JSONSchemaProps, info: NodeInfo, path: string, data: unknown): Result {
  const types = info.types;
  if (data === null) {
    if (types.length > 0 && !s.nullable) return single(invalidType(path, types.join(','), 'null'));
    return new Result().inc();
  }
  const kind = kindOf(data);
  const schType = { bool: 'boolean', string: 'string', int: 'integer', float: 'number', slice: 'array', map: 'object' }[kind];
  const dataFormat = kind === 'int' ? 'int64' : kind === 'float' ? 'float64' : '';
  const contains = (t: string): boolean => types.includes(t);
  const isFloatInt = schType === 'number' && isFloat64AJSONInteger(data as number) && contains('integer');
  const isIntFloat = schType === 'integer' && contains('number');
  const format = info.format;
  if (kind !== 'string' && kind !== 'slice' && format && !(contains(schType) || dataFormat === format || isFloatInt || isIntFloat)) {
    return single(invalidType(path, format, dataFormat));
  }
  if (!(contains('number') || contains('integer')) && format && (kind === 'string' || kind === 'slice')) return new Result().inc();
  if (!(contains(schType) || isFloatInt || isIntFloat)) return single(invalidType(path, types.join(','), schType));
  return new Result().inc();
}

function validateSchemaProps(s: JSONSchemaProps, path: string, data: unknown): Result {
  const main = new Result();
  if (s.anyOf?.length) validateAnyOf(s.anyOf, path, data, main);
  if (s.oneOf?.length) validateOneOf(s.oneOf, path, data, main);
  if (s.allOf?.length) validateAllOf(s.allOf, path, data, main);
  if (s.not && validateValue(s.not, path, data).valid) main.add(plain(`${JSON.stringify(path)} must not validate the schema (not)`));
  return main.inc();
}

function validateAnyOf(anyOf: JSONSchemaProps[], path: string, data: unknown, main: Result): void {
  let best: Result | undefined;
  for (const schema of anyOf) {
    const r = validateValue(schema, path, data);
    if (r.valid) {
      main.merge(r);
      return;
    }
    if (!best || r.matchCount > best.matchCount) best = r;
  }
  main.add(plain(`${JSON.stringify(path)} must validate at least one schema (anyOf)`));
  main.merge(best);
}

function validateOneOf(oneOf: JSONSchemaProps[], path: string, data: unknown, main: Result): void {
  let best: Result | undefined;
  let firstSuccess: Result | undefined;
  let validated = 0;
  for (const schema of oneOf) {
    const r = validateValue(schema, path, data);
    if (r.valid) {
      validated++;
      best = undefined;
      firstSuccess ??= r;
      continue;
    }
    if (validated === 0 && (!best || r.matchCount > best.matchCount)) best = r;
  }
  if (validated === 1) {
    main.merge(firstSuccess);
    return;
  }
  const detail = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
  main.add(plain(`${JSON.stringify(path)} must validate one and only one schema (oneOf). ${detail}`));
  main.merge(best);
}

function validateAllOf(allOf: JSONSchemaProps[], path: string, data: unknown, main: Result): void {
  let validated = 0;
  for (const schema of allOf) {
    const r = validateValue(schema, path, data);
    if (r.valid) validated++;
    main.merge(r);
  }
  if (validated !== allOf.length) main.add(plain(`${JSON.stringify(path)} must validate all the schemas (allOf)${validated === 0 ? '. None validated' : ''}`));
}

/** stringValidator: maxLength, minLength (in runes), pattern; the first failure only. */
function validateString(s: JSONSchemaProps, path: string, data: string): Result | undefined {
  const length = s.maxLength !== undefined || s.minLength !== undefined ? runeCount(data) : 0;
  if (s.maxLength !== undefined && length > s.maxLength) {
    return single({ code: 'tooLong', name: path, value: data, limit: s.maxLength, message: `${path} in ${IN} should be at most ${s.maxLength} chars long` });
  }
  if (s.minLength !== undefined && length < s.minLength) {
    return single({ code: 'tooShort', name: path, value: data, message: `${path} in ${IN} should be at least ${s.minLength} chars long` });
  }
  if (!s.pattern) return undefined;
  const compiled = compileGoRegexp(s.pattern);
  if (!compiled.ok) return single({ code: 'pattern', name: path, value: data, message: `${path} in ${IN} should match '${s.pattern}, but pattern is invalid: ${compiled.error}'` });
  if (!compiled.regexp.test(data)) return single({ code: 'pattern', name: path, value: data, message: `${path} in ${IN} should match '${s.pattern}'` });
  return undefined;
}

function validateFormat(format: string, path: string, data: string): Result | undefined {
  return validatesFormat(format, data) ? undefined : single(invalidType(path, format, data));
}

// ---- numbers ----

const MAX_JSON_FLOAT = 2 ** 53 - 1;

/** swag.IsFloat64AJSONInteger. */
export function isFloat64AJSONInteger(f: number): boolean {
  if (!Number.isFinite(f) || f < -MAX_JSON_FLOAT || f > MAX_JSON_FLOAT) return false;
  const rounded = Math.round(f);
  if (f === rounded) return true;
  if (rounded === 0) return false;
  return Math.abs(f - rounded) < 1e-9 * Math.abs(rounded);
}

/** strconv.FormatFloat(f, 'f', -1, 64): shortest digits, never an exponent. */
function formatFloatF(f: number): string {
  const s = String(f);
  if (!/e/i.test(s)) return s;
  const [mantissa, expText] = s.split('e');
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace(/^-/, '').replace('.', '');
  const pointAt = mantissa.replace(/^-/, '').indexOf('.') < 0 ? 1 : mantissa.replace(/^-/, '').indexOf('.');
  const newPoint = pointAt + exp;
  const body = newPoint <= 0 ? `0.${'0'.repeat(-newPoint)}${digits}` : newPoint >= digits.length ? digits + '0'.repeat(newPoint - digits.length) : `${digits.slice(0, newPoint)}.${digits.slice(newPoint)}`;
  return negative ? `-${body}` : body;
}

const INT_RANGES: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
};

/** IsValueValidAgainstRange: does the number (value or bound) fit the schema's type and format? */
function rangeError(val: number, kind: 'int' | 'float', typeName: string, format: string, prefix: string, path: string): OpenAPIError | undefined {
  // The common case without strings or BigInts: a safe integer is in int64's range and compares exactly.
  if (typeName === 'integer' && kind === 'int' && Number.isSafeInteger(val)) {
    if (format !== 'int32' || (val >= -(2 ** 31) && val <= 2 ** 31 - 1)) return undefined;
  } else if (typeName !== 'integer' && format !== 'float') return undefined;
  const rep = kind === 'int' ? String(val) : formatFloatF(val);
  let ok = true;
  if (typeName === 'integer') {
    const [lo, hi] = INT_RANGES[format === 'int32' ? 'int32' : 'int64'];
    ok = /^[-+]?[0-9]+$/.test(rep) && BigInt(rep) >= lo && BigInt(rep) <= hi;
  } else if (format === 'float') {
    ok = Number.isFinite(Math.fround(Number(rep)));
  }
  if (ok) return undefined;
  return plain(format ? `${prefix} value must be of type ${typeName} with format ${format} in ${path}` : `${prefix} value must be of type ${typeName} (default format) in ${path}`);
}

function validateNumber(s: JSONSchemaProps, info: NodeInfo, path: string, val: number): Result {
  const kind: 'int' | 'float' = isJsonInteger(val) ? 'int' : 'float';
  const res = new Result().add(rangeError(val, kind, info.numberType, info.numberFormat, 'Checked', path));
  const bound = (limit: number, prefix: string, check: (native: boolean) => OpenAPIError | undefined): Result => {
    const r = new Result().add(rangeError(limit, isJsonInteger(limit) ? 'int' : 'float', info.numberType, info.numberFormat, prefix, path));
    return r.add(check(r.valid));
  };
  const multiple = s.multipleOf !== undefined ? bound(s.multipleOf, 'MultipleOf', (native) => multipleOfError(path, val, s.multipleOf as number, native && kind === 'int')) : undefined;
  const minimum = s.minimum !== undefined ? bound(s.minimum, 'Minimum boundary', (native) => minimumError(path, val, s.minimum as number, !!s.exclusiveMinimum, native && kind === 'int')) : undefined;
  const maximum = s.maximum !== undefined ? bound(s.maximum, 'Maximum boundary', (native) => maximumError(path, val, s.maximum as number, !!s.exclusiveMaximum, native && kind === 'int')) : undefined;
  return res.merge(multiple, minimum, maximum).inc();
}

/** MultipleOfNativeType / MultipleOf: integers divide exactly by int64(factor), floats within epsilon. */
function multipleOfError(path: string, val: number, factor: number, asInt: boolean): OpenAPIError | undefined {
  const f = asInt ? Math.trunc(factor) : factor;
  if (f <= 0) return { code: 'multipleOfMustBePositive', name: path, value: f, message: `factor MultipleOf declared for ${path} must be positive: ${goNumberString(f)}` };
  const ok = asInt ? BigInt(val) % BigInt(f) === 0n : isFloat64AJSONInteger(f < 1 ? (1 / f) * val : val / f);
  if (ok) return undefined;
  return { code: 'multipleOf', name: path, value: val, message: `${path} in ${IN} should be a multiple of ${asInt ? String(f) : goFloatString(f)}` };
}

/** MaximumNativeType / Maximum: an integer value compares with int64(max), truncated. */
function maximumError(path: string, val: number, max: number, exclusive: boolean, asInt: boolean): OpenAPIError | undefined {
  const limit = asInt ? Math.trunc(max) : max;
  if (exclusive ? val < limit : val <= limit) return undefined;
  const shown = asInt ? String(limit) : goFloatString(limit);
  const message = exclusive ? `${path} in ${IN} should be less than ${shown}` : `${path} in ${IN} should be less than or equal to ${shown}`;
  return { code: 'max', name: path, value: val, message };
}

function minimumError(path: string, val: number, min: number, exclusive: boolean, asInt: boolean): OpenAPIError | undefined {
  const limit = asInt ? Math.trunc(min) : min;
  if (exclusive ? val > limit : val >= limit) return undefined;
  const shown = asInt ? String(limit) : goFloatString(limit);
  const message = exclusive ? `${path} in ${IN} should be greater than ${shown}` : `${path} in ${IN} should be greater than or equal to ${shown}`;
  return { code: 'min', name: path, value: val, message };
}

// ---- arrays, enums, objects ----

function validateSlice(s: JSONSchemaProps, path: string, data: unknown[]): Result {
  const result = new Result();
  const items = itemsSchema(s);
  if (items) data.forEach((v, i) => result.merge(validateValue(items, `${path}[${i}]`, v)));
  const size = data.length;
  if (s.minItems !== undefined && size < s.minItems) {
    result.add({ code: 'minItems', name: path, value: size, message: `${path} in ${IN} should have at least ${s.minItems} items` });
  }
  if (s.maxItems !== undefined && size > s.maxItems) {
    result.add({ code: 'maxItems', name: path, value: size, limit: s.maxItems, message: `${path} in ${IN} should have at most ${s.maxItems} items` });
  }
  if (s.uniqueItems && data.some((v, i) => data.slice(0, i).some((u) => deepEqualJson(u, v)))) {
    result.add({ code: 'unique', name: path, message: `${path} in ${IN} shouldn't contain duplicates` });
  }
  return result.inc();
}

/** reflect's ConvertibleTo + DeepEqual between a decoded value and an enum entry. */
function enumEntryMatches(data: unknown, entry: unknown): boolean {
  if (typeof entry === 'number') {
    if (typeof data !== 'number') return false;
    return isJsonInteger(entry) ? Math.trunc(data) === entry : data === entry;
  }
  if (typeof entry === 'string') {
    if (typeof data === 'string') return data === entry;
    // Go converts an integer to the string of that code point.
    if (isJsonInteger(data)) return (data >= 0 && data <= 0x10ffff && !(data >= 0xd800 && data <= 0xdfff) ? String.fromCodePoint(data) : '\uFFFD') === entry;
    return false;
  }
  if (typeof entry === 'boolean') return data === entry;
  if (Array.isArray(entry)) return Array.isArray(data) && deepEqualJson(data, entry);
  if (isJsonMap(entry)) return isJsonMap(data) && deepEqualJson(data, entry);
  return false;
}

function validateEnum(s: JSONSchemaProps, path: string, data: unknown): Result | undefined {
  const values = s.enum;
  if (!values || values.length === 0) return undefined;
  if (data !== null && data !== undefined && values.some((e) => e !== null && enumEntryMatches(data, e))) return undefined;
  return single({ code: 'enum', name: path, value: data ?? undefined, values, message: `${path} in ${IN} should be one of ${JSON.stringify(values)}` });
}

function validateObject(s: JSONSchemaProps, path: string, data: Record<string, unknown>): Result {
  const res = new Result();
  const keys = Object.keys(data);
  const props = s.properties ?? {};
  const has = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
  if (s.minProperties !== undefined && keys.length < s.minProperties) {
    res.add({ code: 'tooFewProperties', name: path, value: keys.length, message: `${path} in ${IN} should have at least ${s.minProperties} properties` });
  }
  if (s.maxProperties !== undefined && keys.length > s.maxProperties) {
    res.add({ code: 'tooManyProperties', name: path, value: keys.length, limit: s.maxProperties, message: `${path} in ${IN} should have at most ${s.maxProperties} properties` });
  }
  if (s.additionalProperties === false) {
    for (const k of keys) if (!has(props, k)) res.add({ code: 'unallowedProperty', name: path, value: k, message: `${path}.${k} in ${IN} is a forbidden property` });
  } else if (typeof s.additionalProperties === 'object' && s.additionalProperties !== null) {
    for (const k of keys) if (!has(props, k)) res.merge(validateValue(s.additionalProperties, `${path}.${k}`, data[k]));
  }
  for (const [name, schema] of nodeInfo(s).properties) {
    if (has(data, name)) res.merge(validateValue(schema, path ? `${path}.${name}` : name, data[name]));
  }
  for (const k of s.required ?? []) if (!has(data, k)) res.add({ code: 'required', name: `${path}.${k}`, message: `${path}.${k} in ${IN} is required` });
  return res;
}

// ---- conversion to field errors ----

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** kubeOpenAPIResultToFieldErrors. */
function toFieldError(err: OpenAPIError, fieldPath: string): FieldError {
  if (!err.code) return FieldError.invalid(reportedPath(fieldPath), '', err.message);
  const name = err.name.replace(/^\./, '');
  const path = reportedPath(name && name !== '.' ? childPath(fieldPath, name) : fieldPath);
  const value = err.value ?? '';
  switch (err.code) {
    case 'required':
      return FieldError.required(path);
    case 'enum':
      return FieldError.notSupported(path, err.value ?? null, (err.values ?? []).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))));
    case 'tooLong': {
      const max = err.limit ?? -1;
      return new FieldError('FieldValueTooLong', path, max >= 0 ? `must have at most ${max} ${plural(max, 'byte', 'bytes')}` : 'value is too long');
    }
    case 'maxItems':
    case 'tooManyProperties': {
      const max = err.limit ?? -1;
      return new FieldError('FieldValueTooMany', path, max >= 0 ? `must have at most ${max} ${plural(max, 'item', 'items')}` : 'has too many items', err.value, true);
    }
    case 'invalidType':
      return FieldError.typeInvalid(path, value, err.message);
    default:
      return FieldError.invalid(path, value, err.message);
  }
}

/**
 * Validates a decoded JSON value against a CRD schema (apiextensions ValidateCustomResource).
 * fieldPath prefixes every error path; '' reports root-level errors under "<nil>", as kube does.
 */
export function validateOpenAPISchema(value: unknown, schema: JSONSchemaProps, fieldPath = ''): FieldError[] {
  const result = validateValue(schema, '', value);
  return result.errors.map((e) => toFieldError(e, fieldPath));
}
