import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '@kube/apimachinery';
import type { Storage } from '@kube/storage';
import { TestBackends } from '../proxy/backend.testing';
import { RoutingTable } from '../routing/routing.table';
import { ApiServerPresence, type PresenceOptions } from './apiserver-presence.reconciler';

const OPTIONS: PresenceOptions = { identityLeaseDurationSeconds: 3600, identityLeaseRenewIntervalMs: 10_000, identityLeaseGcPeriodMs: 3600_000, masterLeaseTtlSeconds: 15, masterLeaseIntervalMs: 10_000 };
const BASE = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases';

/** A core-api stand-in keeping Leases in memory with resourceVersions, recording who asked what. */
class FakeLeases {
  readonly leases = new Map<string, KubeObject>();
  readonly seen: string[] = [];
  private rv = 1;

  put(lease: KubeObject): void {
    this.leases.set(lease.metadata.name as string, { ...lease, metadata: { ...lease.metadata, resourceVersion: String(++this.rv) } });
  }

  handle = (req: IncomingMessage, res: ServerResponse): void => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'https://x');
      const name = url.pathname.slice(BASE.length + 1);
      this.seen.push(`${req.method} ${name || '(list)'} as ${String(req.headers['x-remote-user'])}`);
      const send = (code: number, obj: unknown): void => void res.writeHead(code, { 'Content-Type': 'application/json' }).end(JSON.stringify(obj));
      const status = (code: number, reason: string): void => send(code, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message: reason });
      const current = this.leases.get(name);
      if (req.method === 'GET' && !name) return send(200, { kind: 'LeaseList', items: [...this.leases.values()].filter((l) => l.metadata.labels?.['apiserver.kubernetes.io/identity'] === 'kube-apiserver') });
      if (req.method === 'GET') return current ? send(200, current) : status(404, 'NotFound');
      const obj = body ? (JSON.parse(body) as KubeObject) : undefined;
      if (req.method === 'POST' && obj) {
        if (this.leases.has(obj.metadata.name as string)) return status(409, 'AlreadyExists');
        this.put(obj);
        return send(201, this.leases.get(obj.metadata.name as string));
      }
      if (req.method === 'PUT' && obj) {
        if (!current) return status(404, 'NotFound');
        if (obj.metadata.resourceVersion !== current.metadata.resourceVersion) return status(409, 'Conflict');
        this.put(obj);
        return send(200, this.leases.get(name));
      }
      if (req.method === 'DELETE') {
        if (!current) return status(404, 'NotFound');
        this.leases.delete(name);
        return send(200, current);
      }
      status(405, 'MethodNotAllowed');
    });
  };
}

describe('ApiServerPresence against core-api', () => {
  let backends: TestBackends;
  let fake: FakeLeases;
  let presence: ApiServerPresence;

  beforeEach(async () => {
    backends = await TestBackends.create();
    fake = new FakeLeases();
    const target = await backends.start(fake.handle);
    const routes = new RoutingTable();
    routes.setBackends(new Map([['coordination.k8s.io/v1', 'core-api']]), new Map([['core-api', { ...target, name: 'core-api' }]]));
    // The identity Lease goes through core-api only: the etcd side (master leases) is not used here.
    presence = new ApiServerPresence({} as Storage, routes, backends.agents, OPTIONS);
    presence.leaseName = 'apiserver-abc';
    presence.holderIdentity = 'apiserver-abc_1';
  });

  afterEach(async () => {
    await backends.close();
  });

  it('creates its Lease as system:kube-apiserver, then renews it with one PUT each time', async () => {
    await presence.renewIdentityLease();
    await presence.renewIdentityLease();
    expect(fake.seen).toEqual(['GET apiserver-abc as system:kube-apiserver', 'POST (list) as system:kube-apiserver', 'PUT apiserver-abc as system:kube-apiserver']);
    expect(fake.leases.get('apiserver-abc')?.spec).toMatchObject({ holderIdentity: 'apiserver-abc_1', leaseDurationSeconds: 3600 });
  });

  it('takes a Lease over that someone else changed or deleted meanwhile (kube: a restarted apiserver of the same host)', async () => {
    await presence.renewIdentityLease();
    const stored = fake.leases.get('apiserver-abc') as KubeObject;
    fake.put({ ...stored, spec: { ...(stored.spec as object), holderIdentity: 'apiserver-abc_other' } });
    await presence.renewIdentityLease();
    expect(fake.leases.get('apiserver-abc')?.spec).toMatchObject({ holderIdentity: 'apiserver-abc_1' });
    fake.leases.delete('apiserver-abc');
    await presence.renewIdentityLease();
    expect(fake.leases.get('apiserver-abc')?.spec).toMatchObject({ holderIdentity: 'apiserver-abc_1' });
    expect(fake.seen.slice(1)).toEqual([
      'POST (list) as system:kube-apiserver',
      'PUT apiserver-abc as system:kube-apiserver', // 409: changed by someone else
      'GET apiserver-abc as system:kube-apiserver',
      'PUT apiserver-abc as system:kube-apiserver',
      'PUT apiserver-abc as system:kube-apiserver', // 404: deleted
      'GET apiserver-abc as system:kube-apiserver',
      'POST (list) as system:kube-apiserver',
    ]);
  });

  it('deletes identity Leases expired past their duration, and neither live ones nor unlabelled ones', async () => {
    const lease = (name: string, renewedAgoMs: number, labelled = true): KubeObject => ({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name, namespace: 'kube-system', ...(labelled ? { labels: { 'apiserver.kubernetes.io/identity': 'kube-apiserver' } } : {}) },
      spec: { holderIdentity: `${name}_x`, leaseDurationSeconds: 3600, renewTime: new Date(Date.now() - renewedAgoMs).toISOString() },
    });
    fake.put(lease('apiserver-gone', 3601_000));
    fake.put(lease('apiserver-live', 3599_000));
    fake.put(lease('other-gone', 7200_000, false));
    await presence.collectExpiredIdentityLeases();
    expect([...fake.leases.keys()].sort()).toEqual(['apiserver-live', 'other-gone']);
  });
});
