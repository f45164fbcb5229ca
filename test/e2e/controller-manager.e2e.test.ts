import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { isDeepStrictEqual } from 'node:util';
import type { INestApplicationContext } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SampleApiServerModule } from '../../apps/sample-apiserver/src/sample-apiserver.module';
import { bootAggregatedServer } from '../support/aggregated-server.boot';
import { startControllerManager, type ControllerManagerHandle } from '../support/controller-manager.boot';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { until } from '../support/until';

// Tests here wait up to a minute for the stack to converge (until(…, 60_000)); on a loaded CI machine such a wait
// and the rest of the test together outgrow the default 60 s.
vi.setConfig({ testTimeout: 180_000 });

const WIDGETS_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.gc.example.com' },
  spec: {
    group: 'gc.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};

interface Meta {
  metadata: { name: string; uid: string; namespace?: string; finalizers?: string[]; ownerReferences?: Array<{ uid: string }>; deletionTimestamp?: string };
}

const owned = (name: string, namespace: string, owner: { apiVersion: string; kind: string; name: string; uid: string }, block = false): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, ownerReferences: [{ ...owner, ...(block ? { blockOwnerDeletion: true } : {}) }] }, data: { a: 'b' } });

describe.each(['1.27', '1.33'])('the controller-manager with kubectl %s', (version) => {
  let stack: StackHarness;
  let wardle: INestApplicationContext;
  const { k, ok } = kubectlSession(version, () => stack.kubeconfig);
  const ns = `gc-${version.replace('.', '')}`;

  const get = async <T = Meta>(path: string): Promise<{ status: number; body: T }> => {
    const r = await stack.request('GET', path);
    return { status: r.status, body: r.status === 200 ? r.json<T>() : (undefined as T) };
  };
  const gone = (path: string): Promise<boolean> => until(async () => (await get(path)).status === 404, 30_000);
  const ownerCm = async (name: string): Promise<{ apiVersion: string; kind: string; name: string; uid: string }> => {
    await ok(['create', 'configmap', name, '-n', ns]);
    const { body } = await get(`/api/v1/namespaces/${ns}/configmaps/${name}`);
    return { apiVersion: 'v1', kind: 'ConfigMap', name, uid: body.metadata.uid };
  };

  beforeAll(async () => {
    stack = await startStack();
    wardle = await bootAggregatedServer(stack, { component: 'sample-apiserver', serviceDnsName: 'wardle-server.kube-system.svc', module: (options) => SampleApiServerModule.forRoot(options) });
    await ok(['create', 'namespace', ns]);
    await ok(['apply', '-f', '-'], JSON.stringify(WIDGETS_CRD));
    await ok(['wait', '--for=condition=Established', 'crd/widgets.gc.example.com', '--timeout=30s']);
    expect(await until(async () => (await k(['get', 'apiservice', 'v1alpha1.wardle.example.com'])).stdout.includes('True'), 30_000)).toBe(true);
  });

  afterAll(async () => {
    await wardle?.close();
    await stack?.stop();
  });

  it('deletes the dependents of a deleted owner in the background', async () => {
    const owner = await ownerCm('bg-owner');
    for (const d of ['bg-a', 'bg-b']) await ok(['create', '-f', '-'], owned(d, ns, owner));
    expect(await ok(['delete', 'configmap', 'bg-owner', '-n', ns])).toContain('deleted');
    for (const d of ['bg-a', 'bg-b']) expect(await gone(`/api/v1/namespaces/${ns}/configmaps/${d}`), d).toBe(true);
  });

  it('--cascade=foreground deletes the blocking dependents before the owner', async () => {
    const owner = await ownerCm('fg-owner');
    await ok(['create', '-f', '-'], owned('fg-a', ns, owner, true));
    await ok(['create', '-f', '-'], owned('fg-b', ns, owner, true));
    // kubectl waits until the owner is gone: by then the blocking dependents must be gone too.
    expect(await ok(['delete', 'configmap', 'fg-owner', '-n', ns, '--cascade=foreground', '--timeout=60s'])).toContain('deleted');
    for (const d of ['fg-a', 'fg-b']) expect((await get(`/api/v1/namespaces/${ns}/configmaps/${d}`)).status, d).toBe(404);
  });

  it('--cascade=orphan keeps the dependents without the ownerReference', async () => {
    const owner = await ownerCm('or-owner');
    await ok(['create', '-f', '-'], owned('or-a', ns, owner));
    expect(await ok(['delete', 'configmap', 'or-owner', '-n', ns, '--cascade=orphan', '--timeout=60s'])).toContain('deleted');
    expect(await gone(`/api/v1/namespaces/${ns}/configmaps/or-owner`)).toBe(true);
    const dep = await get(`/api/v1/namespaces/${ns}/configmaps/or-a`);
    expect(dep.status).toBe(200);
    expect(dep.body.metadata.ownerReferences ?? []).toEqual([]);
  });

  it('sets the orphan and foregroundDeletion finalizers as DELETE asks', async () => {
    await ok(['create', 'configmap', 'held', '-n', ns]);
    await ok(['patch', 'configmap', 'held', '-n', ns, '--type=merge', '-p', '{"metadata":{"finalizers":["example.com/hold"]}}']);
    const r = await stack.request('DELETE', `/api/v1/namespaces/${ns}/configmaps/held`, { body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' }) });
    expect(r.status).toBe(200);
    expect(r.json<Meta>().metadata.finalizers).toEqual(['example.com/hold', 'foregroundDeletion']);
    const both = await stack.request('DELETE', `/api/v1/namespaces/${ns}/configmaps/held`, { body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan', orphanDependents: true }) });
    expect(both.status).toBe(422);
    await ok(['patch', 'configmap', 'held', '-n', ns, '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers/0"}]']);
    expect(await gone(`/api/v1/namespaces/${ns}/configmaps/held`)).toBe(true);
  });

  it('collects ConfigMaps owned by a custom resource and dependents of an owner that never existed', async () => {
    await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'gc.example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: ns } }));
    const { body } = await get(`/apis/gc.example.com/v1/namespaces/${ns}/widgets/w1`);
    await ok(['create', '-f', '-'], owned('cr-a', ns, { apiVersion: 'gc.example.com/v1', kind: 'Widget', name: 'w1', uid: body.metadata.uid }));
    await ok(['create', '-f', '-'], owned('dangling', ns, { apiVersion: 'v1', kind: 'ConfigMap', name: 'nobody', uid: '00000000-0000-0000-0000-000000000001' }));
    expect(await gone(`/api/v1/namespaces/${ns}/configmaps/dangling`)).toBe(true);
    expect((await get(`/api/v1/namespaces/${ns}/configmaps/cr-a`)).status).toBe(200);
    await ok(['delete', 'widget', 'w1', '-n', ns]);
    expect(await gone(`/api/v1/namespaces/${ns}/configmaps/cr-a`)).toBe(true);
  });

  it('collects the dependents of custom resources that went with their CRD', async () => {
    const crd = { ...WIDGETS_CRD, metadata: { name: 'gadgets.gone.example.com' }, spec: { ...WIDGETS_CRD.spec, group: 'gone.example.com', names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' } } };
    await ok(['apply', '-f', '-'], JSON.stringify(crd));
    await ok(['wait', '--for=condition=Established', 'crd/gadgets.gone.example.com', '--timeout=30s']);
    const owners = [];
    for (const name of ['g1', 'g2']) {
      await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'gone.example.com/v1', kind: 'Gadget', metadata: { name, namespace: ns } }));
      const { body } = await get(`/apis/gone.example.com/v1/namespaces/${ns}/gadgets/${name}`);
      owners.push({ apiVersion: 'gone.example.com/v1', kind: 'Gadget', name, uid: body.metadata.uid });
    }
    for (const [i, owner] of owners.entries()) await ok(['create', '-f', '-'], owned(`of-gadget-${i}`, ns, owner));
    // The collector must know them before the CRD goes (its informer on gadgets has seen both owners).
    expect((await get(`/api/v1/namespaces/${ns}/configmaps/of-gadget-0`)).status).toBe(200);
    await ok(['delete', 'crd', 'gadgets.gone.example.com']);
    for (const i of [0, 1]) expect(await gone(`/api/v1/namespaces/${ns}/configmaps/of-gadget-${i}`)).toBe(true);
  });

  it('keeps a cluster-scoped dependent of a namespaced owner and reports OwnerRefInvalidNamespace', async () => {
    const owner = await ownerCm('ns-owner');
    await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: `gc-invalid-${ns}`, ownerReferences: [owner] }, rules: [] }));
    const reported = await until(async () => {
      const events = JSON.parse((await k(['get', 'events', '-n', 'default', '-o', 'json'])).stdout || '{"items":[]}') as { items: Array<{ reason: string; involvedObject: { name: string }; message: string }> };
      return events.items.some((e) => e.reason === 'OwnerRefInvalidNamespace' && e.involvedObject.name === `gc-invalid-${ns}` && e.message.includes(`does not exist in namespace ""`));
    }, 30_000);
    expect(reported).toBe(true);
    await ok(['delete', 'configmap', 'ns-owner', '-n', ns]);
    // Give the collector time to (wrongly) act, then check it did not.
    await new Promise((r) => setTimeout(r, 2000));
    expect((await get(`/apis/rbac.authorization.k8s.io/v1/clusterroles/gc-invalid-${ns}`)).status).toBe(200);
  });

  it('deleting a namespace removes its ConfigMaps, custom resources and Flunders, with kube\'s conditions while content remains', async () => {
    const doomed = `doomed-${version.replace('.', '')}`;
    await ok(['create', 'namespace', doomed]);
    await ok(['create', 'configmap', 'plain', '-n', doomed]);
    await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'gc.example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: doomed } }));
    await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'f', namespace: doomed }, spec: {} }));
    await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'blocked', namespace: doomed, finalizers: ['example.com/hold'] } }));
    await ok(['delete', 'namespace', doomed, '--wait=false']);
    type Ns = { status?: { phase?: string; conditions?: Array<{ type: string; status: string; reason: string; message: string }> } };
    let conditions: NonNullable<Ns['status']>['conditions'] = [];
    const blocked = await until(async () => {
      conditions = (await get<Ns>(`/api/v1/namespaces/${doomed}`)).body?.status?.conditions ?? [];
      return conditions.some((c) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True');
    }, 30_000);
    expect(blocked, JSON.stringify(conditions)).toBe(true);
    expect(conditions).toEqual(expect.arrayContaining([
      expect.objectContaining({ type: 'NamespaceContentRemaining', status: 'True', reason: 'SomeResourcesRemain', message: 'Some resources are remaining: configmaps. has 1 resource instances' }),
      expect.objectContaining({ type: 'NamespaceFinalizersRemaining', status: 'True', reason: 'SomeFinalizersRemain', message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances' }),
      expect.objectContaining({ type: 'NamespaceDeletionContentFailure', status: 'False', reason: 'ContentDeleted' }),
      expect.objectContaining({ type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered' }),
    ]));
    for (const path of [`/api/v1/namespaces/${doomed}/configmaps/plain`, `/apis/gc.example.com/v1/namespaces/${doomed}/widgets/w`, `/apis/wardle.example.com/v1alpha1/namespaces/${doomed}/flunders/f`]) expect((await get(path)).status, path).toBe(404);
    await ok(['patch', 'configmap', 'blocked', '-n', doomed, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    expect(await gone(`/api/v1/namespaces/${doomed}`)).toBe(true);
  });

  it('keeps ResourceQuota status.used: custom resources and Flunders are released as soon as they are deleted, written by the controller-manager', async () => {
    const quotaNs = `quota-${version.replace('.', '')}`;
    await ok(['create', 'namespace', quotaNs]);
    const hard = 'count/widgets.gc.example.com=1,count/flunders.wardle.example.com=1';
    await ok(['create', 'quota', 'q', `--hard=${hard}`, '-n', quotaNs]);
    type Quota = { status?: { used?: Record<string, string> }; metadata: { managedFields?: Array<{ manager: string; operation: string; subresource?: string }> } };
    const used = async (): Promise<Record<string, string>> => (await get<Quota>(`/api/v1/namespaces/${quotaNs}/resourcequotas/q`)).body?.status?.used ?? {};
    const zero = { 'count/widgets.gc.example.com': '0', 'count/flunders.wardle.example.com': '0' };
    expect(await until(async () => isDeepStrictEqual(await used(), zero), 60_000), JSON.stringify(await used())).toBe(true);
    const widget = (name: string): string => JSON.stringify({ apiVersion: 'gc.example.com/v1', kind: 'Widget', metadata: { name, namespace: quotaNs } });
    const flunder = (name: string): string => JSON.stringify({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name, namespace: quotaNs }, spec: {} });
    await ok(['create', '-f', '-'], widget('w1'));
    await ok(['create', '-f', '-'], flunder('f1'));
    expect(await used()).toEqual({ 'count/widgets.gc.example.com': '1', 'count/flunders.wardle.example.com': '1' });
    expect((await k(['create', '-f', '-'], widget('w2'))).stderr).toContain('exceeded quota: q, requested: count/widgets.gc.example.com=1, used: count/widgets.gc.example.com=1, limited: count/widgets.gc.example.com=1');
    // Deletes are replenished by the quota monitors' watches, long before the 5-minute resync.
    await ok(['delete', 'widget', 'w1', '-n', quotaNs]);
    await ok(['delete', 'flunder', 'f1', '-n', quotaNs]);
    expect(await until(async () => isDeepStrictEqual(await used(), zero), 60_000), JSON.stringify(await used())).toBe(true);
    await ok(['create', '-f', '-'], widget('w2'));
    // status.used was written through the API by kube-controller-manager (its user agent names the manager).
    const fields = (await get<Quota>(`/api/v1/namespaces/${quotaNs}/resourcequotas/q?showManagedFields=true`)).body.metadata.managedFields ?? [];
    expect(fields).toEqual(expect.arrayContaining([expect.objectContaining({ manager: 'kube-controller-manager', operation: 'Update', subresource: 'status' })]));
 }, 240_000);

  it('binds kube\'s resourcequota-controller and certificate-controller roles to the controllers\' identities', async () => {
    const can = async (as: string, ...args: string[]): Promise<string> => (await k(['auth', 'can-i', ...args, `--as=${as}`])).stdout.trim();
    // `sign` on a signer name (kubectl cannot map the signers pseudo-resource): a SubjectAccessReview.
    const signs = async (user: string, signer: string): Promise<boolean> => {
      const groups = user.startsWith('system:serviceaccount:') ? ['system:serviceaccounts', 'system:authenticated'] : ['system:authenticated'];
      const body = JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user, groups, resourceAttributes: { verb: 'sign', group: 'certificates.k8s.io', resource: 'signers', name: signer } } });
      return (await stack.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { body })).json<{ status: { allowed: boolean } }>().status.allowed;
    };
    for (const as of ['system:serviceaccount:kube-system:resourcequota-controller', 'system:kube-controller-manager']) {
      expect(await can(as, 'update', 'resourcequotas', '--subresource=status', '-n', ns), as).toBe('yes');
      expect(await can(as, 'watch', 'widgets.gc.example.com', '-A'), as).toBe('yes');
    }
    expect(await can('system:serviceaccount:kube-system:resourcequota-controller', 'update', 'resourcequotas', '-n', ns)).toBe('no');
    for (const as of ['system:serviceaccount:kube-system:certificate-controller', 'system:kube-controller-manager']) {
      expect(await can(as, 'update', 'certificatesigningrequests', '--subresource=status'), as).toBe('yes');
      expect(await signs(as, 'kubernetes.io/kube-apiserver-client'), as).toBe(true);
    }
    expect(await signs('system:serviceaccount:kube-system:certificate-controller', 'example.com/other')).toBe(false);
    const role = JSON.parse(await ok(['get', 'clusterrole', 'system:controller:resourcequota-controller', '-o', 'json'])) as { rules: unknown[] };
    // kube's PolicyRuleBuilder sorts verbs, groups and resources.
    expect(role.rules).toEqual([
      { verbs: ['list', 'watch'], apiGroups: ['*'], resources: ['*'] },
      { verbs: ['update'], apiGroups: [''], resources: ['resourcequotas/status'] },
      { verbs: ['create', 'patch', 'update'], apiGroups: ['', 'events.k8s.io'], resources: ['events'] },
    ]);
  });

  it('publishes kube-root-ca.crt and the default ServiceAccount in every namespace, and puts them back', async () => {
    const fresh = `fresh-${version.replace('.', '')}`;
    await ok(['create', 'namespace', fresh]);
    const caPem = (await import('node:fs')).readFileSync(stack.pki.caCert, 'utf8');
    expect(await until(async () => (await get<{ data?: Record<string, string> }>(`/api/v1/namespaces/${fresh}/configmaps/kube-root-ca.crt`)).body?.data?.['ca.crt'] === caPem)).toBe(true);
    expect(await until(async () => (await get(`/api/v1/namespaces/${fresh}/serviceaccounts/default`)).status === 200)).toBe(true);
    await ok(['delete', 'configmap', 'kube-root-ca.crt', '-n', fresh]);
    await ok(['delete', 'serviceaccount', 'default', '-n', fresh]);
    expect(await until(async () => (await get(`/api/v1/namespaces/${fresh}/configmaps/kube-root-ca.crt`)).status === 200)).toBe(true);
    expect(await until(async () => (await get(`/api/v1/namespaces/${fresh}/serviceaccounts/default`)).status === 200)).toBe(true);
  });
});

