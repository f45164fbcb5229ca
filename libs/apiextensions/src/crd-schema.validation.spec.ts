import type { JSONSchemaProps } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import { validateCustomResourceDefinitionSchema } from './crd-schema.validation';

const P = 'spec.versions[0].schema.openAPIV3Schema';
const check = (schema: JSONSchemaProps): string[] => validateCustomResourceDefinitionSchema(schema, P).map(String);
const withSpec = (properties: Record<string, JSONSchemaProps>): JSONSchemaProps => ({ type: 'object', properties: { spec: { type: 'object', properties } } });
const S = `${P}.properties[spec]`;

describe('validateCustomResourceDefinitionSchema: defaults', () => {
  it('accepts valid, pruned defaults', () => {
    expect(check(withSpec({ replicas: { type: 'integer', minimum: 1, default: 1 }, mode: { type: 'string', enum: ['a', 'b'], default: 'a' } }))).toEqual([]);
  });

  it('requires defaults to be pruned and to validate', () => {
    const schema = withSpec({
      replicas: { type: 'integer', maximum: 10, default: 11 },
      strategy: { type: 'object', properties: { type: { type: 'string' } }, default: { type: 'Recreate', surge: 1 } },
    });
    expect(check(schema)).toEqual([
      `${S}.properties[replicas].default: Invalid value: 11:  in body should be less than or equal to 10`,
      `${S}.properties[strategy].default: Invalid value: {"type":"Recreate","surge":1}: must not have unknown fields`,
    ]);
  });

  it('checks defaults against the CEL rules below them', () => {
    const schema = withSpec({ size: { type: 'string', default: 'huge', 'x-kubernetes-validations': [{ rule: "self in ['small', 'large']" }] } });
    expect(check(schema)).toEqual([`${S}.properties[size].default: Invalid value: "huge": failed rule: self in ['small', 'large']`]);
  });

  it('forbids defaults in top-level metadata and under metadata maps', () => {
    const schema: JSONSchemaProps = { type: 'object', properties: { metadata: { type: 'object', default: {} } } };
    expect(check(schema)).toEqual([`${P}.properties[metadata].default: Forbidden: must not be set in top-level metadata`]);
  });
});

describe('validateCustomResourceDefinitionSchema: unsupported keywords', () => {
  it('forbids keywords CRDs do not support', () => {
    const schema = { type: 'object', properties: { a: { type: 'null', uniqueItems: true }, b: { type: 'object', additionalProperties: false, properties: { x: { type: 'string' } } } } } as unknown as JSONSchemaProps;
    expect(check(schema)).toEqual([
      `${P}.properties[a].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
      `${P}.properties[a].type: Forbidden: type cannot be set to null, use nullable as an alternative`,
      `${P}.properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
      `${P}.properties[b].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
    ]);
  });
});

describe('validateCustomResourceDefinitionSchema: list and map types', () => {
  it('needs list-map keys that are required or defaulted scalar item properties', () => {
    const schema = withSpec({
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['port', 'protocol', 'nope'],
        items: { type: 'object', required: ['port'], properties: { port: { type: 'integer' }, protocol: { type: 'object' } } },
      },
    });
    expect(check(schema)).toEqual([
      `${S}.properties[ports].items.properties[protocol].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
      `${S}.properties[ports].x-kubernetes-list-map-keys: Invalid value: ["port","protocol","nope"]: entries must all be names of item properties`,
      `${S}.properties[ports].items.properties[protocol].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
    ]);
  });

  it('needs list-map keys for a map list and atomic items for a set', () => {
    const schema = withSpec({
      a: { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'string' } },
      b: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', properties: { x: { type: 'string' } } } },
      c: { type: 'string', 'x-kubernetes-list-type': 'set' },
      d: { type: 'array', 'x-kubernetes-list-map-keys': ['x'], items: { type: 'object', properties: { x: { type: 'string' } } } },
    });
    expect(check(schema)).toEqual([
      `${S}.properties[a].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
      `${S}.properties[a].items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`,
      `${S}.properties[b].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set`,
      `${S}.properties[c].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`,
      `${S}.properties[d].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`,
    ]);
  });
});

describe('validateCustomResourceDefinitionSchema: x-kubernetes-validations', () => {
  it('checks the shape of rules', () => {
    const schema = withSpec({
      a: {
        type: 'string',
        'x-kubernetes-validations': [
          { rule: ' ' },
          { rule: 'self.size() > 1 &&\nself.size() < 5' },
          { rule: 'true', message: 'two\nlines' },
          { rule: 'true', reason: 'FieldValueBogus', fieldPath: '.nope' },
        ],
      },
    });
    expect(check(schema)).toEqual([
      `${S}.properties[a].x-kubernetes-validations[0].rule: Required value: rule is not specified`,
      `${S}.properties[a].x-kubernetes-validations[1].message: Required value: message must be specified if rule contains line breaks`,
      `${S}.properties[a].x-kubernetes-validations[2].message: Invalid value: "two\\nlines": must not contain line breaks`,
      `${S}.properties[a].x-kubernetes-validations[3].reason: Unsupported value: "FieldValueBogus": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
      `${S}.properties[a].x-kubernetes-validations[3].fieldPath: Invalid value: ".nope": must be a valid path`,
    ]);
  });

  it('reports rules that do not compile at x-kubernetes-validations[i].rule', () => {
    const schema = withSpec({ replicas: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0' }, { rule: 'self.startsWith("1")', message: 'must start with 1' }] } });
    expect(check(schema)).toEqual([
      `${S}.properties[replicas].x-kubernetes-validations[1].rule: Invalid value: {"Rule":"self.startsWith(\\"1\\")","Message":"must start with 1","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ERROR: <input>:1:1: found no matching overload for 'startsWith' applied to 'int.(string)'\n | self.startsWith("1")\n | ^`,
    ]);
  });

  it('forbids oldSelf where old and new values cannot be correlated', () => {
    const schema = withSpec({
      tags: { type: 'array', items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } },
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] },
      },
    });
    expect(check(schema)).toEqual([
      `${S}.properties[tags].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${S}.properties[tags]`,
    ]);
  });

  it('does not compile rules while the schema around them is wrong', () => {
    const schema = withSpec({ a: { type: 'string', uniqueItems: true, 'x-kubernetes-validations': [{ rule: 'self.nope' }] } });
    expect(check(schema)).toEqual([`${S}.properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`]);
  });
});
