import { describe, expect, it } from 'vitest';
import type { BackendTarget } from '../proxy/backend.target';
import { RoutingTable } from './routing.table';

const target = (port: number): BackendTarget => ({ name: 'core-api', url: new URL(`https://127.0.0.1:${port}`) });

describe('RoutingTable', () => {
  it('routes local, remote and backend group/versions, and spreads requests over live instances', () => {
    const routes = new RoutingTable();
    routes.setLocal(['apiregistration.k8s.io/v1']);
    const a = target(1);
    const b = target(2);
    routes.setBackends(new Map([['/v1', 'core-api']]), new Map([['core-api', { ...a, instances: [a, b] }]]));
    routes.setRemote('wardle.test/v1', { kind: 'unavailable', message: 'down' });
    expect(routes.lookup('apiregistration.k8s.io', 'v1')).toEqual({ kind: 'local' });
    expect(routes.lookup('wardle.test', 'v1')).toEqual({ kind: 'unavailable', message: 'down' });
    expect(routes.lookup('nope.test', 'v1')).toBeUndefined();
    const ports = Array.from({ length: 4 }, () => {
      const r = routes.lookup('', 'v1');
      return r?.kind === 'proxy' ? r.target.url.port : '';
    });
    expect(new Set(ports)).toEqual(new Set(['1', '2']));
  });

  it('rotates each service over its own instances, whatever the requests for other services in between', () => {
    const routes = new RoutingTable();
    const core = [target(1), target(2)];
    const ext = [target(3), target(4)].map((t) => ({ ...t, name: 'extensions' }));
    routes.setBackends(new Map([['/v1', 'core-api'], ['apiextensions.k8s.io/v1', 'extensions']]), new Map([['core-api', { ...core[0], instances: core }], ['extensions', { ...ext[0], instances: ext }]]));
    const port = (group: string): string => {
      const r = routes.lookup(group, 'v1');
      return r?.kind === 'proxy' ? r.target.url.port : '';
    };
    // Requests alternating between two services: each service still alternates between its replicas.
    const seen = Array.from({ length: 4 }, () => [port(''), port('apiextensions.k8s.io')]);
    expect(new Set(seen.map(([c]) => c))).toEqual(new Set(['1', '2']));
    expect(new Set(seen.map(([, e]) => e))).toEqual(new Set(['3', '4']));
  });

  it('routes a group/version added ahead of discovery (an established CRD) until the next refresh replaces the set', () => {
    const routes = new RoutingTable();
    const ext: BackendTarget = { name: 'extensions', url: new URL('https://127.0.0.1:3') };
    routes.setBackends(new Map([['apiextensions.k8s.io/v1', 'extensions']]), new Map([['extensions', ext]]));
    expect(routes.lookup('stable.example.com', 'v1')).toBeUndefined();
    routes.addOwner('stable.example.com/v1', 'extensions');
    expect(routes.lookup('stable.example.com', 'v1')).toEqual({ kind: 'proxy', target: ext });
    // An owner from discovery is never overridden.
    routes.setBackends(new Map([['stable.example.com/v1', 'other']]), new Map([['extensions', ext]]));
    routes.addOwner('stable.example.com/v1', 'extensions');
    expect(routes.lookup('stable.example.com', 'v1')).toBeUndefined();
  });

  it('wakes a request waiting for a group/version when its route is added, or when the refresh it waits on ends', async () => {
    const routes = new RoutingTable();
    const ext: BackendTarget = { name: 'extensions', url: new URL('https://127.0.0.1:3') };
    routes.setBackends(new Map(), new Map([['extensions', ext]]));
    let refreshDone = (): void => undefined;
    const refresh = new Promise<void>((r) => (refreshDone = r));
    let woken = false;
    const waiting = routes.routed('stable.example.com', 'v1', refresh).then(() => (woken = true));
    routes.addOwner('other.example.com/v1', 'extensions');
    await new Promise((r) => setImmediate(r));
    expect(woken).toBe(false);
    routes.addOwner('stable.example.com/v1', 'extensions');
    await waiting;
    expect(routes.lookup('stable.example.com', 'v1')).toEqual({ kind: 'proxy', target: ext });
    // Nothing routes it: the refresh's end lets the request go on (to a 404).
    const unrouted = routes.routed('nothing.example.com', 'v1', refresh);
    refreshDone();
    await unrouted;
    expect(routes.lookup('nothing.example.com', 'v1')).toBeUndefined();
  });
});
