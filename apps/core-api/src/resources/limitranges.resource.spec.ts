import { describe, expect, it } from 'vitest';
import type { LimitRange, LimitRangeItem } from '@kube/admission';
import { limitRangesResource } from './limitranges.resource';
import { cells, create, messages, meta } from './strategy.testing';

const lr = (...limits: LimitRangeItem[]): LimitRange => ({ metadata: meta('lr', 'ns'), spec: { limits } });

describe('limitranges', () => {
  it('is namespaced with the limits short name, printed with CREATED AT', () => {
    expect(limitRangesResource).toMatchObject({ kind: 'LimitRange', plural: 'limitranges', namespaced: true, shortNames: ['limits'], tableAge: false });
    expect(cells(limitRangesResource, lr())).toEqual({ 'Created At': '2024-01-01T00:00:00Z' });
  });

  it('defaults a Container item: default from max, defaultRequest from default then min', () => {
    const obj = lr({ type: 'Container', max: { cpu: '1', memory: '1Gi' }, min: { memory: '64Mi', 'ephemeral-storage': '1Gi' }, default: { memory: '0.5Gi' } }, { type: 'Pod', max: { cpu: '2' } });
    expect(create(limitRangesResource, obj)).toEqual([]);
    expect(obj.spec?.limits?.[0]).toEqual({
      type: 'Container',
      max: { cpu: '1', memory: '1Gi' },
      min: { memory: '64Mi', 'ephemeral-storage': '1Gi' },
      default: { cpu: '1', memory: '512Mi' },
      defaultRequest: { cpu: '1', memory: '512Mi', 'ephemeral-storage': '1Gi' },
    });
    expect(obj.spec?.limits?.[1]).toEqual({ type: 'Pod', max: { cpu: '2' } });
  });

  it('validates as ValidateLimitRange', () => {
    expect(messages(create(limitRangesResource, lr({ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }, { type: 'Container' }, { type: 'Pod', default: { cpu: '1' } }, { type: 'Node' }, { type: 'PersistentVolumeClaim' })))).toEqual([
      'spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1',
      'spec.limits[0].defaultRequest[cpu]: Invalid value: "1": min value 2 is greater than default request value 1',
      'spec.limits[0].default[cpu]: Invalid value: "2": min value 2 is greater than default value 1',
      'spec.limits[1].type: Duplicate value: "Container"',
      "spec.limits[2].default: Forbidden: may not be specified when `type` is 'Pod'",
      'spec.limits[3].type: Invalid value: "Node": must be a standard limit type or fully qualified',
      'spec.limits[4].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
    ]);
    expect(messages(create(limitRangesResource, lr({ type: 'Container', max: { gpu: '1' }, maxLimitRequestRatio: { cpu: '0.5' } })))).toEqual([
      'spec.limits[0].max[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
      'spec.limits[0].max[gpu]: Invalid value: "gpu": must be a standard resource for containers',
      // Defaulting copied max into default and defaultRequest before validation, as kube's does.
      'spec.limits[0].default[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
      'spec.limits[0].default[gpu]: Invalid value: "gpu": must be a standard resource for containers',
      'spec.limits[0].defaultRequest[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
      'spec.limits[0].defaultRequest[gpu]: Invalid value: "gpu": must be a standard resource for containers',
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1',
    ]);
  });
});