describe('controller-manager leader election and restarts', () => {
  let stack: StackHarness;
  let second: ControllerManagerHandle | undefined;
  let third: ControllerManagerHandle | undefined;
  const { ok } = kubectlSession('1.33', () => stack.kubeconfig);

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await second?.stop();
    await third?.stop();
    await stack?.stop();
  });

  const lease = async (): Promise<{ holderIdentity?: string; leaseTransitions?: number }> =>
    ((await stack.request('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager')).json<{ spec: { holderIdentity?: string } }>().spec ?? {});
  const collected = async (name: string): Promise<boolean> => {
    await ok(['create', 'configmap', `${name}-owner`]);
    const owner = (await stack.request('GET', `/api/v1/namespaces/default/configmaps/${name}-owner`)).json<Meta>();
    await ok(['create', '-f', '-'], owned(`${name}-dep`, 'default', { apiVersion: 'v1', kind: 'ConfigMap', name: `${name}-owner`, uid: owner.metadata.uid }));
    await ok(['delete', 'configmap', `${name}-owner`]);
    return until(async () => (await stack.request('GET', `/api/v1/namespaces/default/configmaps/${name}-dep`)).status === 404, 30_000);
  };

  it('its secure port: health open to anyone; /metrics needs an authenticated caller RBAC allows (delegated authn/authz)', async () => {
    const port = (stack.controllerManager as ControllerManagerHandle).port;
    const ca = readFileSync(stack.pki.caCert);
    const get = (path: string, creds: { cert?: string; key?: string; token?: string } = {}): Promise<{ status: number; body: string }> =>
      new Promise((resolve, reject) => {
        const req = httpsRequest({ host: '127.0.0.1', port, path, ca, cert: creds.cert, key: creds.key, headers: creds.token ? { Authorization: `Bearer ${creds.token}` } : {} }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        });
        req.on('error', reject);
        req.end();
      });
    for (const path of ['/healthz', '/readyz', '/livez']) expect((await get(path)).status, path).toBe(200);
    const anonymous = await get('/metrics');
    expect(anonymous.status).toBe(403);
    expect(JSON.parse(anonymous.body)).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403, message: 'forbidden: User "system:anonymous" cannot get path "/metrics"' });
    expect(JSON.parse((await get('/metrics', { token: 'not-a-token' })).body)).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    const asAdmin = { cert: readFileSync(stack.pki.adminCert, 'utf8'), key: readFileSync(stack.pki.adminKey, 'utf8') };
    const admin = await get('/metrics', asAdmin);
    expect(admin.status).toBe(200);
    // Leadership can come a moment after the port serves (a loaded machine, many controllers to start).
    expect(await until(async () => (await get('/metrics', asAdmin)).body.includes('leader_election_master_status{name="kube-controller-manager"} 1'), 60_000)).toBe(true);
    // A ServiceAccount token (a TokenReview): forbidden until RBAC grants system:monitoring's nonResourceURLs.
    await ok(['create', 'serviceaccount', 'scraper', '-n', 'default']);
    const token = (await ok(['create', 'token', 'scraper', '-n', 'default'])).trim();
    const refused = await get('/metrics', { token });
    expect(JSON.parse(refused.body)).toMatchObject({ code: 403, message: 'forbidden: User "system:serviceaccount:default:scraper" cannot get path "/metrics"' });
    await ok(['create', 'clusterrolebinding', 'scraper-monitoring', '--clusterrole=system:monitoring', '--serviceaccount=default:scraper']);
    // Denials are cached for 10 s, as kube's delegating authorizer does.
    expect(await until(async () => (await get('/metrics', { token })).status === 200, 30_000)).toBe(true);
  });

  it('two instances: only one leads (the Lease names it); stopping the leader hands over', async () => {
    const first = stack.controllerManager as ControllerManagerHandle;
    expect(await until(async () => first.manager.isLeader)).toBe(true);
    second = await startControllerManager(stack.url, stack.pki);
    await new Promise((r) => setTimeout(r, 1500));
    expect(second.manager.isLeader).toBe(false);
    expect((await lease()).holderIdentity).toBe(first.manager.identity);
    await first.stop();
    expect(await until(async () => second?.manager.isLeader ?? false, 30_000)).toBe(true);
    expect((await lease()).holderIdentity).toBe(second.manager.identity);
    expect(await collected('after-handover')).toBe(true);
  });

  it('loses nothing when it restarts mid-way: work queued while it was down is done by the next one', async () => {
    await second?.stop();
    second = undefined;
    await ok(['create', 'namespace', 'while-down']);
    await ok(['create', 'configmap', 'x', '-n', 'while-down']);
    await ok(['create', 'configmap', 'down-owner']);
    const owner = (await stack.request('GET', '/api/v1/namespaces/default/configmaps/down-owner')).json<Meta>();
    for (let i = 0; i < 20; i++) await stack.request('POST', '/api/v1/namespaces/default/configmaps', { body: owned(`down-dep-${i}`, 'default', { apiVersion: 'v1', kind: 'ConfigMap', name: 'down-owner', uid: owner.metadata.uid }) });
    await ok(['delete', 'configmap', 'down-owner']);
    await ok(['delete', 'namespace', 'while-down', '--wait=false']);
    // Nobody collects while no controller-manager runs.
    await new Promise((r) => setTimeout(r, 1000));
    expect((await stack.request('GET', '/api/v1/namespaces/default/configmaps/down-dep-0')).status).toBe(200);
    third = await startControllerManager(stack.url, stack.pki);
    expect(await until(async () => (await stack.request('GET', '/api/v1/namespaces/while-down')).status === 404, 30_000)).toBe(true);
    expect(await until(async () => {
      const list = (await stack.request('GET', '/api/v1/namespaces/default/configmaps')).json<{ items: Meta[] }>();
      return !list.items.some((c) => c.metadata.name.startsWith('down-dep-'));
    }, 30_000)).toBe(true);
  });
});
