import { describe, expect, it } from 'vitest';
import { makePath, PathElements, pathString, serializePathElement } from './fieldpath.path';
import { fieldsV1ToSet, setToFieldsV1Json } from './fieldpath.serialize';
import { FieldSet } from './fieldpath.set';

describe('fieldsV1 (fieldpath serialization)', () => {
  it('writes path elements as kube does: f:, k: with sorted keys, v:, i:, HTML-escaped JSON', () => {
    expect(serializePathElement(PathElements.field('a.b'))).toBe('f:a.b');
    expect(serializePathElement(PathElements.key([{ name: 'protocol', value: 'TCP' }, { name: 'containerPort', value: 80 }]))).toBe('k:{"containerPort":80,"protocol":"TCP"}');
    expect(serializePathElement(PathElements.value('<a&b>'))).toBe('v:"\\u003ca\\u0026b\\u003e"');
    expect(serializePathElement(PathElements.value({ b: 1, a: [true, null] }))).toBe('v:{"a":[true,null],"b":1}');
    expect(serializePathElement(PathElements.index(3))).toBe('i:3');
  });

  it('orders members and children with "." first, fields, keys, values, indexes', () => {
    const set = FieldSet.of(
      makePath('spec', 'ports', PathElements.key([{ name: 'port', value: 80 }]), 'name'),
      makePath('spec', 'ports', PathElements.key([{ name: 'port', value: 80 }])),
      makePath('spec', 'ports', PathElements.key([{ name: 'port', value: 443 }])),
      makePath('spec', 'list', PathElements.value('b')),
      makePath('spec', 'list', PathElements.value(1)),
      makePath('spec', 'x', 0),
      makePath('metadata', 'labels', 'z'),
      makePath('metadata', 'labels'),
    );
    const json = setToFieldsV1Json(set);
    expect(json).toBe(
      '{"f:metadata":{"f:labels":{".":{},"f:z":{}}},"f:spec":{"f:list":{"v:1":{},"v:\\"b\\"":{}},"f:ports":{"k:{\\"port\\":80}":{".":{},"f:name":{}},"k:{\\"port\\":443}":{}},"f:x":{"i:0":{}}}}',
    );
    const back = fieldsV1ToSet(JSON.parse(json));
    expect(back.equals(set)).toBe(true);
    expect(setToFieldsV1Json(back)).toBe(json);
  });

  it('drops unknown element kinds and refuses malformed ones', () => {
    expect(fieldsV1ToSet({ 'f:a': {}, 'x:b': {} }).paths().map(pathString)).toEqual(['.a']);
    expect(() => fieldsV1ToSet({ 'k:{bad': {} })).toThrow(/path element/);
    expect(() => fieldsV1ToSet({ 'f:a': [] })).toThrow();
  });

  it('set algebra: difference keeps parents, recursive difference removes subtrees', () => {
    const s = FieldSet.of(makePath('a'), makePath('a', 'b'), makePath('a', 'c'));
    expect(s.difference(FieldSet.of(makePath('a'))).paths().map(pathString)).toEqual(['.a.b', '.a.c']);
    expect(s.recursiveDifference(FieldSet.of(makePath('a'))).isEmpty()).toBe(true);
    expect(s.intersection(FieldSet.of(makePath('a', 'c'), makePath('d'))).paths().map(pathString)).toEqual(['.a.c']);
  });
});
