/**
 * Validation helpers shared by the core resources, ported from
 * k8s.io/apimachinery/pkg/util/validation and pkg/apis/core/validation so that
 * messages match kube-apiserver's word for word.
 */
import { isIP } from 'node:net';
import { FieldError, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, maxLenError, regexError } from '@kube/apimachinery';

// ---------------------------------------------------------------------------
// Plain-JSON access
// ---------------------------------------------------------------------------

export type StringMap = Record<string, string>;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The entries of a JSON array, or none when the value is absent or not an array. */
export function listOf<T>(value: readonly T[] | undefined | null): readonly T[] {
  return Array.isArray(value) ? value : [];
}

/** The entries of a JSON object, or none when the value is absent or not an object. */
export function entriesOf<T>(value: Record<string, T> | undefined | null): [string, T][] {
  return isRecord(value) ? Object.entries(value) : [];
}

/** The object at `obj[key]`, created empty when missing. */
export function ensureRecord<T extends object>(obj: Record<string, unknown>, key: string): T {
  if (!isRecord(obj[key])) obj[key] = {};
  return obj[key] as T;
}

function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isRecord(value) && Object.keys(value).length === 0;
}

/**
 * Equality as apiequality.Semantic.DeepEqual sees decoded Go structs: absent, null and zero values
 * (empty string, 0, false, empty list or map) are all the same thing.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isEmptyValue(a) && isEmptyValue(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => semanticEqual(item, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => semanticEqual(a[k], b[k]));
  }
  return a === b;
}

export function deepCopy<T>(value: T): T {
  return value === undefined ? value : (structuredClone(value) as T);
}

/** Length in bytes, as Go's len() counts a string. */
export function byteLength(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

// ---------------------------------------------------------------------------
// Field paths (field.Path.Child / Index / Key)
// ---------------------------------------------------------------------------

export const child = (path: string, name: string): string => (path ? `${path}.${name}` : name);
export const index = (path: string, i: number): string => `${path}[${i}]`;
export const key = (path: string, k: string): string => `${path}[${k}]`;

// ---------------------------------------------------------------------------
// Messages (k8s.io/apimachinery/pkg/util/validation). Names and labels live in @kube/apimachinery.
// ---------------------------------------------------------------------------

export const inclusiveRangeError = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;
export const FIELD_IMMUTABLE = 'field is immutable';

const CONFIG_MAP_KEY_FMT = '[-._a-zA-Z0-9]+';
const CONFIG_MAP_KEY_RE = new RegExp(`^${CONFIG_MAP_KEY_FMT}$`);
const CONFIG_MAP_KEY_MSG = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const CONFIG_MAP_KEY_MAX_LENGTH = 253;

export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > CONFIG_MAP_KEY_MAX_LENGTH) errs.push(maxLenError(CONFIG_MAP_KEY_MAX_LENGTH));
  if (!CONFIG_MAP_KEY_RE.test(value)) errs.push(regexError(CONFIG_MAP_KEY_MSG, CONFIG_MAP_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'));
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

export function isValidPortNum(port: unknown): string[] {
  return typeof port === 'number' && Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.startsWith('-') || port.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

// ---------------------------------------------------------------------------
// FieldError builders
// ---------------------------------------------------------------------------

/** One Invalid error per message, all for the same value. */
export function invalidEach(path: string, value: unknown, messages: readonly string[]): FieldError[] {
  return messages.map((m) => FieldError.invalid(path, value, m));
}

/** field.TooLong as kube-apiserver v1.28+ words it ("must have at most N bytes"). */
export function tooLongBytes(path: string, max: number): FieldError {
  return new FieldError('FieldValueTooLong', path, `must have at most ${max} bytes`);
}

export function validateDNS1123Label(value: string, path: string): FieldError[] {
  return invalidEach(path, value, isDNS1123Label(value));
}

export function validateDNS1123Subdomain(value: string, path: string): FieldError[] {
  return invalidEach(path, value, isDNS1123Subdomain(value));
}

export function validateQualifiedName(value: string, path: string): FieldError[] {
  return invalidEach(path, value, isQualifiedName(value));
}

/** Checks an integer or a port name (ValidatePortNumOrName). */
export function validatePortNumOrName(port: unknown, path: string): FieldError[] {
  if (typeof port === 'string') return invalidEach(path, port, isValidPortName(port));
  return invalidEach(path, port, isValidPortNum(port));
}

export function validateImmutableField(newValue: unknown, oldValue: unknown, path: string): FieldError[] {
  return semanticEqual(newValue, oldValue) ? [] : [FieldError.invalid(path, newValue, FIELD_IMMUTABLE)];
}

/**
 * A stricter name rule than the DNS-1123 subdomain the generic server checks (services: DNS-1035 label).
 * Reported only for names that pass the generic check, so a name is never reported twice.
 */
export function validateStricterName(name: string | undefined, rule: (value: string) => string[]): FieldError[] {
  if (!name || isDNS1123Subdomain(name).length > 0) return [];
  return invalidEach('metadata.name', name, rule(name));
}

export function notSupported(path: string, value: unknown, supported: readonly string[]): FieldError {
  return FieldError.notSupported(path, value, [...supported]);
}

/** Required when empty, NotSupported when not one of `supported`. */
export function validateEnum(value: unknown, path: string, supported: readonly string[]): FieldError[] {
  if (value === undefined || value === null || value === '') return [FieldError.required(path)];
  return supported.includes(String(value)) ? [] : [notSupported(path, value, supported)];
}

/** ConfigMaps and Secrets with `immutable: true`: the flag and the listed fields are frozen. */
export function validateImmutableContents(
  newObj: Record<string, unknown>,
  oldObj: Record<string, unknown>,
  fields: readonly string[],
): FieldError[] {
  if (oldObj.immutable !== true) return [];
  const message = 'field is immutable when `immutable` is set';
  const errs: FieldError[] = [];
  if (newObj.immutable !== true) errs.push(FieldError.forbidden('immutable', message));
  for (const f of fields) {
    if (!semanticEqual(newObj[f], oldObj[f])) errs.push(FieldError.forbidden(f, message));
  }
  return errs;
}

// ---------------------------------------------------------------------------
// Base64 ([]byte fields are base64 strings in JSON), decoded the way Go's encoding/base64 does
// ---------------------------------------------------------------------------

const BASE64_ALPHABET = /[A-Za-z0-9+/]/;
const isNewline = (c: string | undefined): boolean => c === '\n' || c === '\r';

/** Offset of the first corrupt byte as base64.StdEncoding reports it, or -1 when the input is valid. */
export function base64ErrorOffset(src: string): number {
  let si = 0;
  while (si < src.length) {
    let j = 0;
    while (j < 4) {
      if (si === src.length) return j === 0 ? -1 : si - j;
      const c = src[si++];
      if (BASE64_ALPHABET.test(c)) {
        j++;
        continue;
      }
      if (isNewline(c)) continue;
      if (c !== '=' || j < 2) return si - 1;
      return paddingErrorOffset(src, si, j);
    }
  }
  return -1;
}

/** After the first '=' at quantum position j (2 or 3): the rest may hold one more '=' (j = 2) and newlines only. */
function paddingErrorOffset(src: string, start: number, j: number): number {
  let si = start;
  const skipNewlines = (): void => {
    while (si < src.length && isNewline(src[si])) si++;
  };
  if (j === 2) {
    skipNewlines();
    if (si === src.length) return src.length;
    if (src[si] !== '=') return si - 1;
    si++;
  }
  skipNewlines();
  return si < src.length ? si : -1;
}

/** The decoded length of a valid base64 string. */
export function base64DecodedLength(value: string): number {
  return Buffer.from(value.replace(/[\r\n]/g, ''), 'base64').length;
}

export type Base64Bag = Record<string, unknown>;

/**
 * Validates the base64 values of a data bag (Secret.data, ConfigMap.binaryData) and returns their total
 * decoded size. `redact` hides the bad value (secrets).
 */
export function validateBase64Values(bag: Base64Bag | undefined, path: string, redact: boolean): { errors: FieldError[]; size: number } {
  const errors: FieldError[] = [];
  let size = 0;
  for (const [k, v] of entriesOf(bag)) {
    const text = typeof v === 'string' ? v : '';
    const offset = typeof v === 'string' ? base64ErrorOffset(v) : 0;
    if (offset >= 0) {
      errors.push(FieldError.invalid(key(path, k), redact ? '<secret contents redacted>' : v, `illegal base64 data at input byte ${offset}`));
      continue;
    }
    size += base64DecodedLength(text);
  }
  return { errors, size };
}

// ---------------------------------------------------------------------------
// IP addresses
// ---------------------------------------------------------------------------

const IPV4_SLOPPY = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Bytes of an IPv4 or IPv6 address (4 or 16), or undefined. Zones ("%eth0") are not IPs. */
export function parseIP(value: string): number[] | undefined {
  if (value.includes('%')) return undefined;
  const family = isIP(value);
  if (family === 4) return value.split('.').map(Number);
  if (family === 6) return expandIPv6(value);
  return undefined;
}

function expandIPv6(value: string): number[] {
  const [head, tail = ''] = value.includes('::') ? value.split('::') : [value, undefined];
  const groups = (part: string): number[] => (part ? part.split(':').flatMap(groupBytes) : []);
  const left = groups(head);
  const right = value.includes('::') ? groups(tail) : [];
  return [...left, ...new Array<number>(16 - left.length - right.length).fill(0), ...right];
}

function groupBytes(group: string): number[] {
  if (group.includes('.')) return group.split('.').map(Number);
  const n = parseInt(group, 16);
  return [n >> 8, n & 0xff];
}

const isIPv4MappedIPv6 = (bytes: number[]): boolean =>
  bytes.length === 16 && bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;

/** True for an IPv6 address (IPv4-mapped addresses count as IPv4, as in Go). */
export function isIPv6(value: string): boolean {
  const bytes = parseIP(value);
  return bytes !== undefined && bytes.length === 16 && !isIPv4MappedIPv6(bytes);
}

/** validation.IsValidIP with strict parsing. */
export function validateIP(path: string, value: string): FieldError[] {
  const bytes = parseIP(value);
  if (!bytes) {
    const sloppy = IPV4_SLOPPY.exec(value);
    const octets = sloppy ? sloppy.slice(1).map(Number) : [];
    if (sloppy && octets.every((o) => o <= 255)) return [FieldError.invalid(path, value, 'must not have leading 0s')];
    return [FieldError.invalid(path, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
  }
  return isIPv4MappedIPv6(bytes) ? [FieldError.invalid(path, value, 'must not be an IPv4-mapped IPv6 address')] : [];
}

/** ValidateNonSpecialIP: no unspecified, loopback or link-local addresses (endpoints, external IPs). */
export function validateNonSpecialIP(value: string, path: string): FieldError[] {
  const bytes = parseIP(value);
  if (!bytes) return [FieldError.invalid(path, value, 'must be a valid IP address')];
  const v4 = bytes.length === 4 ? bytes : isIPv4MappedIPv6(bytes) ? bytes.slice(12) : undefined;
  const errs: FieldError[] = [];
  const special = v4 ? ipv4Specials(v4) : ipv6Specials(bytes);
  if (special.unspecified) errs.push(FieldError.invalid(path, value, `may not be unspecified (${value})`));
  if (special.loopback) errs.push(FieldError.invalid(path, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (special.linkLocal) errs.push(FieldError.invalid(path, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (special.linkLocalMulticast) {
    errs.push(FieldError.invalid(path, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  }
  return errs;
}

interface IPSpecials {
  unspecified: boolean;
  loopback: boolean;
  linkLocal: boolean;
  linkLocalMulticast: boolean;
}

function ipv4Specials(b: number[]): IPSpecials {
  return {
    unspecified: b.every((x) => x === 0),
    loopback: b[0] === 127,
    linkLocal: b[0] === 169 && b[1] === 254,
    linkLocalMulticast: b[0] === 224 && b[1] === 0 && b[2] === 0,
  };
}

function ipv6Specials(b: number[]): IPSpecials {
  return {
    unspecified: b.every((x) => x === 0),
    loopback: b.slice(0, 15).every((x) => x === 0) && b[15] === 1,
    linkLocal: b[0] === 0xfe && (b[1] & 0xc0) === 0x80,
    linkLocalMulticast: b[0] === 0xff && (b[1] & 0x0f) === 0x02,
  };
}

/** validation.IsValidCIDR, format only. */
export function validateCIDR(path: string, value: string): FieldError[] {
  const [ip, prefix, ...rest] = value.split('/');
  const bytes = parseIP(ip ?? '');
  const bits = Number(prefix);
  const ok = bytes !== undefined && rest.length === 0 && /^\d+$/.test(prefix ?? '') && bits <= bytes.length * 8;
  return ok ? [] : [FieldError.invalid(path, value, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')];
}
