/**
 * Two core-api replicas started together on a fresh etcd (issue 30): both bootstrap controllers create the
 * system namespaces, PriorityClasses and the `kubernetes` Service with its fixed clusterIP at once. The one that
 * loses a race must take the winner's object as done, not fail its start (kube's bootstrap controller retries).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startEtcd, type EtcdProcess } from '@kube/testing';
import { type CoreApiHarness, startCoreApi } from '../support/core-api.harness';

let etcd: EtcdProcess | undefined;
const replicas: CoreApiHarness[] = [];

afterAll(async () => {
  for (const r of replicas) await r.stop();
  await etcd?.stop();
});

describe('core-api replicas starting together', () => {
  it('both start, and the cluster has one kubernetes Service', async () => {
    etcd = await startEtcd();
    const started = await Promise.allSettled([startCoreApi({ etcd, controllerManager: false }), startCoreApi({ etcd, controllerManager: false })]);
    for (const s of started) if (s.status === 'fulfilled') replicas.push(s.value);
    expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'started'))).toEqual(['started', 'started']);
    for (const r of replicas) {
      const svc = await r.request('GET', '/api/v1/namespaces/default/services/kubernetes');
      expect(svc.status).toBe(200);
      expect(svc.json<{ spec: { clusterIP: string } }>().spec.clusterIP).toBe('10.96.0.1');
    }
  }, 120_000);
});
