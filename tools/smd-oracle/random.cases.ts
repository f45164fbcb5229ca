/** Random merge cases over the suite's schemas, from a seeded generator (reproducible by seed). */
import type { JsonValue } from '@kube/apimachinery';
import type { MergeCase, MergeOp } from '../../libs/field-management/src/testdata/merge.cases';

function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    // xorshift32
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

type Gen = () => JsonValue;

export function randomCases(seed: number, count: number): MergeCase[] {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const maybe = (p = 0.5): boolean => rnd() < p;
  const subset = <T>(xs: readonly T[]): T[] => xs.filter(() => maybe());
  const shuffle = <T>(xs: T[]): T[] => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [xs[i], xs[j]] = [xs[j], xs[i]];
    }
    return xs;
  };
  const obj = (entries: Array<[string, Gen, number]>): JsonValue => {
    const out: Record<string, JsonValue> = {};
    for (const [k, g, p] of entries) if (maybe(p)) out[k] = g();
    return out;
  };
  const leaf: Gen = () => obj([
    ['numeric', () => pick([1, 2, 3]), 0.6],
    ['string', () => pick(['a', 'b', '<&>']), 0.6],
    ['bool', () => pick([true, false]), 0.5],
  ]);
  const sets: Gen = () => obj([['list', () => shuffle(subset(['a', 'b', 'c', 'd'])), 0.9]]);
  const item = (depth: number): Gen => () => {
    const o = obj([
      ['value', () => pick([1, 2]), 0.5],
      ['bv', () => pick([true, false]), 0.3],
      ...(depth > 0 ? ([['nested', () => shuffle(subset(['n1', 'n2', 'n3'])).map((n) => ({ ...(item(depth - 1)() as object), name: n })), 0.4]] as Array<[string, Gen, number]>) : []),
    ]) as Record<string, JsonValue>;
    return o;
  };
  const assoc: Gen = () => obj([
    ['list', () => shuffle(subset(['a', 'b', 'c', 'd'])).map((n) => ({ ...(item(1)() as object), name: n })), 0.7],
    ['atomicList', () => subset(['x', 'y', 'z']), 0.3],
    ['labels', () => Object.fromEntries(subset(['x', 'y', 'z']).map((k) => [k, pick(['1', '2'])])), 0.4],
    ['atomicMap', () => Object.fromEntries(subset(['x', 'y']).map((k) => [k, pick(['1', '2'])])), 0.3],
    ['struct', () => obj([['name', () => pick(['a', 'b']), 0.6], ['scalarField', () => pick(['s', 't']), 0.5], ['complexField', () => obj([['name', () => pick(['c', 'd']), 0.7], ['scalarField', () => 'u', 0.4]]), 0.4]]), 0.5],
    ['ports', () => subset([80, 443, 53]).flatMap((port) => (port === 53 ? [{ port, protocol: 'UDP' }, { port, protocol: 'TCP', name: 'dns' }] : [{ port, name: pick(['http', 'web']) }])), 0.4],
  ]);
  const deduced: Gen = () => obj([
    ['a', () => pick([1, 'x', { y: 1 }]), 0.6],
    ['b', () => obj([['c', () => pick([1, 2]), 0.6], ['d', () => pick([[1], [2, 3]]), 0.5]]), 0.6],
    ['l', () => subset([1, 2, 3]), 0.4],
  ]);
  const kinds: Array<{ schema: MergeCase['schema']; type: string; gen: Gen }> = [
    { schema: 'leaf', type: 'leafFields', gen: leaf },
    { schema: 'sets', type: 'sets', gen: sets },
    { schema: 'associative', type: 'type', gen: assoc },
    { schema: 'deduced', type: '__untyped_deduced_', gen: deduced },
  ];
  const cases: MergeCase[] = [];
  for (let i = 0; i < count; i++) {
    const k = pick(kinds);
    const ops: MergeOp[] = [];
    const n = 2 + Math.floor(rnd() * 5);
    for (let j = 0; j < n; j++) {
      const manager = pick(['a', 'b', 'c']);
      if (maybe(0.3)) ops.push({ manager: `updater-${manager}`, update: k.gen() });
      else ops.push({ manager, apply: k.gen(), force: maybe(0.3) || undefined });
    }
    cases.push({ name: `random ${seed}/${i}`, schema: k.schema, type: k.type, ops });
  }
  return cases;
}
