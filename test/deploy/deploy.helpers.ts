/**
 * Helpers of the deployment checks (test/deploy/*.test.ts): what the sources read and register, and a
 * deliberately simple way to check Helm templates without helm.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { parseAllDocuments } from 'yaml';

export const ROOT = resolve(__dirname, '..', '..');
export const CHART = join(ROOT, 'deploy', 'helm', 'kube-ts');

export function read(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/** Every file under `dir` (relative to ROOT) whose name passes `keep`, as paths relative to ROOT. */
export function walk(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  const visit = (abs: string): void => {
    for (const name of readdirSync(abs)) {
      const path = join(abs, name);
      if (statSync(path).isDirectory()) {
        if (name !== 'node_modules' && name !== 'dist') visit(path);
      } else if (keep(name)) out.push(relative(ROOT, path));
    }
  };
  visit(join(ROOT, dir));
  return out.sort();
}

const sourceFiles = (): string[] =>
  ['apps', 'libs', 'scripts'].flatMap((dir) => walk(dir, (name) => name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.testing.ts')));

/**
 * Every KUBE_* environment variable name the services and scripts can read: each `KUBE_…` identifier in the
 * non-test TypeScript sources (process.env.X, env('X'), env.X and names kept in constants alike). A name that
 * appears only in a comment counts too; that errs on the side of accepting, which is what a drift check needs.
 */
export function sourceEnvNames(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles()) for (const m of read(file).matchAll(/\bKUBE_[A-Z0-9_]+\b/g)) names.add(m[0]);
  return names;
}

/** Prometheus metric names the sources register (prom-client `name: '…'`, or the name argument of the helpers). */
export function registeredMetricNames(): Set<string> {
  const names = new Set<string>();
  const patterns = [/\bname:\s*'([a-z_:][a-z0-9_:]*)'/g, /\b(?:counter|histogram|gauge|metric|getSingleMetric)\(\s*'([a-z_:][a-z0-9_:]*)'/g];
  for (const file of sourceFiles()) {
    const text = read(file);
    if (!text.includes('prom-client') && !text.includes('getSingleMetric')) continue;
    for (const re of patterns) for (const m of text.matchAll(re)) names.add(m[1]);
    // prom-client's default metrics, registered by name inside prom-client: the names it registers itself.
    if (text.includes('collectDefaultMetrics(')) {
      const defaults = new Registry();
      collectDefaultMetrics({ register: defaults });
      for (const metric of defaults.getMetricsAsArray()) names.add(metric.name);
    }
  }
  return names;
}

// ------------------------------------------------------------------------------------------------------------
// Helm templates without helm
//
// A template is checked by stripping the Go-template parts in a simple, documented way and parsing what is
// left as YAML:
//   1. `{{/* … */}}` comments are removed (they may span lines);
//   2. a line that holds nothing but template actions (`{{- if … }}`, `{{- end }}`, `{{- include … | nindent 4 }}`)
//      is dropped: such lines only steer rendering or splice in helper output;
//   3. every remaining action `{{ … }}` inside a line becomes the plain word TEMPLATED (a scalar);
//   4. the rest must parse as YAML documents. Duplicate keys are allowed, because both branches of an
//      `if … else` stay in the text.
// This catches indentation mistakes, broken lists/maps and stray characters in the literal YAML, not errors
// inside the actions themselves (helm lint does that where helm exists; see docs/deployment.md).

const ACTION = /\{\{-?[\s\S]*?-?\}\}/g;
const COMMENT = /\{\{-?\s*\/\*[\s\S]*?\*\/\s*-?\}\}/g;

export function stripTemplate(text: string): string {
  return text
    .replace(COMMENT, '')
    .split('\n')
    .filter((line) => line.replace(ACTION, '').trim() !== '' || line.trim() === '')
    .map((line) => line.replace(ACTION, 'TEMPLATED'))
    .join('\n');
}

export interface ParsedTemplate {
  readonly errors: string[];
  readonly documents: Array<Record<string, unknown>>;
}

export function parseStripped(text: string): ParsedTemplate {
  const errors: string[] = [];
  const documents: Array<Record<string, unknown>> = [];
  for (const doc of parseAllDocuments(stripTemplate(text), { uniqueKeys: false })) {
    errors.push(...doc.errors.map((e) => e.message));
    const value = doc.toJS() as unknown;
    if (value !== null && value !== undefined) documents.push(value as Record<string, unknown>);
  }
  return { errors, documents };
}

/** The bodies of `{{ define "name" }} … {{ end }}` blocks, matching nested if/range/with … end. */
export function helmDefines(text: string): Map<string, string> {
  const defines = new Map<string, string>();
  const withoutComments = text.replace(COMMENT, '');
  const stack: Array<{ keyword: string; name?: string; bodyStart: number }> = [];
  for (const m of withoutComments.matchAll(/\{\{-?\s*(\w+)?([^}]*)-?\}\}/g)) {
    const keyword = m[1] ?? '';
    const at = m.index ?? 0;
    if (['define', 'if', 'range', 'with', 'block'].includes(keyword)) {
      const name = keyword === 'define' ? /"([^"]+)"/.exec(m[2])?.[1] : undefined;
      stack.push({ keyword, name, bodyStart: at + m[0].length });
    } else if (keyword === 'end') {
      const open = stack.pop();
      if (open?.keyword === 'define' && open.name) defines.set(open.name, withoutComments.slice(open.bodyStart, at));
    }
  }
  return defines;
}

/**
 * Helm's value coalescing as `helm install -f custom.yaml` does it before schema validation: maps merge
 * recursively, anything else (lists, scalars) replaces, null deletes the key.
 */
export function coalesceValues(base: unknown, override: unknown): unknown {
  if (!isMap(base) || !isMap(override)) return override === undefined ? base : override;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === null) delete out[key];
    else out[key] = coalesceValues(base[key], value);
  }
  return out;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
