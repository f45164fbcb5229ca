import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@kube/apimachinery';
import { printerColumns } from './printer-columns';

const cert = {
  apiVersion: 'cert-manager.io/v1',
  kind: 'Certificate',
  metadata: { name: 'c', creationTimestamp: new Date(Date.now() - 3 * 3600_000).toISOString() },
  spec: { secretName: 'tls', replicas: 2.7, flag: true, nothing: null, labels: { a: 'b' } },
  status: {
    conditions: [
      { type: 'Issuing', status: 'False' },
      { type: 'Ready', status: 'True', message: 'up to date' },
    ],
  },
} as unknown as KubeObject;

describe('printerColumns (kube tableconvertor)', () => {
  it('evaluates filters, takes the first value and converts it to the column type', () => {
    const cols = printerColumns([
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'Types', type: 'string', jsonPath: '.status.conditions[*].type' },
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'Ratio', type: 'number', jsonPath: '.spec.replicas' },
      { name: 'Flag', type: 'boolean', jsonPath: '.spec.flag' },
      { name: 'WrongType', type: 'integer', jsonPath: '.spec.secretName' },
      { name: 'Labels', type: 'string', jsonPath: '.spec.labels' },
      { name: 'Null', type: 'string', jsonPath: '.spec.nothing' },
      { name: 'Missing', type: 'string', jsonPath: '.status.notThere' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      { name: 'BadDate', type: 'date', jsonPath: '.spec.secretName' },
    ]);
    expect(cols.map((c) => c.cell(cert))).toEqual(['True', 'Issuing', 2, 2.7, true, null, '{"a":"b"}', '<no value>', null, '3h', '<invalid>']);
    expect(cols[0].description).toBe('Custom resource definition column (in JSONPath format): .status.conditions[?(@.type=="Ready")].status');
    expect(cols[9].type).toBe('date');
  });

  it('keeps the columns before one kube cannot parse, and drops it and those after', () => {
    const cols = printerColumns([
      { name: 'A', type: 'string', jsonPath: '.spec.secretName' },
      { name: 'B', type: 'string', jsonPath: '.spec[' },
      { name: 'C', type: 'string', jsonPath: '.spec.secretName' },
    ]);
    expect(cols.map((c) => c.name)).toEqual(['A']);
  });

  it('an evaluation error is an empty cell, not a failed request', () => {
    const [col] = printerColumns([{ name: 'X', type: 'string', jsonPath: '.spec.secretName[0]' }]);
    expect(col.cell(cert)).toBeNull();
  });
});
