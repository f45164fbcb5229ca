/**
 * Diffs libs/field-management against the reference Go implementation of structured-merge-diff:
 * the suite's cases and seeded random ones are replayed by both, results compared field by field.
 * Not part of `npm test`: `npm run oracle:smd` (needs Debian's golang-go and
 * golang-k8s-sigs-structured-merge-diff-dev, or SMD_SRC pointing at another source tree of v4).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MERGE_CASES, type MergeCase } from '../../libs/field-management/src/testdata/merge.cases';
import { runMergeCase, type CaseResult } from '../../libs/field-management/src/testdata/merge.runner';
import { SCHEMAS } from '../../libs/field-management/src/testdata/merge.schemas';
import { randomCases } from './random.cases';

const GOCODE = process.env.GOCODE ?? '/usr/share/gocode/src';
const SMD_SRC = process.env.SMD_SRC ?? join(GOCODE, 'sigs.k8s.io/structured-merge-diff');
const SEED = Number(process.env.ORACLE_SEED ?? 20240601);
const RANDOM = Number(process.env.ORACLE_RANDOM ?? 500);

/** A GOPATH where the reference library answers to its module path (offline, no module download). */
function goPath(): string {
  const root = mkdtempSync(join(tmpdir(), 'smd-oracle-'));
  const src = join(root, 'src');
  mkdirSync(join(src, 'sigs.k8s.io/structured-merge-diff'), { recursive: true });
  mkdirSync(join(src, 'sigs.k8s.io/yaml'), { recursive: true });
  symlinkSync(SMD_SRC, join(src, 'sigs.k8s.io/structured-merge-diff/v4'));
  // v4.4+ imports yaml as sigs.k8s.io/yaml/goyaml.v2, a copy of gopkg.in/yaml.v2.
  symlinkSync(join(GOCODE, 'gopkg.in/yaml.v2'), join(src, 'sigs.k8s.io/yaml/goyaml.v2'));
  symlinkSync(join(GOCODE, 'github.com'), join(src, 'github.com'));
  symlinkSync(join(GOCODE, 'gopkg.in'), join(src, 'gopkg.in'));
  mkdirSync(join(src, 'oracle'));
  copyFileSync(join(__dirname, 'main.go'), join(src, 'oracle/main.go'));
  return root;
}

function runGo(cases: MergeCase[]): CaseResult[] {
  const gopath = goPath();
  const input = JSON.stringify(cases.map((c) => ({ name: c.name, schema: SCHEMAS[c.schema], type: c.type, ops: c.ops })));
  const out = execFileSync('go', ['run', '.'], {
    cwd: join(gopath, 'src/oracle'),
    input,
    env: { ...process.env, GOPATH: gopath, GO111MODULE: 'off', GOFLAGS: '', GOCACHE: join(gopath, 'cache') },
    maxBuffer: 256 * 1024 * 1024,
    timeout: 600_000,
  });
  return JSON.parse(out.toString()) as CaseResult[];
}

/**
 * Releases before v4.2 (Debian's 4.1.2) order merged list items differently (applied order for shared
 * items came later): against those, objects are compared with list order ignored.
 */
const REF_ORDERS_LISTS = existsSync(join(SMD_SRC, 'typed/merge.go')) && readFileSync(join(SMD_SRC, 'typed/merge.go'), 'utf8').includes('sharedOrder');

function unordered(json: string): string {
  const norm = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(norm).map((x) => JSON.stringify(x)).sort();
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, norm(x)]));
    return v;
  };
  return JSON.stringify(norm(JSON.parse(json)));
}

function differences(ours: CaseResult, ref: CaseResult): string[] {
  const out: string[] = [];
  ours.ops.forEach((op, i) => {
    const r = ref.ops[i] ?? {};
    if (JSON.stringify(op.conflicts ?? null) !== JSON.stringify(r.conflicts ?? null)) out.push(`op ${i} conflicts: ours ${JSON.stringify(op.conflicts)} go ${JSON.stringify(r.conflicts)}`);
    if (!!op.error !== !!r.error) out.push(`op ${i} error: ours ${JSON.stringify(op.error)} go ${JSON.stringify(r.error)}`);
  });
  const same = REF_ORDERS_LISTS ? ours.object === ref.object : unordered(ours.object) === unordered(ref.object);
  if (!same) out.push(`object: ours ${ours.object} go ${ref.object}`);
  const managers = new Set([...Object.keys(ours.managed), ...Object.keys(ref.managed)]);
  for (const m of managers) {
    const a = ours.managed[m];
    const b = ref.managed[m];
    if (!a || !b) out.push(`manager ${m}: ours ${a ? 'present' : 'absent'}, go ${b ? 'present' : 'absent'}`);
    else if (a.fieldsV1 !== b.fieldsV1) out.push(`manager ${m} fieldsV1: ours ${a.fieldsV1} go ${b.fieldsV1}`);
  }
  return out;
}

const available = (() => {
  try {
    execFileSync('go', ['version']);
    return existsSync(SMD_SRC);
  } catch {
    return false;
  }
})();

describe.skipIf(!available)(`field-management vs structured-merge-diff (${SMD_SRC})`, () => {
  it(`agrees on the suite's cases and ${RANDOM} random ones (seed ${SEED})`, { timeout: 900_000 }, () => {
    const cases = [...MERGE_CASES, ...randomCases(SEED, RANDOM)];
    const ref = runGo(cases);
    const report: string[] = [];
    cases.forEach((c, i) => {
      const diff = differences(runMergeCase(c), ref[i]);
      if (diff.length) report.push(`✗ ${c.name}\n  ${diff.join('\n  ')}`);
    });
    console.log(`${cases.length - report.length}/${cases.length} cases agree with ${SMD_SRC}${REF_ORDERS_LISTS ? '' : ' (list order ignored: release before v4.2)'}\n${report.slice(0, 40).join('\n')}`);
    expect(report).toEqual([]);
  });
});
