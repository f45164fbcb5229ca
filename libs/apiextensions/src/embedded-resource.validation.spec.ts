import type { JSONSchemaProps } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import { validateEmbeddedResources } from './embedded-resource.validation';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
        extra: { type: 'array', items: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } },
      },
    },
  },
};

const check = (obj: unknown): string[] => validateEmbeddedResources(obj, schema).map(String);

describe('validateEmbeddedResources', () => {
  it('accepts a well-formed embedded object and ignores the root', () => {
    expect(check({ spec: { template: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } } } })).toEqual([]);
  });

  it('requires apiVersion and kind and checks their form', () => {
    expect(check({ spec: { template: {}, extra: [{ apiVersion: 'a/b/c', kind: 'Not_A_Kind' }, { apiVersion: 1, kind: '' }] } })).toEqual([
      'spec.template.apiVersion: Required value',
      'spec.template.kind: Required value',
      'spec.extra[0].apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      `spec.extra[0].kind: Invalid value: "Not_A_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      'spec.extra[1].apiVersion: Invalid value: 1: must be a string',
      'spec.extra[1].kind: Invalid value: "": must not be empty',
    ]);
  });

  it('checks embedded metadata names as path segments', () => {
    expect(check({ spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a/b', labels: { 'bad key!': 'x' } } } } })[0]).toBe(
      "spec.template.metadata.name: Invalid value: \"a/b\": may not contain '/'",
    );
  });
});
