/**
 * Decoded JSON → CEL runtime values for cel-js, guided by the schema's CEL type (kube's UnstructuredToVal):
 * integers become bigint, objects become instances of their object type holding only the fields present
 * (so has() works), maps become Map, formatted strings become bytes/timestamps/durations.
 */
import { Environment } from '@marcbachmann/cel-js';
import type { DeclType } from './cel.types';
import { isJsonInteger, isJsonMap } from './json.values';

/** Converted values of one validation pass, keyed by the JSON object they came from. */
export type CelValueCache = WeakMap<object, unknown>;

export function toCelValue(json: unknown, t: DeclType, cache?: CelValueCache): unknown {
  if (json === null || json === undefined) return null;
  if (typeof json === 'object' && cache?.has(json)) return cache.get(json);
  const value = convert(json, t, cache);
  if (typeof json === 'object') cache?.set(json, value);
  return value;
}

function convert(json: unknown, t: DeclType, cache?: CelValueCache): unknown {
  switch (t.kind) {
    case 'scalar':
      return scalarValue(json, t.cel, t.format);
    case 'list':
      return Array.isArray(json) ? json.map((v) => toCelValue(v, t.elem, cache)) : dynValue(json);
    case 'map':
      return isJsonMap(json) ? new Map(Object.entries(json).map(([k, v]) => [k, toCelValue(v, t.value, cache)])) : dynValue(json);
    case 'object': {
      if (!isJsonMap(json)) return dynValue(json);
      const obj = new t.ctor() as Record<string, unknown>;
      for (const [name, field] of t.fields) {
        if (Object.prototype.hasOwnProperty.call(json, field.jsonName)) obj[name] = toCelValue(json[field.jsonName], field.type, cache);
      }
      return obj;
    }
  }
}

function scalarValue(json: unknown, cel: string, format: string | undefined): unknown {
  if (typeof json === 'string') {
    if (cel === 'bytes') return Uint8Array.from(Buffer.from(json, 'base64'));
    if (cel === 'google.protobuf.Timestamp') return parseTimestamp(json, format);
    if (cel === 'google.protobuf.Duration') return durationValue(json);
    return json;
  }
  if (typeof json === 'number') return cel === 'double' ? json : numberValue(json);
  return dynValue(json);
}

/** A value of unknown type (int-or-string, or data that does not fit its schema). */
export function dynValue(json: unknown): unknown {
  if (json === null || json === undefined) return null;
  if (typeof json === 'number') return numberValue(json);
  if (Array.isArray(json)) return json.map(dynValue);
  if (isJsonMap(json)) return new Map(Object.entries(json).map(([k, v]) => [k, dynValue(v)]));
  return json;
}

/** JSON integers are CEL ints (bigint), other numbers CEL doubles. */
function numberValue(n: number): unknown {
  return isJsonInteger(n) && Number.isSafeInteger(n) ? BigInt(n) : n;
}

function parseTimestamp(s: string, format: string | undefined): unknown {
  const d = new Date(format === 'date' ? `${s}T00:00:00Z` : s);
  return Number.isNaN(d.getTime()) ? s : d;
}

const NANOS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n,
  'μs': 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
  d: 86_400_000_000_000n,
  w: 604_800_000_000_000n,
};

/** time.ParseDuration, falling back to strfmt's "<n> <unit>" forms (e.g. "3 days"), in nanoseconds. */
export function parseDurationNanos(s: string): bigint | undefined {
  const go = /^([-+]?)((?:[0-9]*(?:\.[0-9]*)?(?:ns|us|µs|μs|ms|s|m|h))+|0)$/.exec(s);
  if (go) {
    let total = 0n;
    for (const m of go[2].matchAll(/([0-9]*)(?:\.([0-9]*))?(ns|us|µs|μs|ms|s|m|h)/g)) {
      const unit = NANOS[m[3]];
      const frac = m[2] ?? '';
      total += BigInt(m[1] || '0') * unit + (frac ? (BigInt(frac.slice(0, 18).padEnd(18, '0')) * unit) / 10n ** 18n : 0n);
    }
    return go[1] === '-' ? -total : total;
  }
  let total = 0n;
  let matched = false;
  for (const m of s.matchAll(/(\d+)\s*([A-Za-zµ]+)/g)) {
    const unit = m[2].toLowerCase();
    const key = Object.keys(NANOS).find((u) => u === unit) ?? FALLBACK_UNITS.find(([, names]) => names.some((n) => unit.startsWith(n)))?.[0];
    if (key) {
      matched = true;
      total += BigInt(m[1]) * NANOS[key];
    }
  }
  return matched ? total : undefined;
}

const FALLBACK_UNITS: Array<[string, string[]]> = [
  ['ns', ['nano']],
  ['us', ['micro']],
  ['ms', ['milli']],
  ['s', ['sec']],
  ['m', ['min']],
  ['h', ['hr', 'hour']],
  ['d', ['day']],
  ['w', ['wk', 'week']],
];

/** cel-js does not export its Duration class; its duration() function makes one. */
const durationEnv = new Environment().registerVariable('text', 'string');
const makeDuration = durationEnv.parse('duration(text)');

function durationValue(s: string): unknown {
  const nanos = parseDurationNanos(s);
  return nanos === undefined ? s : makeDuration({ text: `${nanos}ns` });
}
