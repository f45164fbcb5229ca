import type { JSONSchemaProps } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import { additionalPropertiesSchema, forEachStructuralNode, hasDefault, isSet, itemsSchema, setKeywords } from './schema.props';

describe('schema props', () => {
  it("decides 'is set' by Go's zero values", () => {
    const s = { type: 'string', minLength: 0, nullable: false, description: '', enum: [], default: null } as JSONSchemaProps;
    expect(isSet(s, 'minLength')).toBe(true);
    expect(isSet(s, 'nullable')).toBe(false);
    expect(isSet(s, 'description')).toBe(false);
    expect(isSet(s, 'enum')).toBe(false);
    expect(isSet(s, 'default')).toBe(false);
    expect(setKeywords(s)).toEqual(['type', 'minLength']);
    expect(hasDefault(s)).toBe(false);
  });

  it('reads items and additionalProperties only when they are schemas', () => {
    expect(itemsSchema({ type: 'array', items: [{ type: 'string' }] } as unknown as JSONSchemaProps)).toBeUndefined();
    expect(additionalPropertiesSchema({ type: 'object', additionalProperties: true })).toBeUndefined();
    expect(additionalPropertiesSchema({ type: 'object', additionalProperties: { type: 'string' } })).toEqual({ type: 'string' });
  });

  it('walks the structural nodes', () => {
    const types: string[] = [];
    const schema: JSONSchemaProps = { type: 'object', properties: { a: { type: 'array', items: { type: 'integer' } }, m: { type: 'object', additionalProperties: { type: 'boolean' } } }, not: { type: 'string' } };
    forEachStructuralNode(schema, (n) => types.push(n.type ?? ''));
    expect(types).toEqual(['object', 'array', 'integer', 'object', 'boolean']);
  });
});
