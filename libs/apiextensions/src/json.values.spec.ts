import { describe, expect, it } from 'vitest';
import { byteLength, deepCopyJson, deepEqualJson, goFloatString, goJsonMarshal, runeCount, sortedKeys } from './json.values';

describe('json values', () => {
  it('copies and compares decoded JSON', () => {
    const v = { a: [1, { b: null }], c: 'x' };
    const copy = deepCopyJson(v);
    expect(copy).toEqual(v);
    expect(copy.a).not.toBe(v.a);
    expect(deepEqualJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(deepEqualJson([1, 2], [2, 1])).toBe(false);
  });

  it('marshals like Go, with sorted map keys', () => {
    expect(goJsonMarshal({ b: 1, a: [true, null] })).toBe('{"a":[true,null],"b":1}');
    expect(JSON.stringify(sortedKeys({ port: 80, name: 'a' }))).toBe('{"name":"a","port":80}');
  });

  it("prints floats like Go's %v", () => {
    expect(goFloatString(1.5)).toBe('1.5');
    expect(goFloatString(10)).toBe('10');
    expect(goFloatString(0.00001)).toBe('1e-05');
    expect(goFloatString(1e21)).toBe('1e+21');
  });

  it('counts runes and UTF-8 bytes', () => {
    expect(runeCount('héllo😀')).toBe(6);
    expect(byteLength('héllo😀')).toBe(10);
  });
});
