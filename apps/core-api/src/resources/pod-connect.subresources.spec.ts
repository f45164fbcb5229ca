import { describe, expect, it } from 'vitest';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { invalidLogOptions, validateContainer, validateLogOptions } from './pod-connect.subresources';

const pod = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' }, spec }) as KubeObject;
const c = (name: string): { name: string; image: string } => ({ name, image: 'busybox' });

function refusal(fn: () => unknown): { code: number; message: string } {
  try {
    fn();
  } catch (err) {
    if (isStatusError(err)) return { code: err.code, message: err.status.message ?? '' };
    throw err;
  }
  throw new Error('not refused');
}

describe('pod connect subresources', () => {
  it('picks the only container and words kube validateContainer refusals', () => {
    expect(validateContainer('', pod({ containers: [c('a')] }))).toBe('a');
    expect(validateContainer('init', pod({ initContainers: [c('init')], containers: [c('a')] }))).toBe('init');
    expect(refusal(() => validateContainer('', pod({ containers: [] })))).toEqual({ code: 400, message: 'a container name must be specified for pod p' });
    // VisitContainers order: init, regular, ephemeral.
    expect(refusal(() => validateContainer('', pod({ initContainers: [c('i')], containers: [c('a'), c('b')], ephemeralContainers: [c('e')] })))).toEqual({ code: 400, message: 'a container name must be specified for pod p, choose one of: [i a b e]' });
    expect(refusal(() => validateContainer('x', pod({ containers: [c('a')] })))).toEqual({ code: 400, message: 'container x is not valid for pod p' });
  });

  it('validates PodLogOptions as kube ValidatePodLogOptions, with Go field paths in the 422', () => {
    expect(validateLogOptions(new URLSearchParams('tailLines=0&limitBytes=1&sinceSeconds=1'))).toEqual([]);
    const errs = validateLogOptions(new URLSearchParams('tailLines=-1&limitBytes=0&sinceSeconds=0'));
    expect(invalidLogOptions('p', errs).status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'PodLogOptions "p" is invalid: [tailLines: Invalid value: -1: must be greater than or equal to 0, limitBytes: Invalid value: 0: must be greater than 0, sinceSeconds: Invalid value: 0: must be greater than 0]',
      details: { name: 'p', kind: 'PodLogOptions' },
    });
    const both = validateLogOptions(new URLSearchParams('sinceSeconds=5&sinceTime=2024-01-01T00:00:00Z'));
    expect(invalidLogOptions('p', both).status.message).toBe('PodLogOptions "p" is invalid: : Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified');
  });
});
