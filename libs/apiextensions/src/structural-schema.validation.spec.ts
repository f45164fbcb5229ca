import type { JSONSchemaProps } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import { structuralConversionError, validateStructuralSchema } from './structural-schema.validation';

const messages = (schema: JSONSchemaProps, path?: string): string[] => validateStructuralSchema(schema, path).map(String);

const P = 'spec.validation.openAPIV3Schema';

/** The CronTab CRD of the Kubernetes docs. */
const cronTab: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
        image: { type: 'string' },
        replicas: { type: 'integer', minimum: 1, maximum: 10 },
      },
    },
    status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  },
};

describe('validateStructuralSchema', () => {
  it('accepts a structural CRD schema', () => {
    expect(messages(cronTab)).toEqual([]);
  });

  it('requires a type everywhere, with the message of each level', () => {
    expect(messages({ properties: { spec: { properties: { tags: { type: 'array', items: {} } } } } })).toEqual([
      `${P}.properties[spec].properties[tags].items.type: Required value: must not be empty for specified array items`,
      `${P}.properties[spec].type: Required value: must not be empty for specified object fields`,
      `${P}.type: Required value: must not be empty at the root`,
    ]);
  });

  it('lets x-kubernetes-int-or-string and x-kubernetes-preserve-unknown-fields stand without a type', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: { port: { 'x-kubernetes-int-or-string': true }, raw: { 'x-kubernetes-preserve-unknown-fields': true } },
    };
    expect(messages(schema)).toEqual([]);
  });

  it('uses the given field path', () => {
    expect(messages({ type: 'string' }, 'spec.versions[0].schema.openAPIV3Schema')).toEqual([
      'spec.versions[0].schema.openAPIV3Schema.type: Invalid value: "string": must be object at the root',
    ]);
  });

  it('requires items for arrays and forbids additionalProperties at the root', () => {
    expect(messages({ type: 'object', additionalProperties: { type: 'string' }, properties: { l: { type: 'array' } } })).toEqual([
      `${P}.additionalProperties: Forbidden: must not be used at the root`,
      `${P}.properties[l].items: Required value: must be specified`,
    ]);
  });

  it('restricts root metadata to name and generateName', () => {
    const ok: JSONSchemaProps = { type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } } } };
    expect(messages(ok)).toEqual([]);
    const labels: JSONSchemaProps = { type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } };
    expect(messages(labels)).toEqual([
      `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ]);
    expect(messages({ type: 'object', properties: { metadata: { type: 'string' } } })).toEqual([
      `${P}.properties[metadata].type: Invalid value: "string": must be object`,
    ]);
  });

  it('checks apiVersion, kind and metadata of embedded resources', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        template: { 'x-kubernetes-embedded-resource': true, properties: { kind: { type: 'integer' } } },
        raw: { type: 'object', 'x-kubernetes-embedded-resource': true },
      },
    };
    expect(messages(schema)).toEqual([
      `${P}.properties[raw].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
      `${P}.properties[template].properties[kind].type: Invalid value: "integer": must be string`,
      `${P}.properties[template].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
    ]);
  });

  it('forbids preserve-unknown-fields and embedded-resource together with int-or-string', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: { v: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-embedded-resource': true } },
    };
    expect(messages(schema)).toContain(`${P}.properties[v].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`);
    expect(messages(schema)).toContain(`${P}.properties[v].x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true`);
  });

  it('forbids generic fields and extensions inside value validations', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } },
      allOf: [{ properties: { spec: { description: 'the spec', default: {}, properties: { a: { type: 'string', nullable: true } } } } }],
      not: { 'x-kubernetes-list-type': 'set', additionalProperties: true, properties: { metadata: {} } },
    };
    expect(messages(schema)).toEqual([
      `${P}.allOf[0].properties[spec].default: Forbidden: must be undefined to be structural`,
      `${P}.allOf[0].properties[spec].description: Forbidden: must be empty to be structural`,
      `${P}.allOf[0].properties[spec].properties[a].nullable: Forbidden: must be false to be structural`,
      `${P}.allOf[0].properties[spec].properties[a].type: Forbidden: must be empty to be structural`,
      `${P}.not.additionalProperties: Forbidden: must be undefined to be structural`,
      `${P}.not.properties[metadata]: Forbidden: must not be specified in a nested context`,
      `${P}.not.x-kubernetes-list-type: Forbidden: must be undefined to be structural`,
      `${P}.properties[metadata]: Required value: because it is defined in ${P}.not.properties[metadata]`,
    ]);
  });

  it('allows the int-or-string anyOf pattern, directly and as the first allOf', () => {
    const intOrString: JSONSchemaProps[] = [{ type: 'integer' }, { type: 'string' }];
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        a: { 'x-kubernetes-int-or-string': true, anyOf: intOrString },
        b: { 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: intOrString }, { pattern: '^[0-9]+%?$' }] },
        c: { 'x-kubernetes-int-or-string': true, oneOf: intOrString },
      },
    };
    expect(messages(schema)).toEqual([`${P}.properties[c].oneOf[0].type: Forbidden: must be empty to be structural`, `${P}.properties[c].oneOf[1].type: Forbidden: must be empty to be structural`]);
  });

  it('requires value validations to name only structurally defined properties and items', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } },
      anyOf: [{ properties: { spec: { required: ['b'], properties: { b: { maxLength: 3 } } } } }, { properties: { tags: { items: { minLength: 1 } } } }],
    };
    expect(messages(schema)).toEqual([
      `${P}.properties[spec].properties[b]: Required value: because it is defined in ${P}.anyOf[0].properties[spec].properties[b]`,
      `${P}.properties[tags]: Required value: because it is defined in ${P}.anyOf[1].properties[tags]`,
    ]);
  });

  it('reports patterns Go cannot compile, with Go regexp error text', () => {
    expect(messages({ type: 'object', properties: { a: { type: 'string', pattern: '^(?=a)' } } })).toEqual([
      `${P}.properties[a].pattern: Invalid value: "^(?=a)": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: \`(?=\``,
    ]);
  });

  it('reports what cannot become a structural schema at all', () => {
    const items = { type: 'object', properties: { l: { type: 'array', items: [{ type: 'string' }] } } } as unknown as JSONSchemaProps;
    expect(messages(items)).toEqual([`${P}: Invalid value: "": OpenAPIV3Schema 'items' must be a schema, but is an array`]);
    expect(structuralConversionError({ type: 'object', $ref: '#/definitions/x' })).toBe("OpenAPIV3Schema '$ref' is not supported");
    expect(structuralConversionError({ type: 'object', 'x-kubernetes-preserve-unknown-fields': false })).toBe(
      "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined",
    );
  });
});
