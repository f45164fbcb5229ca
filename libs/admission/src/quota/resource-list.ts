/** kube's quota helpers on ResourceLists (k8s.io/apiserver/pkg/quota/v1/resources.go), on exact Quantities. */
import { Quantity } from '@kube/apimachinery';

/** A ResourceList with parsed quantities; JSON holds them as strings. */
export type ResourceList = Map<string, Quantity>;

/** A JSON ResourceList as Quantities; unparsable values are left out (validation reports them). */
export function toResourceList(json: unknown): ResourceList {
  const list: ResourceList = new Map();
  if (!json || typeof json !== 'object' || Array.isArray(json)) return list;
  for (const [name, value] of Object.entries(json as Record<string, unknown>)) {
    const q = typeof value === 'string' || typeof value === 'number' ? Quantity.tryParse(value) : undefined;
    if (q) list.set(name, q);
  }
  return list;
}

/** A ResourceList as JSON, in canonical quantity form, keys sorted as Go's encoder writes maps. */
export function fromResourceList(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...list.keys()].sort()) out[name] = (list.get(name) as Quantity).toString();
  return out;
}

export function add(a: ResourceList, b: ResourceList): ResourceList {
  const result: ResourceList = new Map(a);
  for (const [name, q] of b) result.set(name, result.get(name)?.add(q) ?? q);
  return result;
}

/** a - b for every name in a (names only in b are ignored), never below zero (SubtractWithNonNegativeResult). */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const result: ResourceList = new Map();
  for (const [name, q] of a) {
    const diff = b.has(name) ? q.sub(b.get(name) as Quantity) : q;
    result.set(name, diff.sign() < 0 ? Quantity.zero : diff);
  }
  return result;
}

/** a - b for every name in either (Subtract). */
export function subtract(a: ResourceList, b: ResourceList): ResourceList {
  const result: ResourceList = new Map(a);
  for (const [name, q] of b) result.set(name, (result.get(name) ?? Quantity.zero).sub(q));
  return result;
}

/** Only the given names. */
export function mask(list: ResourceList, names: Iterable<string>): ResourceList {
  const result: ResourceList = new Map();
  for (const name of names) {
    const q = list.get(name);
    if (q) result.set(name, q);
  }
  return result;
}

/** Whether every value of a is at most b's (names missing from b are unlimited), and the names that are not. */
export function lessThanOrEqual(a: ResourceList, b: ResourceList): { allowed: boolean; exceeded: string[] } {
  const exceeded: string[] = [];
  for (const [name, q] of a) {
    const limit = b.get(name);
    if (limit && q.cmp(limit) > 0) exceeded.push(name);
  }
  return { allowed: exceeded.length === 0, exceeded };
}

export function equals(a: ResourceList, b: ResourceList): boolean {
  if (a.size !== b.size) return false;
  for (const [name, q] of a) if (!b.get(name) || b.get(name)?.cmp(q) !== 0) return false;
  return true;
}

/** prettyPrint: `name=q,name=q`, sorted by name. */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()].sort().map((name) => `${name}=${(list.get(name) as Quantity).toString()}`).join(',');
}

/** Every value of the list zero? (isZero of quota's helpers) */
export function isZero(list: ResourceList): boolean {
  return [...list.values()].every((q) => q.isZero());
}

/**
 * Rewrites the quantities of a JSON ResourceList in place in canonical form, as kube's decoding and encoding
 * does (`0.5` → `500m`); false when one is no quantity (kube refuses the whole body then).
 */
export function canonicalizeResourceList(json: unknown): boolean {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return true;
  const list = json as Record<string, unknown>;
  for (const [name, value] of Object.entries(list)) {
    const q = typeof value === 'string' || typeof value === 'number' ? Quantity.tryParse(value) : undefined;
    if (!q) return false;
    list[name] = q.toString();
  }
  return true;
}
