import type { UserInfo } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import { parseRequestInfo } from '../request-info';
import { BOOTSTRAP_FLOW_SCHEMAS, BOOTSTRAP_PRIORITY_LEVELS } from './flowcontrol.bootstrap';
import { FlowControl } from './flow-control';
import { TINY_LEVEL, TINY_SCHEMA } from './flowcontrol.testing';

const info = (method: string, path: string) => parseRequestInfo(method, path, false);
const user = (name: string, ...groups: string[]): UserInfo => ({ name, groups: [...groups, 'system:authenticated'] });

function classify(fc: FlowControl, u: UserInfo, method: string, url: string): string {
  const s = fc.classify(u, info(method, url));
  return `${s.name}/${s.level.name}`;
}

describe('FlowControl with kube\'s bootstrap configuration', () => {
  const fc = new FlowControl({ serverConcurrencyLimit: 600, requestWaitLimitMs: 15_000 });

  it('classifies by matching precedence, subjects and rules as kube does', () => {
    expect(classify(fc, user('admin', 'system:masters'), 'GET', '/api/v1/namespaces')).toBe('exempt/exempt');
    expect(classify(fc, { name: 'system:anonymous', groups: ['system:unauthenticated'] }, 'GET', '/healthz')).toBe('probes/exempt');
    expect(classify(fc, user('alice'), 'GET', '/readyz')).toBe('probes/exempt');
    expect(classify(fc, user('alice'), 'GET', '/api/v1/namespaces/dev/pods')).toBe('global-default/global-default');
    expect(classify(fc, user('alice'), 'GET', '/version')).toBe('global-default/global-default');
    expect(classify(fc, user('system:serviceaccount:kube-system:foo', 'system:serviceaccounts'), 'GET', '/api/v1/pods')).toBe('kube-system-service-accounts/workload-high');
    expect(classify(fc, user('system:serviceaccount:dev:foo', 'system:serviceaccounts'), 'GET', '/api/v1/pods')).toBe('service-accounts/workload-low');
    // A namespace that merely starts like kube-system is not kube-system.
    expect(classify(fc, user('system:serviceaccount:kube-system-2:foo', 'system:serviceaccounts'), 'GET', '/api/v1/pods')).toBe('service-accounts/workload-low');
    expect(classify(fc, user('system:kube-controller-manager'), 'PUT', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kcm')).toBe('system-leader-election/leader-election');
    expect(classify(fc, user('system:kube-controller-manager'), 'GET', '/api/v1/pods')).toBe('kube-controller-manager/workload-high');
    expect(classify(fc, user('system:node:n1', 'system:nodes'), 'PATCH', '/api/v1/nodes/n1/status')).toBe('system-node-high/node-high');
    expect(classify(fc, user('system:node:n1', 'system:nodes'), 'GET', '/api/v1/pods')).toBe('system-nodes/system');
    // Leases are namespaced: a cluster-scoped list of them does not match the node-high lease rule (clusterScope false).
    expect(classify(fc, user('system:node:n1', 'system:nodes'), 'GET', '/apis/coordination.k8s.io/v1/leases')).toBe('system-nodes/system');
  });

  it('computes the flow from the distinguisher: ByUser per user, ByNamespace per namespace', () => {
    const a = fc.classify(user('alice'), info('GET', '/api/v1/pods'));
    expect(a.flowHash(user('alice'), info('GET', '/api/v1/pods'))).toBe(a.flowHash(user('alice'), info('GET', '/api/v1/namespaces/x/pods')));
    expect(a.flowHash(user('alice'), info('GET', '/api/v1/pods'))).not.toBe(a.flowHash(user('bob'), info('GET', '/api/v1/pods')));
    const kcm = user('system:kube-controller-manager');
    const s = fc.classify(kcm, info('GET', '/api/v1/namespaces/a/pods'));
    expect(s.name).toBe('kube-controller-manager');
    expect(s.flowHash(kcm, info('GET', '/api/v1/namespaces/a/pods'))).not.toBe(s.flowHash(kcm, info('GET', '/api/v1/namespaces/b/pods')));
  });

  it('splits the server concurrency limit by nominal concurrency shares (ceil(600 × shares / 245))', () => {
    expect(fc.level('global-default')?.nominalConcurrencyLimit).toBe(Math.ceil((600 * 20) / 245));
    expect(fc.level('catch-all')?.nominalConcurrencyLimit).toBe(Math.ceil((600 * 5) / 245));
    expect(fc.level('workload-low')?.nominalConcurrencyLimit).toBe(Math.ceil((600 * 100) / 245));
    expect(fc.level('exempt')?.exempt).toBe(true);
    // The queue set runs on the current limit, which borrowing keeps between the lower and upper limits.
    const catchAll = fc.level('catch-all');
    expect([catchAll?.minCL, catchAll?.maxCL]).toEqual([13, 13 + 600]);
    expect(catchAll?.queueSet?.concurrencyLimit).toBe(catchAll?.currentCL);
    // workload-low lends 90% of its 245 seats: round(0.9 × 245) = 221, its lower limit 24; global-default may borrow without limit.
    expect(fc.level('workload-low')?.minCL).toBe(245 - 221);
    expect(fc.level('global-default')?.maxCL).toBe(49 + 600);
    // kube's max seats of one request: max(1, min(ceil(15% of nominal), nominal / handSize)).
    expect(fc.level('global-default')?.maxSeats).toBe(Math.min(Math.ceil(49 * 0.15), Math.trunc(49 / 6)));
    expect(fc.level('catch-all')?.maxSeats).toBe(0);
  });
});

describe('FlowControl.configure', () => {
  it('uses a new schema set at once, with the objects\' uids, and defaults them', () => {
    const fc = new FlowControl({ serverConcurrencyLimit: 600, requestWaitLimitMs: 15_000 });
    const before = fc.generation;
    fc.configure([...BOOTSTRAP_FLOW_SCHEMAS, TINY_SCHEMA], [...BOOTSTRAP_PRIORITY_LEVELS, TINY_LEVEL]);
    expect(fc.generation).toBe(before + 1);
    const s = fc.classify(user('flooder'), info('GET', '/api/v1/namespaces'));
    expect([s.name, s.uid, s.level.name, s.level.uid]).toEqual(['tiny', 'tiny-fs', 'tiny', 'tiny-pl']);
    expect(s.level.nominalConcurrencyLimit).toBe(Math.ceil(600 / 246));
    // Non-resource requests are not in its rules: the next schema takes them.
    expect(fc.classify(user('flooder'), info('GET', '/version')).name).toBe('global-default');
  });

  it('skips a FlowSchema whose priority level does not exist, and supplies the mandatory objects when missing', () => {
    const fc = new FlowControl({ serverConcurrencyLimit: 600, requestWaitLimitMs: 15_000 });
    fc.configure([TINY_SCHEMA], []);
    expect(fc.classify(user('flooder'), info('GET', '/api/v1/namespaces')).name).toBe('catch-all');
    expect(fc.classify(user('admin', 'system:masters'), info('GET', '/api/v1/namespaces')).level.exempt).toBe(true);
    // Only the mandatory levels share the limit now: catch-all holds every seat.
    expect(fc.level('catch-all')?.nominalConcurrencyLimit).toBe(600);
    expect(fc.level('global-default')).toBeUndefined();
  });
});
