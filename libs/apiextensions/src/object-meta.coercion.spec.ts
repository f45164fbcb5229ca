import { describe, expect, it } from 'vitest';
import { coerceObjectMeta } from './object-meta.coercion';

describe('coerceObjectMeta', () => {
  it('keeps ObjectMeta fields, drops unknown ones and empty omitempty values', () => {
    const obj: Record<string, unknown> = {
      metadata: {
        name: 'a',
        namespace: '',
        generation: 0,
        labels: { app: 'x' },
        annotations: {},
        finalizers: [],
        creationTimestamp: null,
        deletionGracePeriodSeconds: 0,
        managedFields: [{ manager: 'kubectl', operation: 'Apply', time: '', extra: 1 }],
        spec: {},
      },
    };
    expect(coerceObjectMeta(obj)).toEqual(['metadata.spec', 'metadata.managedFields[0].extra']);
    expect(obj.metadata).toEqual({ name: 'a', labels: { app: 'x' }, deletionGracePeriodSeconds: 0, managedFields: [{ manager: 'kubectl', operation: 'Apply' }] });
  });

  it('prefixes paths of embedded metadata', () => {
    expect(coerceObjectMeta({ metadata: { foo: 1 } }, 'spec.template')).toEqual(['spec.template.metadata.foo']);
    expect(coerceObjectMeta({ metadata: 'not an object' })).toEqual([]);
  });
});
