import type { JSONSchemaProps } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import { validFieldPath } from './rule-field-path.parser';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: { type: 'object', properties: { ports: { type: 'array', items: { type: 'integer' } }, labels: { type: 'object', additionalProperties: { type: 'string' } } } },
  },
};

describe('validFieldPath', () => {
  it('normalizes field and map-key accessors', () => {
    expect(validFieldPath('.spec.ports', schema)).toMatchObject({ ok: true, path: 'spec.ports' });
    expect(validFieldPath(".spec['ports']", schema)).toMatchObject({ ok: true, path: 'spec.ports' });
    expect(validFieldPath(".spec.labels['app.kubernetes.io/name']", schema)).toMatchObject({ ok: true, path: 'spec.labels[app.kubernetes.io/name]' });
  });

  it('rejects unknown fields and malformed paths', () => {
    expect(validFieldPath('.spec.nope', schema)).toEqual({ ok: false, error: 'does not refer to a valid field' });
    expect(validFieldPath('spec', schema)).toEqual({ ok: false, error: 'expected [ or . but got: spec' });
    expect(validFieldPath('.spec[ports]', schema)).toEqual({ ok: false, error: 'expected single quoted string but got ports' });
    expect(validFieldPath('.spec.', schema)).toEqual({ ok: false, error: 'unexpected end of JSON path' });
  });
});
