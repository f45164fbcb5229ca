import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../types';
import { omitEmptyNormalizer } from './go-omitempty';

describe('omitEmptyNormalizer (what Go\'s JSON of a decoded built-in object leaves)', () => {
  it('drops omitempty zeros, keeps pointers and fields without omitempty, recurses into lists and maps', () => {
    const normalize = omitEmptyNormalizer('apps/v1', 'Deployment');
    const d: JsonObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', labels: {}, finalizers: [], generation: 0 },
      spec: {
        replicas: 0,
        paused: false,
        minReadySeconds: 0,
        revisionHistoryLimit: null,
        template: {
          metadata: { labels: { app: 'd' } },
          spec: {
            hostNetwork: false,
            imagePullSecrets: [],
            containers: [{ name: 'c', image: '', args: [], ports: [{ containerPort: 80, hostPort: 0, name: '' }], resources: { limits: {} } }],
            volumes: [{ name: 'v', emptyDir: { medium: '' } }],
          },
        },
      },
      status: { replicas: 0, unavailableReplicas: 0, collisionCount: 0, conditions: [{ type: 'Available', status: 'True', reason: '', lastTransitionTime: null }] },
    };
    normalize?.(d);
    expect(d).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: {
        replicas: 0,
        template: {
          metadata: { labels: { app: 'd' } },
          spec: { containers: [{ name: 'c', ports: [{ containerPort: 80 }], resources: {} }], volumes: [{ name: 'v', emptyDir: {} }] },
        },
      },
      status: { collisionCount: 0, conditions: [{ type: 'Available', status: 'True', lastTransitionTime: null }] },
    });
  });

  it('keeps zeros of fields without omitempty (a ConfigMap\'s immutable pointer, a ServicePort\'s port)', () => {
    const cm: JsonObject = { metadata: { name: 'c' }, immutable: false, data: {} };
    omitEmptyNormalizer('v1', 'ConfigMap')?.(cm);
    expect(cm).toEqual({ metadata: { name: 'c' }, immutable: false });
    const svc: JsonObject = { metadata: { name: 's' }, spec: { clusterIP: '', ports: [{ port: 0, targetPort: 0, nodePort: 0 }] } };
    omitEmptyNormalizer('v1', 'Service')?.(svc);
    expect(svc).toEqual({ metadata: { name: 's' }, spec: { ports: [{ port: 0, targetPort: 0 }] } });
  });

  it('has nothing to say about kinds Go does not type', () => {
    expect(omitEmptyNormalizer('example.com/v1', 'Widget')).toBeUndefined();
  });
});
