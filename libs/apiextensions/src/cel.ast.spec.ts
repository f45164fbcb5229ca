import { Environment } from '@marcbachmann/cel-js';
import { describe, expect, it } from 'vitest';
import { comprehensionDepth, locate, referencesVariable, useRe2Matches } from './cel.ast';

const env = new Environment({ unlistedVariablesAreDyn: true });
const ast = (src: string) => env.parse(src).ast;

describe('cel ast helpers', () => {
  it('finds oldSelf references', () => {
    expect(referencesVariable(ast('self == oldSelf'), 'oldSelf')).toBe(true);
    expect(referencesVariable(ast('self.all(x, x > 0)'), 'oldSelf')).toBe(false);
  });

  it('measures comprehension nesting, not chaining', () => {
    expect(comprehensionDepth(ast('self.size() > 1'))).toBe(0);
    expect(comprehensionDepth(ast('self.map(x, x.a).filter(y, y > 1).all(z, z < 9)'))).toBe(1);
    expect(comprehensionDepth(ast('self.all(a, self.exists(b, a.name == b.name))'))).toBe(2);
  });

  it('rewrites matches() calls', () => {
    const a = ast('self.matches("^a") && self.startsWith("a")');
    expect(useRe2Matches(a)).toBe(true);
    expect(useRe2Matches(ast('self.startsWith("a")'))).toBe(false);
  });

  it('locates offsets as line and column', () => {
    expect(locate('a &&\n  b.c', 8)).toEqual({ line: 2, column: 3, text: '  b.c' });
  });
});
