import { describe, expect, it } from 'vitest';
import {
  FieldSelector,
  checkFieldSelectorFields,
  escapeFieldSelectorValue,
  fieldSelectorNotKnownError,
  parseFieldSelector,
  unescapeFieldSelectorValue,
} from './field-selector';

const terms = (s: string): Array<[string, string, string]> => parseFieldSelector(s).requirements.map((r) => [r.field, r.operator, r.value]);

describe('parseFieldSelector', () => {
  it('parses =, == and != terms joined by commas, sorted as kube sorts them', () => {
    expect(terms('metadata.name=foo')).toEqual([['metadata.name', '=', 'foo']]);
    expect(terms('status.phase!=Running,metadata.namespace==default')).toEqual([
      ['metadata.namespace', '=', 'default'],
      ['status.phase', '!=', 'Running'],
    ]);
    expect(terms('spec.nodeName=')).toEqual([['spec.nodeName', '=', '']]);
  });

  it('skips empty terms and treats the empty string as everything', () => {
    expect(terms('a=a,')).toEqual([['a', '=', 'a']]);
    expect(terms(',a=a')).toEqual([['a', '=', 'a']]);
    expect(parseFieldSelector('').empty).toBe(true);
    expect(parseFieldSelector('a=b').empty).toBe(false);
  });

  it('unescapes \\\\, \\, and \\= in values (terms sort by their raw text)', () => {
    expect(terms('k=\\,,k2=v2')).toEqual([
      ['k2', '=', 'v2'],
      ['k', '=', ','],
    ]);
    expect(terms('k=\\\\,k2=v2')).toEqual([
      ['k2', '=', 'v2'],
      ['k', '=', '\\'],
    ]);
    expect(terms('k=\\\\\\,,x=\\=')).toEqual([
      ['k', '=', '\\,'],
      ['x', '=', '='],
    ]);
    expect(terms('함=수,목=록')).toEqual([
      ['목', '=', '록'],
      ['함', '=', '수'],
    ]);
  });

  it('rejects bad syntax with kube messages', () => {
    expect(() => parseFieldSelector('a')).toThrow("invalid selector: 'a'; can't understand 'a'");
    expect(() => parseFieldSelector('x=1,b')).toThrow("invalid selector: 'x=1,b'; can't understand 'b'");
    expect(() => parseFieldSelector('k=\\a')).toThrow('invalid field selector: invalid escape sequence: \\a');
    expect(() => parseFieldSelector('k=\\')).toThrow('invalid field selector: invalid escape sequence: \\');
    expect(() => parseFieldSelector('k=a=b')).toThrow('invalid field selector: unescaped character in value: 61');
    try {
      parseFieldSelector('a');
    } catch (err) {
      expect(err).toMatchObject({ status: { code: 400, reason: 'BadRequest' } });
    }
  });
});

describe('FieldSelector.matches', () => {
  const pod = { 'metadata.name': 'web-1', 'metadata.namespace': 'default', 'status.phase': 'Running' };

  it('ANDs the terms', () => {
    expect(parseFieldSelector('metadata.name=web-1').matches(pod)).toBe(true);
    expect(parseFieldSelector('metadata.name=web-1,status.phase!=Running').matches(pod)).toBe(false);
    expect(parseFieldSelector('metadata.name==web-1,status.phase!=Pending').matches(pod)).toBe(true);
    expect(parseFieldSelector('').matches(pod)).toBe(true);
  });

  it('reads a missing field as the empty string', () => {
    expect(parseFieldSelector('spec.nodeName=').matches(pod)).toBe(true);
    expect(parseFieldSelector('spec.nodeName!=').matches(pod)).toBe(false);
    expect(parseFieldSelector('spec.nodeName!=node-1').matches(pod)).toBe(true);
  });

  it('reports the value a field is pinned to', () => {
    const sel = parseFieldSelector('metadata.name=a,status.phase!=b');
    expect(sel.requiresExactMatch('metadata.name')).toBe('a');
    expect(sel.requiresExactMatch('status.phase')).toBeUndefined();
  });

  it('transforms terms and drops those mapped to nothing', () => {
    const sel = parseFieldSelector('spec.host=n1,metadata.name=a,x=y').transform((field, value) =>
      field === 'x' ? { field: '', value: '' } : field === 'spec.host' ? { field: 'spec.nodeName', value } : { field, value },
    );
    expect(sel.toString()).toBe('metadata.name=a,spec.nodeName=n1');
  });

  it('escapes values when printed', () => {
    expect(new FieldSelector([{ field: 'a', operator: '=', value: 'x,y=z\\' }]).toString()).toBe('a=x\\,y\\=z\\\\');
  });
});

describe('escape/unescape', () => {
  it.each([
    ['', ''],
    ['a', 'a'],
    ['=', '\\='],
    [',', '\\,'],
    ['\\', '\\\\'],
    ['\\=\\,\\', '\\\\\\=\\\\\\,\\\\'],
  ])('%j ↔ %j', (raw, escaped) => {
    expect(escapeFieldSelectorValue(raw)).toBe(escaped);
    expect(unescapeFieldSelectorValue(escaped)).toBe(raw);
  });
});

describe('unknown fields', () => {
  it('builds the 400 kube answers for custom resources', () => {
    const err = fieldSelectorNotKnownError('spec.foo', ['metadata.name', 'metadata.namespace']);
    expect(err.status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: '"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"',
    });
  });

  it('checks every term against the allowed fields', () => {
    const allowed = ['metadata.name', 'metadata.namespace'];
    expect(() => checkFieldSelectorFields(parseFieldSelector('metadata.name=a'), allowed)).not.toThrow();
    expect(() => checkFieldSelectorFields(parseFieldSelector('metadata.name=a,status.phase=x'), allowed)).toThrow('"status.phase" is not a known field selector');
  });
});
