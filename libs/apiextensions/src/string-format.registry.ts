/**
 * The string formats CRD schemas validate (kube-openapi strfmt.Default, restricted to the formats
 * apiextensions-apiserver supports in pkg/apiserver/validation/formats.go). Names are normalized the way
 * go-openapi does it: "date-time" and "datetime" are the same format.
 */
import { byteLength } from './json.values';
import { compileGoRegexp, type GoRegexp } from './go-regexp.engine';

type FormatCheck = (value: string) => boolean;

/** go-openapi's DefaultNameNormalizer. */
export function normalizeFormatName(name: string): string {
  return name.replace(/-/g, '');
}

function goRegexp(pattern: string): GoRegexp {
  const compiled = compileGoRegexp(pattern);
  if (!compiled.ok) throw new Error(compiled.error);
  return compiled.regexp;
}

const HOSTNAME = goRegexp(
  '^([a-zA-Z0-9\\p{S}\\p{L}]((-?[a-zA-Z0-9\\p{S}\\p{L}]{0,62})?)|([a-zA-Z0-9\\p{S}\\p{L}](([a-zA-Z0-9-\\p{S}\\p{L}]{0,61}[a-zA-Z0-9\\p{S}\\p{L}])?)(\\.)){1,}([a-zA-Z\\p{L}]){2,63})$',
);
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const CREDIT_CARD = /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/;
const HEX_COLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const RGB_PART = '(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])';
const RGB_COLOR = new RegExp(`^rgb\\(\\s*${RGB_PART}\\s*,\\s*${RGB_PART}\\s*,\\s*${RGB_PART}\\s*\\)$`);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const SSN = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const DATE_TIME_CLOCK = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const SHORT_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LONG_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function isHostname(s: string): boolean {
  return HOSTNAME.test(s) && byteLength(s) <= 255 && s.split('.').every((p) => byteLength(p) <= 63);
}

/** net.ParseIP's IPv4 part; `sloppy` allows leading zeros (netutils.ParseIPSloppy). */
function parseIPv4Bytes(s: string, sloppy: boolean): number[] | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^[0-9]{1,3}$/.test(p) || (!sloppy && p.length > 1 && p[0] === '0')) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

/** net.ParseIP for an IPv6 literal (with an optional trailing dotted IPv4), no zone. */
function parseIPv6(s: string, sloppy: boolean): boolean {
  let text = s;
  let groupsNeeded = 8;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    if (!parseIPv4Bytes(text.slice(lastColon + 1), sloppy)) return false;
    text = `${text.slice(0, lastColon + 1)}0`;
    groupsNeeded = 7;
  }
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groups = (h: string): string[] | undefined => (h === '' ? [] : h.split(':'));
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !tail) return false;
  if (![...head, ...tail].every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  const count = head.length + tail.length;
  return halves.length === 2 ? count < groupsNeeded : count === groupsNeeded;
}

export function parseIP(s: string, sloppy = false): boolean {
  return s.includes(':') ? parseIPv6(s, sloppy) : parseIPv4Bytes(s, sloppy) !== undefined;
}

/** netutils.ParseCIDRSloppy. */
export function isCIDR(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const ip = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  if (!parseIP(ip, true) || !/^[0-9]{1,3}$/.test(bits)) return false;
  return Number(bits) <= (ip.includes(':') ? 128 : 32);
}

/** net.ParseMAC: 6, 8 or 20 octets, colon/dash separated pairs or dot separated quads. */
function isMAC(s: string): boolean {
  if (/^[0-9a-fA-F]{4}(\.[0-9a-fA-F]{4})+$/.test(s)) return [6, 8, 20].includes((s.split('.').length * 4) / 2);
  const m = /^[0-9a-fA-F]{2}([:-])/.exec(s);
  if (!m) return false;
  const parts = s.split(m[1]);
  return [6, 8, 20].includes(parts.length) && parts.every((p) => /^[0-9a-fA-F]{2}$/.test(p));
}

function isISBN10(s: string): boolean {
  const d = s.replace(/[\s-]+/g, '');
  if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * Number(d[i]);
  sum += 10 * (d[9] === 'X' ? 10 : Number(d[9]));
  return sum % 11 === 0;
}

function isISBN13(s: string): boolean {
  const d = s.replace(/[\s-]+/g, '');
  if (!/^[0-9]{13}$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * Number(d[i]);
  return Number(d[12]) - ((10 - (sum % 10)) % 10) === 0;
}

/** govalidator.IsCreditCard: the issuer pattern on the digits, then Luhn. */
function isCreditCard(s: string): boolean {
  const digits = s.replace(/[^0-9]+/g, '');
  if (!CREDIT_CARD.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let n = Number(digits[i]);
    if (double) n = n * 2 >= 10 ? ((n * 2) % 10) + 1 : n * 2;
    sum += n;
    double = !double;
  }
  return sum % 10 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** time.Parse("2006-01-02", s). */
export function isDate(s: string): boolean {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]);
}

/** strfmt.IsDateTime: a date, a "t", then a clock checked by pattern and by string comparison. */
export function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0])) return false;
  const m = DATE_TIME_CLOCK.exec(parts[1]);
  return !!m && m[1] <= '23' && m[2] <= '59' && m[3] <= '59';
}

const GO_DURATION_UNITS = new Set(['ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h']);

