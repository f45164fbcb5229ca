import { describe, expect, it } from 'vitest';
import { MERGE_CASES } from './testdata/merge.cases';
import { runMergeCase } from './testdata/merge.runner';
import { goJson } from './value.order';

describe('merge.Updater (structured-merge-diff merge suite)', () => {
  for (const c of MERGE_CASES) {
    it(c.name, () => {
      const res = runMergeCase(c);
      c.ops.forEach((op, i) => {
        if (op.conflicts) expect(res.ops[i], `op ${i}`).toEqual({ conflicts: op.conflicts });
        else if (op.error) expect(res.ops[i].error, `op ${i}`).toContain(op.error);
        else expect(res.ops[i], `op ${i}`).toEqual({});
      });
      if (c.object !== undefined) expect(res.object).toBe(goJson(c.object));
      if (c.managed) {
        const owned = Object.fromEntries(Object.entries(res.managed).map(([m, v]) => [m, v.paths]));
        expect(owned).toEqual(c.managed);
      }
    });
  }
});
