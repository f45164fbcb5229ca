import { describe, expect, it } from 'vitest';
import { GO_ANY, GO_BOOL, GO_INT32, GO_INT64, GO_STRING, GO_TIME, goDecodeError, goMap, goNamedString, goSlice, goSprintValue, goStruct, goUnstructuredConvertError, goZeroNulls } from './go-json.typecheck';

const meta = goStruct('v1.ObjectMeta', {
  name: GO_STRING,
  generation: GO_INT64,
  creationTimestamp: GO_TIME,
  labels: goMap(GO_STRING),
  finalizers: goSlice(GO_STRING),
  ownerReferences: goSlice(goStruct('v1.OwnerReference', { uid: goNamedString('types.UID'), controller: GO_BOOL })),
  managedFields: goSlice(goStruct('v1.ManagedFieldsEntry', { fieldsV1: GO_ANY })),
});
const configMap = goStruct('v1.ConfigMap', { metadata: meta, data: goMap(GO_STRING), binaryData: goMap(GO_STRING) });

describe('goDecodeError (encoding/json\'s UnmarshalTypeError, as kube\'s decoder reports it)', () => {
  it('accepts what Go decodes, nulls included, and ignores fields the type does not have', () => {
    expect(goDecodeError({ metadata: { name: 'a', generation: 3, labels: { a: 'b' }, finalizers: ['x'], ownerReferences: [{ uid: 'u', controller: true }], managedFields: [{ fieldsV1: { 'f:data': {} } }] }, unknown: { deep: [1] } }, configMap)).toBeUndefined();
    expect(goDecodeError({ metadata: null, data: { a: null } }, configMap)).toBeUndefined();
    expect(goDecodeError({ metadata: { labels: null, generation: null, creationTimestamp: null } }, configMap)).toBeUndefined();
  });

  it('names the innermost struct and the JSON path of fields, not map keys or slice indexes', () => {
    expect(goDecodeError({ metadata: { labels: { a: { b: 1 } } } }, configMap)).toBe('json: cannot unmarshal object into Go struct field ObjectMeta.metadata.labels of type string');
    expect(goDecodeError({ metadata: { labels: ['a'] } }, configMap)).toBe('json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string');
    expect(goDecodeError({ metadata: 'x' }, configMap)).toBe('json: cannot unmarshal string into Go struct field ConfigMap.metadata of type v1.ObjectMeta');
    expect(goDecodeError({ metadata: { ownerReferences: [{ controller: 'yes' }] } }, configMap)).toBe('json: cannot unmarshal string into Go struct field OwnerReference.metadata.ownerReferences.controller of type bool');
    expect(goDecodeError({ metadata: { ownerReferences: {} } }, configMap)).toBe('json: cannot unmarshal object into Go struct field ObjectMeta.metadata.ownerReferences of type []v1.OwnerReference');
    expect(goDecodeError({ metadata: { finalizers: [true] } }, configMap)).toBe('json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.finalizers of type string');
    expect(goDecodeError({ data: { a: 1 } }, configMap)).toBe('json: cannot unmarshal number into Go struct field ConfigMap.data of type string');
    expect(goDecodeError(7, configMap)).toBe('json: cannot unmarshal number into Go value of type v1.ConfigMap');
  });

  it('quotes the number an integer field cannot hold, and reads a Time as a string first', () => {
    expect(goDecodeError({ metadata: { generation: 1.5 } }, configMap)).toBe('json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.metadata.generation of type int64');
    expect(goDecodeError({ metadata: { generation: 1e30 } }, configMap)).toBe('json: cannot unmarshal number 1e+30 into Go struct field ObjectMeta.metadata.generation of type int64');
    expect(goDecodeError({ metadata: { generation: '1' } }, configMap)).toBe('json: cannot unmarshal string into Go struct field ObjectMeta.metadata.generation of type int64');
    expect(goDecodeError(2 ** 31, GO_INT32)).toBe('json: cannot unmarshal number 2147483648 into Go value of type int32');
    expect(goDecodeError({ metadata: { creationTimestamp: 5 } }, configMap)).toBe('json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string');
  });

  it('reports the first mismatch in document order, as Go keeps the first error', () => {
    expect(goDecodeError({ metadata: { name: 1, labels: { a: {} } } }, configMap)).toBe('json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string');
  });
});

describe("goUnstructuredConvertError (runtime's DefaultUnstructuredConverter, a strategic merge patch's result)", () => {
  const meta = goStruct('v1.ObjectMeta', { labels: goMap(GO_STRING), name: GO_STRING, generation: GO_INT64, ownerReferences: goSlice(goStruct('v1.OwnerReference', { uid: GO_STRING })) });
  const pod = goStruct('v1.Pod', { metadata: meta });

  it('names the kind it cannot restore and what it found', () => {
    expect(goUnstructuredConvertError({ metadata: { labels: 'invalid' } }, pod)).toBe('cannot restore map from string');
    expect(goUnstructuredConvertError({ metadata: { ownerReferences: {} } }, pod)).toBe('cannot restore slice from map');
    expect(goUnstructuredConvertError({ metadata: [1] }, pod)).toBe('cannot restore struct from: slice');
    expect(goUnstructuredConvertError({ metadata: { name: 5 } }, pod)).toBe('cannot convert int64 to string');
    expect(goUnstructuredConvertError({ metadata: { generation: 'x' } }, pod)).toBe('cannot convert string to int64');
    expect(goUnstructuredConvertError({ metadata: { labels: { a: 'b' } } }, pod)).toBeUndefined();
  });

  it("prints a patch as Go's %+v prints a map (sorted keys, no quotes)", () => {
    expect(goSprintValue({ metadata: { labels: 'invalid', name: 'x' }, a: [1, 'b', true, null, 1.5, 0.00001] })).toBe('map[a:[1 b true <nil> 1.5 1e-05] metadata:map[labels:invalid name:x]]');
  });
});

describe('goZeroNulls (the zero values Go decodes JSON nulls of map and slice elements into)', () => {
  it('turns null strings, numbers, bools and structs inside maps and slices into zero values and leaves other nulls', () => {
    const t = goStruct('v1.Thing', { labels: goMap(GO_STRING), counts: goMap(GO_INT64), flags: goSlice(GO_BOOL), refs: goSlice(goStruct('v1.Ref', { name: GO_STRING, tags: goMap(GO_STRING) })), raw: goMap(GO_ANY), name: GO_STRING, when: goSlice(GO_TIME) });
    const value = { labels: { a: null, b: 'x' }, counts: { n: null }, flags: [null, true], refs: [null, { name: null, tags: { t: null } }], raw: { r: null }, name: null, when: [null] };
    goZeroNulls(value, t);
    expect(value).toEqual({ labels: { a: '', b: 'x' }, counts: { n: 0 }, flags: [false, true], refs: [{}, { name: null, tags: { t: '' } }], raw: { r: null }, name: null, when: [null] });
  });
});