/** time.ParseDuration's grammar: [-+]?(digits[.digits]unit)+ or "0". */
export function isGoDuration(s: string): boolean {
  const body = s.replace(/^[-+]/, '');
  if (body === '0') return true;
  if (body === '') return false;
  const re = /([0-9]*(?:\.[0-9]*)?)([^0-9.]+)/y;
  let pos = 0;
  while (pos < body.length) {
    re.lastIndex = pos;
    const m = re.exec(body);
    if (!m || m[1] === '' || m[1] === '.' || !GO_DURATION_UNITS.has(m[2])) return false;
    pos = re.lastIndex;
  }
  return true;
}

const FALLBACK_DURATION_UNITS = [['ns', 'nano'], ['us', 'µs', 'micro'], ['ms', 'milli'], ['s', 'sec'], ['m', 'min'], ['h', 'hr', 'hour'], ['d', 'day'], ['w', 'wk', 'week']];

/** strfmt.ParseDuration: Go's syntax, or any "<digits> <unit>" run (e.g. "3 days") found in the string. */
export function isDuration(s: string): boolean {
  if (isGoDuration(s)) return true;
  for (const m of s.matchAll(/((\d+)\s*([A-Za-zµ]+))/g)) {
    const unit = m[3].trim().toLowerCase();
    const known = FALLBACK_DURATION_UNITS.some((variants) => variants.some((v, i) => (i === variants.length - 1 && unit.startsWith(v)) || v === unit));
    if (known) return true;
  }
  return false;
}

/** A loose check of net/mail.ParseAddress: "local@domain", optionally as "Display Name <local@domain>". */
export function isEmail(s: string): boolean {
  const angle = /^[^<>]*<([^<>]+)>\s*$/.exec(s);
  const addr = (angle ? angle[1] : s).trim();
  const at = addr.lastIndexOf('@');
  if (at <= 0 || at === addr.length - 1) return false;
  const local = addr.slice(0, at);
  const domain = addr.slice(at + 1);
  const atext = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\-\\u0080-\\uFFFF]+";
  const localOk = new RegExp(`^${atext}(\\.${atext})*$`).test(local) || /^"([^"\\\r\n]|\\.)*"$/.test(local);
  const domainOk = new RegExp(`^${atext}(\\.${atext})*$`).test(domain) || /^\[[^[\]\\]*\]$/.test(domain);
  return localOk && domainOk;
}

/** url.ParseRequestURI: an absolute URI or an absolute path, no control characters, valid escapes and host. */
export function isRequestURI(s: string): boolean {
  if (s === '' || /[\x00-\x1f\x7f]/.test(s)) return false;
  if (s === '*') return true;
  if (/%(?![0-9a-fA-F]{2})/.test(s)) return false;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(s);
  if (s.startsWith(':')) return false;
  if (!scheme) return s.startsWith('/');
  const rest = s.slice(scheme[0].length);
  if (!rest.startsWith('//')) return true;
  const authority = rest.slice(2).split(/[/?]/, 1)[0];
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  return isValidURLHost(host);
}

function isValidURLHost(host: string): boolean {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    if (end < 0) return false;
    const port = host.slice(end + 1);
    return port === '' || /^:[0-9]*$/.test(port);
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && !/^[0-9]*$/.test(host.slice(colon + 1))) return false;
  return !/[ <>"`{}|\\^]/.test(colon >= 0 ? host.slice(0, colon) : host);
}

const FORMATS: Record<string, FormatCheck> = {
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  uri: isRequestURI,
  email: isEmail,
  hostname: isHostname,
  ipv4: (s) => parseIP(s, true) && s.includes('.'),
  ipv6: (s) => parseIP(s) && s.includes(':'),
  cidr: isCIDR,
  mac: isMAC,
  uuid: (s) => UUID.test(s),
  uuid3: (s) => UUID3.test(s),
  uuid4: (s) => UUID4.test(s),
  uuid5: (s) => UUID5.test(s),
  isbn: (s) => isISBN10(s) || isISBN13(s),
  isbn10: isISBN10,
  isbn13: isISBN13,
  creditcard: isCreditCard,
  ssn: (s) => s.length === 11 && SSN.test(s),
  hexcolor: (s) => HEX_COLOR.test(s),
  rgbcolor: (s) => RGB_COLOR.test(s),
  byte: (s) => BASE64.test(s),
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
  k8sshortname: (s) => s.length <= 63 && SHORT_NAME.test(s),
  k8slongname: (s) => s.length <= 253 && LONG_NAME.test(s),
};

/** Whether kube validates strings of this format (formats it does not know are ignored). */
export function isKnownStringFormat(format: string): boolean {
  return Object.prototype.hasOwnProperty.call(FORMATS, normalizeFormatName(format));
}

/** Whether value is valid for a known format; unknown formats accept everything. */
export function validatesFormat(format: string, value: string): boolean {
  const check = FORMATS[normalizeFormatName(format)];
  return check ? check(value) : true;
}

/**
 * StripUnsupportedFormatsPostProcessor: the format kube actually enforces for a schema, or '' when it
 * ignores it (unknown string formats, integer formats other than int32/int64, number formats other than
 * float/double, any format on other types).
 */
export function effectiveFormat(type: string | undefined, format: string | undefined, intOrString = false): string {
  if (!format) return '';
  const t = intOrString ? '' : type ?? '';
  switch (t) {
    case '':
    case 'string':
      return isKnownStringFormat(format) ? format : '';
    case 'integer':
      return format === 'int32' || format === 'int64' ? format : '';
    case 'number':
      return format === 'float' || format === 'double' ? format : '';
    default:
      return '';
  }
}
