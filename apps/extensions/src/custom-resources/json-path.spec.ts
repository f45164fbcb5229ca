import { describe, expect, it } from 'vitest';
import { compileJsonPath } from './json-path';

describe('compileJsonPath', () => {
  const obj = { spec: { cronSpec: '* * * * *', 'a.b': 1, items: [{ name: 'x' }, { name: 'y' }] }, status: {} };

  it('reads dotted, quoted, indexed and wildcard paths', () => {
    expect(compileJsonPath('.spec.cronSpec')(obj)).toEqual(['* * * * *']);
    expect(compileJsonPath("{.spec['a.b']}")(obj)).toEqual([1]);
    expect(compileJsonPath('.spec.items[1].name')(obj)).toEqual(['y']);
    expect(compileJsonPath('.spec.items[*].name')(obj)).toEqual(['x', 'y']);
  });

  it('yields nothing for missing keys and rejects unsupported syntax', () => {
    expect(compileJsonPath('.status.replicas')(obj)).toEqual([]);
    expect(() => compileJsonPath('spec.x')).toThrow();
    expect(() => compileJsonPath('.spec[?(@.x)]')).toThrow();
  });
});
