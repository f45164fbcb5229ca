import { describe, expect, it } from 'vitest';
import { buildTable, humanDuration, type PrintColumn } from './table';

describe('humanDuration', () => {
  it.each([
    [5_000, '5s'],
    [119_000, '119s'],
    [125_000, '2m5s'],
    [600_000, '10m'],
    [3 * 3600_000 + 5 * 60_000, '3h5m'],
    [30 * 3600_000, '30h'],
    [50 * 3600_000, '2d2h'],
    [400 * 24 * 3600_000, '400d'],
  ])('%d ms → %s', (ms, text) => expect(humanDuration(ms)).toBe(text));
});

describe('buildTable', () => {
  const data: PrintColumn = { name: 'Data', type: 'integer', cell: (o) => Object.keys((o.data as object) ?? {}).length };
  const cm = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', creationTimestamp: new Date(Date.now() - 61_000).toISOString() }, data: { x: '1' } };

  it('puts Name first and Age last with PartialObjectMetadata rows', () => {
    const t = buildTable([data], [cm], { resourceVersion: '7' });
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Data', 'Age']);
    expect(t.columnDefinitions[0].format).toBe('name');
    expect(t.rows[0].cells.slice(0, 2)).toEqual(['a', 1]);
    expect(t.rows[0].cells[2]).toMatch(/^6\ds$/);
    expect(t.rows[0].object).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: cm.metadata });
    expect(t.metadata.resourceVersion).toBe('7');
  });

  it('can omit the object and the definitions', () => {
    const t = buildTable([data], [cm], {}, 'None', false);
    expect(t.columnDefinitions).toEqual([]);
    expect(t.rows[0].object).toBeUndefined();
  });
});
