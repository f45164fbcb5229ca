import { describe, expect, it } from 'vitest';
import { CRD_GROUP_PRIORITY, GROUP_PRIORITIES, priorityFor } from './group-priority.table';

describe('priorityFor', () => {
  it('gives the core group kube priority 18000/1', () => {
    expect(priorityFor('', 'v1', 'onstart')).toEqual({ groupPriorityMinimum: 18000, versionPriority: 1 });
  });

  it('orders autoscaling/v2 before autoscaling/v1 within the group', () => {
    expect(priorityFor('autoscaling', 'v2', 'onstart')?.versionPriority).toBeGreaterThan(priorityFor('autoscaling', 'v1', 'onstart')?.versionPriority ?? 0);
  });

  it('gives every CRD group/version 1000/100, even a built-in name', () => {
    expect(priorityFor('stable.example.com', 'v1', 'crd')).toBe(CRD_GROUP_PRIORITY);
    expect(priorityFor('apps', 'v1', 'crd')).toEqual({ groupPriorityMinimum: 1000, versionPriority: 100 });
  });

  it('has no guess for an unknown built-in', () => {
    expect(priorityFor('apps', 'v1beta1', 'onstart')).toBeUndefined();
  });

  it('keeps every entry inside APIService validation ranges', () => {
    for (const p of Object.values(GROUP_PRIORITIES)) {
      expect(p.groupPriorityMinimum).toBeGreaterThanOrEqual(1);
      expect(p.groupPriorityMinimum).toBeLessThanOrEqual(20000);
      expect(p.versionPriority).toBeGreaterThanOrEqual(1);
      expect(p.versionPriority).toBeLessThanOrEqual(1000);
    }
  });
});
