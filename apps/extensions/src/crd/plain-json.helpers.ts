/** Reading decoded JSON defensively: CRDs arrive as plain JSON, not as type-checked Go structs. */

export const str = (value: unknown): string => (typeof value === 'string' ? value : '');

export const list = <T>(value: readonly T[] | undefined | null): readonly T[] => (Array.isArray(value) ? value : []);

export const present = (value: unknown): boolean => value !== undefined && value !== null;

export const byteLength = (value: string): number => Buffer.byteLength(value, 'utf8');

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON equality where absent and null are the same (what decoding into Go pointers and slices gives). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (!present(a) || !present(b)) return !present(a) && !present(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => jsonEqual(a[k], b[k]));
  }
  return a === b;
}
