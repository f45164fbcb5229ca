import type { JSONSchemaProps } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import { isFloat64AJSONInteger, validateOpenAPISchema } from './openapi-schema.validator';

const spec = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'object',
  properties: { spec: { type: 'object', properties, ...extra } },
});

const check = (schema: JSONSchemaProps, value: unknown, path?: string): string[] => validateOpenAPISchema(value, schema, path).map(String);

describe('validateOpenAPISchema: types', () => {
  const schema = spec({ replicas: { type: 'integer' }, ratio: { type: 'number' }, name: { type: 'string' }, on: { type: 'boolean' }, tags: { type: 'array', items: { type: 'string' } } });

  it('reports the JSON type found, as kube-openapi does', () => {
    expect(check(schema, { spec: { replicas: 'string', ratio: 'x', name: 5, on: 'yes', tags: {} } })).toEqual([
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      'spec.ratio: Invalid value: "string": spec.ratio in body must be of type number: "string"',
      'spec.name: Invalid value: "integer": spec.name in body must be of type string: "integer"',
      'spec.on: Invalid value: "string": spec.on in body must be of type boolean: "string"',
      'spec.tags: Invalid value: "object": spec.tags in body must be of type array: "object"',
    ]);
  });

  it('tells integers from numbers: 1.5 is no integer (reported twice, as kube does), 2 is a number', () => {
    expect(check(schema, { spec: { replicas: 1.5, ratio: 2 } })).toEqual([
      'spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"',
      '<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.replicas',
    ]);
  });

  it('rejects null unless nullable', () => {
    const nullable = spec({ a: { type: 'string' }, b: { type: 'string', nullable: true } });
    expect(check(nullable, { spec: { a: null, b: null } })).toEqual(['spec.a: Invalid value: "null": spec.a in body must be of type string: "null"']);
  });

  it('accepts both integers and strings for x-kubernetes-int-or-string', () => {
    const ios = spec({ port: { 'x-kubernetes-int-or-string': true } });
    expect(check(ios, { spec: { port: 80 } })).toEqual([]);
    expect(check(ios, { spec: { port: 'http' } })).toEqual([]);
    expect(check(ios, { spec: { port: true } })).toEqual(['spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"']);
  });

  it('reports a root type error under <nil>, or under the given path', () => {
    expect(check({ type: 'object' }, 'x')).toEqual(['<nil>: Invalid value: "string":  in body must be of type object: "string"']);
    expect(check({ type: 'object' }, 'x', 'spec.versions[0].schema.openAPIV3Schema.default')).toEqual([
      'spec.versions[0].schema.openAPIV3Schema.default: Invalid value: "string":  in body must be of type object: "string"',
    ]);
  });
});

describe('validateOpenAPISchema: numbers', () => {
  const schema = spec({ replicas: { type: 'integer', minimum: 1, maximum: 10 }, weight: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1.5 } });

  it('checks bounds with kube-openapi messages', () => {
    expect(check(schema, { spec: { replicas: 11, weight: 0 } })).toEqual([
      'spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10',
      'spec.weight: Invalid value: 0: spec.weight in body should be greater than 0',
    ]);
    expect(check(schema, { spec: { replicas: 0, weight: 1.75 } })).toEqual([
      'spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1',
      'spec.weight: Invalid value: 1.75: spec.weight in body should be less than or equal to 1.5',
    ]);
  });

  it('checks multipleOf, for integers exactly and for floats within epsilon', () => {
    const m = spec({ a: { type: 'integer', multipleOf: 5 }, b: { type: 'number', multipleOf: 0.1 } });
    expect(check(m, { spec: { a: 12, b: 0.3 } })).toEqual(['spec.a: Invalid value: 12: spec.a in body should be a multiple of 5']);
    expect(check(m, { spec: { a: 10, b: 0.35 } })).toEqual(['spec.b: Invalid value: 0.35: spec.b in body should be a multiple of 0.1']);
  });

  it('range-checks int32 and float formats', () => {
    const f = spec({ a: { type: 'integer', format: 'int32' }, b: { type: 'number', format: 'float' } });
    expect(check(f, { spec: { a: 2 ** 31, b: 1e39 } })).toEqual([
      '<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.a',
      '<nil>: Invalid value: "": Checked value must be of type number with format float in spec.b',
    ]);
  });
});

