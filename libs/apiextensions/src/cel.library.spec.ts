import { Environment } from '@marcbachmann/cel-js';
import { describe, expect, it } from 'vitest';
import { registerKubeLibrary } from './cel.library';

const env = new Environment({ homogeneousAggregateLiterals: false });
registerKubeLibrary(env);
const run = (src: string): unknown => env.evaluate(src);

describe('kube CEL library on cel-js', () => {
  it('has the strings extension functions cel-js lacks', () => {
    expect(run('"a-b-c".replace("-", "+")')).toBe('a+b+c');
    expect(run('"a-b-c".replace("-", "+", 1)')).toBe('a+b-c');
    expect(run('"héllo".charAt(1)')).toBe('é');
    expect(run('"abc".reverse()')).toBe('cba');
  });

  it('has RE2 regex functions', () => {
    expect(run('"ABC".re2Matches("(?i)^abc$")')).toBe(true);
    expect(run('"a1b22".find("[0-9]+")')).toBe('1');
    expect(run('"a1b22".findAll("[0-9]+")')).toEqual(['1', '22']);
  });

  it('has the lists library', () => {
    expect(run('[3, 1, 2].sum()')).toBe(6n);
    expect(run('[3, 1, 2].min()')).toBe(1n);
    expect(run('["b", "c"].max()')).toBe('c');
    expect(run('[1, 2, 2].isSorted()')).toBe(true);
    expect(run('[1, 2, 1].lastIndexOf(1)')).toBe(2n);
  });
});
