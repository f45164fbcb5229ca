/**
 * The subset of kubectl/kube JSONPath that additionalPrinterColumns use in practice: `.a.b`, `.a['b.c']`,
 * `.items[0]`, `.items[*].name`, optionally wrapped in `{…}`. Compiled once per column.
 */
export type JsonPathFn = (obj: unknown) => unknown[];

type Step = { kind: 'field'; name: string } | { kind: 'index'; index: number } | { kind: 'all' };

export function compileJsonPath(expr: string): JsonPathFn {
  const steps = parse(expr);
  return (obj) => steps.reduce<unknown[]>((values, step) => values.flatMap((v) => apply(step, v)), [obj]);
}

/** Throws on syntax this evaluator does not support (CRD validation reports it). */
function parse(expr: string): Step[] {
  let s = expr.trim();
  if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1).trim();
  if (!s.startsWith('.')) throw new Error(`jsonPath must start with "." : ${expr}`);
  const steps: Step[] = [];
  const re = /\.([A-Za-z0-9_$-]+)|\[\s*'([^']*)'\s*\]|\[\s*"([^"]*)"\s*\]|\[\s*(\d+)\s*\]|\[\s*\*\s*\]/y;
  let i = 0;
  while (i < s.length) {
    re.lastIndex = i;
    const m = re.exec(s);
    if (!m) throw new Error(`unsupported jsonPath syntax at "${s.slice(i)}"`);
    if (m[1] !== undefined) steps.push({ kind: 'field', name: m[1] });
    else if (m[2] !== undefined || m[3] !== undefined) steps.push({ kind: 'field', name: (m[2] ?? m[3]) as string });
    else if (m[4] !== undefined) steps.push({ kind: 'index', index: Number(m[4]) });
    else steps.push({ kind: 'all' });
    i = re.lastIndex;
  }
  return steps;
}

function apply(step: Step, value: unknown): unknown[] {
  if (step.kind === 'field') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
    const v = (value as Record<string, unknown>)[step.name];
    return v === undefined ? [] : [v];
  }
  if (!Array.isArray(value)) return [];
  if (step.kind === 'index') return step.index < value.length ? [value[step.index]] : [];
  return value;
}
