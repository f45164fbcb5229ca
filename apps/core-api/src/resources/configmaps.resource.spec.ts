import { describe, expect, it } from 'vitest';
import { configMapsResource, type ConfigMap } from './configmaps.resource';
import { cells, create, messages, meta, update } from './strategy.testing';

const cm = (fields: Partial<ConfigMap>): ConfigMap => ({ metadata: meta('cfg', 'default'), ...fields });

describe('configmaps', () => {
  it('is namespaced with the cm short name', () => {
    expect(configMapsResource).toMatchObject({ kind: 'ConfigMap', plural: 'configmaps', namespaced: true, shortNames: ['cm'] });
  });

  it('accepts valid data and binaryData', () => {
    expect(create(configMapsResource, cm({ data: { 'app.conf': 'x=1' }, binaryData: { 'logo.png': 'iVBORw0KGgo=' } }))).toEqual([]);
  });

  it('rejects invalid keys and keys present in both bags', () => {
    const errs = create(configMapsResource, cm({ data: { 'bad key': 'v', dup: 'v' }, binaryData: { dup: 'AA==' } }));
    expect(messages(errs)).toEqual([
      "data[bad key]: Invalid value: \"bad key\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      'data[dup]: Invalid value: "dup": duplicate of key present in binaryData',
    ]);
  });

  it('limits the total size to 1 MiB, counting decoded binaryData', () => {
    const half = 'a'.repeat(512 * 1024);
    expect(create(configMapsResource, cm({ data: { a: half, b: half } }))).toEqual([]);
    const errs = create(configMapsResource, cm({ data: { a: half, b: half }, binaryData: { c: 'AA==' } }));
    expect(messages(errs)).toEqual(['[]: Too long: must have at most 1048576 bytes']);
    expect(errs[0].toCause()).toEqual({ reason: 'FieldValueTooLong', message: 'Too long: must have at most 1048576 bytes', field: '[]' });
  });

  it('rejects binaryData that is not base64', () => {
    expect(messages(create(configMapsResource, cm({ binaryData: { f: 'not base64!' } })))).toEqual([
      'binaryData[f]: Invalid value: "not base64!": illegal base64 data at input byte 3',
    ]);
  });

  it('freezes data, binaryData and the flag once immutable', () => {
    const old = cm({ data: { a: '1' }, immutable: true });
    expect(update(configMapsResource, cm({ data: { a: '1' }, immutable: true, metadata: { ...meta('cfg', 'default'), labels: { x: 'y' } } }), old)).toEqual([]);
    expect(messages(update(configMapsResource, cm({ data: { a: '2' }, binaryData: { b: 'AA==' } }), old))).toEqual([
      'immutable: Forbidden: field is immutable when `immutable` is set',
      'data: Forbidden: field is immutable when `immutable` is set',
      'binaryData: Forbidden: field is immutable when `immutable` is set',
    ]);
  });

  it('allows changes while mutable', () => {
    expect(update(configMapsResource, cm({ data: { a: '2' }, immutable: true }), cm({ data: { a: '1' } }))).toEqual([]);
  });

  it('prints the number of data and binaryData keys', () => {
    expect(cells(configMapsResource, cm({ data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }))).toEqual({ Data: 3 });
    expect(cells(configMapsResource, cm({}))).toEqual({ Data: 0 });
  });
});
