/** The benchmark's custom resource: a CRD whose spec has 50 fields (integers, patterned strings, booleans), and a valid spec. */
export function crd(i: number): object {
  const props: Record<string, object> = {};
  for (let f = 0; f < 50; f++) props[`field${f}`] = f % 3 === 0 ? { type: 'integer', minimum: 0, maximum: 1000 } : f % 3 === 1 ? { type: 'string', maxLength: 64, pattern: '^[a-z0-9-]*$' } : { type: 'boolean' };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `things${i}.crbench.example.com` },
    spec: {
      group: 'crbench.example.com',
      scope: 'Namespaced',
      names: { plural: `things${i}`, singular: `thing${i}`, kind: `Thing${i}` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: props } } } } }],
    },
  };
}

export function fiftyFields(): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  for (let f = 0; f < 50; f++) spec[`field${f}`] = f % 3 === 0 ? f : f % 3 === 1 ? `value-${f}` : f % 2 === 0;
  return spec;
}