describe('validateOpenAPISchema: strings', () => {
  const schema = spec({
    cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
    name: { type: 'string', minLength: 3, maxLength: 5 },
    one: { type: 'string', maxLength: 1 },
  });

  it('checks pattern (Go regexp) and lengths in runes', () => {
    expect(check(schema, { spec: { cronSpec: '* * * * */5', name: 'ééééé', one: 'x' } })).toEqual([]);
    expect(check(schema, { spec: { cronSpec: 'every minute', name: 'ab', one: 'xy' } })).toEqual([
      "spec.cronSpec: Invalid value: \"every minute\": spec.cronSpec in body should match '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'",
      'spec.name: Invalid value: "ab": spec.name in body should be at least 3 chars long',
      'spec.one: Too long: must have at most 1 byte',
    ]);
    expect(check(schema, { spec: { name: 'abcdef' } })).toEqual(['spec.name: Too long: must have at most 5 bytes']);
  });

  it('validates formats kube supports and ignores the others', () => {
    const f = spec({
      when: { type: 'string', format: 'date-time' },
      id: { type: 'string', format: 'uuid' },
      host: { type: 'string', format: 'hostname' },
      odd: { type: 'string', format: 'no-such-format' },
    });
    expect(check(f, { spec: { when: '2024-02-30T10:00:00Z', id: 'x', host: '-bad', odd: 'anything' } })).toEqual([
      'spec.when: Invalid value: "2024-02-30T10:00:00Z": spec.when in body must be of type date-time: "2024-02-30T10:00:00Z"',
      'spec.id: Invalid value: "x": spec.id in body must be of type uuid: "x"',
      'spec.host: Invalid value: "-bad": spec.host in body must be of type hostname: "-bad"',
    ]);
  });
});

describe('validateOpenAPISchema: enums, arrays, objects', () => {
  it('reports enums as unsupported values', () => {
    const schema = spec({ policy: { type: 'string', enum: ['Allow', 'Forbid'] }, level: { type: 'integer', enum: [1, 2] } });
    expect(check(schema, { spec: { policy: 'Replace', level: 3 } })).toEqual([
      'spec.policy: Unsupported value: "Replace": supported values: "Allow", "Forbid"',
      'spec.level: Unsupported value: 3: supported values: "1", "2"',
    ]);
  });

  it('checks array sizes, uniqueness and items', () => {
    const schema = spec({ ports: { type: 'array', minItems: 1, maxItems: 2, uniqueItems: true, items: { type: 'integer', maximum: 65535 } } });
    expect(check(schema, { spec: { ports: [80, 80, 70000] } })).toEqual([
      'spec.ports[2]: Invalid value: 70000: spec.ports[2] in body should be less than or equal to 65535',
      'spec.ports: Too many: 3: must have at most 2 items',
      'spec.ports: Invalid value: "": spec.ports in body shouldn\'t contain duplicates',
    ]);
    expect(check(schema, { spec: { ports: [] } })).toEqual(['spec.ports: Invalid value: 0: spec.ports in body should have at least 1 items']);
  });

  it('reports every missing required field and property counts', () => {
    const schema = spec({ name: { type: 'string' }, image: { type: 'string' } }, { required: ['name', 'image'], maxProperties: 1 });
    expect(check(schema, { spec: {} })).toEqual(['spec.name: Required value', 'spec.image: Required value']);
    const labels = spec({ labels: { type: 'object', maxProperties: 1, minProperties: 1, additionalProperties: { type: 'string', maxLength: 3 } } });
    expect(check(labels, { spec: { labels: { a: 'long', b: 'x' } } })).toEqual([
      'spec.labels: Too many: 2: must have at most 1 item',
      'spec.labels.a: Too long: must have at most 3 bytes',
    ]);
  });

  it('reports properties forbidden by additionalProperties: false', () => {
    const schema = spec({ a: { type: 'string' } }, { additionalProperties: false });
    expect(check(schema, { spec: { a: 'x', b: 1 } })).toEqual(['spec: Invalid value: "b": spec.b in body is a forbidden property']);
  });
});

describe('validateOpenAPISchema: allOf, anyOf, oneOf, not', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'string' } },
        oneOf: [{ required: ['a'] }, { required: ['b'] }],
        not: { required: ['a', 'b'] },
      },
    },
  };

  it('reports composite failures under <nil>, then the best failing branch', () => {
    expect(check(schema, { spec: {} })).toEqual([
      '<nil>: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found none valid',
      'spec.a: Required value',
    ]);
    expect(check(schema, { spec: { a: 'x', b: 'y' } })).toEqual([
      '<nil>: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found 2 valid alternatives',
      '<nil>: Invalid value: "": "spec" must not validate the schema (not)',
    ]);
    expect(check(schema, { spec: { b: 'y' } })).toEqual([]);
  });

  it('reports anyOf and allOf', () => {
    const s: JSONSchemaProps = { type: 'object', properties: { v: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }], allOf: [{ pattern: '^[0-9]+%$' }] } } };
    expect(check(s, { v: '10%' })).toEqual([]);
    expect(check(s, { v: 'ten' })).toEqual(["v: Invalid value: \"ten\": v in body should match '^[0-9]+%$'", '<nil>: Invalid value: "": "v" must validate all the schemas (allOf). None validated']);
  });
});

describe('isFloat64AJSONInteger', () => {
  it('accepts integral floats within the safe range', () => {
    expect(isFloat64AJSONInteger(3)).toBe(true);
    expect(isFloat64AJSONInteger(3.0000000000001)).toBe(true);
    expect(isFloat64AJSONInteger(3.5)).toBe(false);
    expect(isFloat64AJSONInteger(2 ** 54)).toBe(false);
  });
});
