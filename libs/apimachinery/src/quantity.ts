/**
 * k8s.io/apimachinery/pkg/api/resource Quantity: kube's parsing rules (values below 1n rounded up to 1n), exact
 * arithmetic (BigInt in nano units) and the canonical string form kube writes back (`0.5` → `500m`,
 * `1.5Gi` → `1536Mi`, `1e3` stays `1e3`).
 */

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** The parse error kube returns (resource.ErrFormatWrong). */
export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const NANO = 9;
const ONE = 10n ** BigInt(NANO);
const QUANTITY = /^([+-]?)(\d+\.?\d*|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;
const DECIMAL_EXPONENTS: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const DECIMAL_SUFFIXES = new Map(Object.entries(DECIMAL_EXPONENTS).map(([s, e]) => [e, s]));
const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/** Ceiling of a / b for positive b (kube rounds sub-nano values up, away from zero). */
function divRoundUp(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b === 0n ? q : a > 0n ? q + 1n : q - 1n;
}

export class Quantity {
  private constructor(
    /** The value in units of 10^-9. */
    readonly nanos: bigint,
    readonly format: QuantityFormat,
  ) {}

  static readonly zero = new Quantity(0n, 'DecimalSI');

  /** resource.ParseQuantity; throws an Error with kube's message when the text is no quantity. */
  static parse(text: string | number): Quantity {
    const q = Quantity.tryParse(text);
    if (!q) throw new Error(QUANTITY_FORMAT_ERROR);
    return q;
  }

  static tryParse(text: string | number): Quantity | undefined {
    if (typeof text === 'number') return Number.isFinite(text) ? Quantity.tryParse(String(text).replace(/e\+/, 'e')) : undefined;
    const m = QUANTITY.exec(text);
    if (!m) return undefined;
    const [, sign, number, suffix = ''] = m;
    const [whole, fraction = ''] = number.split('.');
    // The digits as an integer, and the power of ten they are scaled by.
    let digits = BigInt((whole || '0') + fraction);
    let exponent = -fraction.length;
    let multiplier = 1n;
    let format: QuantityFormat = 'DecimalSI';
    if (/^[eE]/.test(suffix)) {
      exponent += Number(suffix.slice(1));
      format = 'DecimalExponent';
    } else if (BINARY_SUFFIXES.includes(suffix) && suffix !== '') {
      multiplier = 1n << BigInt(10 * BINARY_SUFFIXES.indexOf(suffix));
      format = 'BinarySI';
    } else exponent += DECIMAL_EXPONENTS[suffix];
    if (Math.abs(exponent) > 1000) return undefined;
    digits *= multiplier;
    const shift = exponent + NANO;
    const nanos = shift >= 0 ? digits * pow10(shift) : divRoundUp(digits, pow10(-shift));
    return new Quantity(sign === '-' ? -nanos : nanos, format);
  }

  static fromNanos(nanos: bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(nanos, format);
  }

  /** An integer count (object counts in quotas). */
  static fromInt(n: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(BigInt(n) * ONE, format);
  }

  isZero(): boolean {
    return this.nanos === 0n;
  }

  sign(): number {
    return this.nanos === 0n ? 0 : this.nanos > 0n ? 1 : -1;
  }

  cmp(other: Quantity): number {
    return this.nanos === other.nanos ? 0 : this.nanos < other.nanos ? -1 : 1;
  }

  /** The sum keeps this quantity's format (kube's Add), or the other's when this is zero. */
  add(other: Quantity): Quantity {
    return new Quantity(this.nanos + other.nanos, this.isZero() && this.format === 'DecimalSI' ? other.format : this.format);
  }

  sub(other: Quantity): Quantity {
    return new Quantity(this.nanos - other.nanos, this.format);
  }

  neg(): Quantity {
    return new Quantity(-this.nanos, this.format);
  }

  /** A count of pods or containers times this quantity. */
  mul(n: number): Quantity {
    return new Quantity(this.nanos * BigInt(n), this.format);
  }

  /** The value rounded up to an integer (Quantity.Value). */
  value(): number {
    return Number(divRoundUp(this.nanos, ONE));
  }

  /** The value in thousandths, rounded up (Quantity.MilliValue). */
  milliValue(): number {
    return Number(divRoundUp(this.nanos, 10n ** 6n));
  }

  /** An approximate float, for ratios. */
  toNumber(): number {
    return Number(this.nanos) / 1e9;
  }

  /** Quantity.String: the canonical form. */
  toString(): string {
    if (this.nanos === 0n) return '0';
    const negative = this.nanos < 0n;
    const abs = negative ? -this.nanos : this.nanos;
    let format = this.format;
    if (format === 'BinarySI' && (abs < 1024n * ONE || abs % ONE !== 0n)) format = 'DecimalSI';
    const body = format === 'BinarySI' ? binary(abs / ONE) : decimal(abs, format);
    return negative ? `-${body}` : body;
  }

  toJSON(): string {
    return this.toString();
  }
}

/** Mantissa × 1024^k with the largest k (at most Ei) leaving an integer mantissa. */
function binary(value: bigint): string {
  let k = 0;
  while (k < BINARY_SUFFIXES.length - 1 && value % 1024n === 0n) {
    value /= 1024n;
    k++;
  }
  return `${value}${BINARY_SUFFIXES[k]}`;
}

/** Mantissa × 10^(3k) with the largest k leaving an integer mantissa (AsCanonicalBytes), from nano units. */
function decimal(nanos: bigint, format: QuantityFormat): string {
  let exponent = -NANO;
  let mantissa = nanos;
  while (mantissa % 1000n === 0n) {
    mantissa /= 1000n;
    exponent += 3;
  }
  if (format === 'DecimalExponent') return exponent === 0 ? `${mantissa}` : `${mantissa}e${exponent}`;
  const suffix = DECIMAL_SUFFIXES.get(exponent);
  return suffix !== undefined ? `${mantissa}${suffix}` : `${mantissa}e${exponent}`;
}

/** Parses a quantity, or undefined for text that is none (a field a caller validates separately). */
export function parseQuantity(text: unknown): Quantity | undefined {
  return typeof text === 'string' || typeof text === 'number' ? Quantity.tryParse(text) : undefined;
}
