import { describe, expect, it } from 'vitest';
import { computeHash, deploymentProgressing, equalIgnoreHash, maxSurge, maxUnavailable, resolveFenceposts, setNewReplicaSetAnnotations, type Deployment, type ReplicaSet } from './deployment.util';

const d = (replicas: number, maxSurge?: number | string, maxUnavailable?: number | string, type = 'RollingUpdate'): Deployment => ({
  metadata: { name: 'web', annotations: { team: 'a', 'kubectl.kubernetes.io/last-applied-configuration': '{}' } },
  spec: { replicas, strategy: { type, rollingUpdate: { maxSurge, maxUnavailable } } },
});

describe('deployment util', () => {
  it('resolves fenceposts as kube: surge rounds up, unavailable down, never both 0', () => {
    expect(resolveFenceposts(d(10, '25%', '25%'))).toEqual({ surge: 3, unavailable: 2 });
    expect(resolveFenceposts(d(1, 0, 0))).toEqual({ surge: 0, unavailable: 1 });
    expect(resolveFenceposts(d(3, 1, '0%'))).toEqual({ surge: 1, unavailable: 0 });
    expect(maxUnavailable(d(2, 0, 5))).toBe(2);
    expect(maxUnavailable(d(0))).toBe(0);
    expect(maxSurge(d(4, 2, 1, 'Recreate'))).toBe(0);
  });

  it('compares and hashes templates without the pod-template-hash label', () => {
    const t = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    const hashed = { metadata: { labels: { app: 'web', 'pod-template-hash': 'abc' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    expect(equalIgnoreHash(t, hashed)).toBe(true);
    expect(equalIgnoreHash(t, { ...t, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } })).toBe(false);
    expect(computeHash(t, undefined)).toBe(computeHash(hashed, undefined));
    expect(computeHash(t, undefined)).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(computeHash(t, 1)).not.toBe(computeHash(t, undefined));
    // What kubectl rollout undo sends back after Go decoded the ReplicaSet's template: the same template.
    const roundTripped = { metadata: { creationTimestamp: null, labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx', resources: {} }] } };
    expect(equalIgnoreHash(roundTripped as never, hashed)).toBe(true);
    expect(computeHash(roundTripped as never, undefined)).toBe(computeHash(t, undefined));
  });

  it("copies the deployment's annotations, sets the revision and keeps the old one in revision-history", () => {
    const rs: ReplicaSet = { metadata: { name: 'web-1', annotations: { 'deployment.kubernetes.io/revision': '1' } } };
    expect(setNewReplicaSetAnnotations(d(3), rs, 3, true)).toBe(true);
    expect(rs.metadata.annotations).toEqual({ team: 'a', 'deployment.kubernetes.io/revision': '3', 'deployment.kubernetes.io/revision-history': '1' });
    const fresh: ReplicaSet = { metadata: { name: 'web-2' } };
    setNewReplicaSetAnnotations(d(4, 1), fresh, 1, false);
    expect(fresh.metadata.annotations).toMatchObject({ 'deployment.kubernetes.io/revision': '1', 'deployment.kubernetes.io/desired-replicas': '4', 'deployment.kubernetes.io/max-replicas': '5' });
  });

  it('counts progress as kube: more updated, ready or available replicas, or fewer old ones', () => {
    const dep: Deployment = { ...d(3), status: { replicas: 4, updatedReplicas: 1, readyReplicas: 3, availableReplicas: 3 } };
    expect(deploymentProgressing(dep, { replicas: 4, updatedReplicas: 1, readyReplicas: 3, availableReplicas: 3 })).toBe(false);
    expect(deploymentProgressing(dep, { replicas: 3, updatedReplicas: 1, readyReplicas: 3, availableReplicas: 3 })).toBe(true);
    expect(deploymentProgressing(dep, { replicas: 4, updatedReplicas: 2, readyReplicas: 3, availableReplicas: 3 })).toBe(true);
  });
});
