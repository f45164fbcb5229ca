/** Go's time.Duration text (metav1.Duration's JSON): String() and ParseDuration, in nanoseconds. */

const UNITS: Readonly<Record<string, number>> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** time.Duration.String(): "1h2m3.5s", "1.5ms", "0s". */
export function formatGoDuration(nanos: number): string {
  if (nanos === 0) return '0s';
  const neg = nanos < 0;
  let n = Math.abs(nanos);
  let text: string;
  if (n < 1e9) {
    // Below a second: the largest unit that keeps the integer part non-zero.
    const [unit, size] = n < 1e3 ? ['ns', 1] : n < 1e6 ? ['µs', 1e3] : ['ms', 1e6];
    text = `${fraction(n, size)}${unit}`;
  } else {
    const h = Math.floor(n / 3600e9);
    n -= h * 3600e9;
    const m = Math.floor(n / 60e9);
    n -= m * 60e9;
    text = `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${fraction(n, 1e9)}s`;
  }
  return neg ? `-${text}` : text;
}

function fraction(n: number, size: number): string {
  const whole = Math.floor(n / size);
  const rest = n - whole * size;
  if (!rest) return String(whole);
  const digits = String(size).length - 1;
  return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`;
}

/** time.ParseDuration. */
export function parseGoDuration(text: string): number {
  const m = /^([-+]?)((?:\d*\.?\d+(?:ns|us|µs|μs|ms|s|m|h))+|0)$/.exec(text);
  if (!m) throw new TypeError(`time: invalid duration "${text}"`);
  let total = 0;
  for (const part of m[2].matchAll(/(\d*\.?\d+)(ns|us|µs|μs|ms|s|m|h)/g)) total += Number(part[1]) * UNITS[part[2]];
  return Math.round(m[1] === '-' ? -total : total);
}
