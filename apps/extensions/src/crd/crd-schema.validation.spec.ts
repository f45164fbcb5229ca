import { describe, expect, it } from 'vitest';
import { create, cronTab, messages, multiVersion } from './crd.testing';
import { customResourceDefinitionsResource as crds } from './customresourcedefinitions.resource';

// End to end with the real @kube/apiextensions schema checks (the other CRD specs stub them out).
describe('CRD schema validation', () => {
  it('reports a non-structural schema at the hoisted spec.validation path', () => {
    const crd = cronTab();
    const spec = crd.spec.versions[0].schema?.openAPIV3Schema?.properties?.spec;
    if (spec) delete spec.type;
    expect(messages(create(crds, crd))).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
    ]);
  });

  it('reports per-version paths when the versions carry different schemas', () => {
    const crd = multiVersion();
    const color = crd.spec.versions[1].schema?.openAPIV3Schema?.properties?.spec?.properties?.color;
    if (color) color.type = 'text' as 'string';
    expect(messages(create(crds, crd))).toEqual([
      'spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[color].type: Unsupported value: "text": supported values: "array", "boolean", "integer", "number", "object", "string"',
    ]);
  });
});
