import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { INestApplicationContext, INestMicroservice } from '@nestjs/common';
import { encodeCaBundle, RegistrationAnnouncers, registrationMessagesDropped, RegistrationRegistry, startRegistrationApp } from '@kube/registration';
import { tempDir } from '@kube/testing';
import { startAggregatorReplica, startStack, type StackHarness } from '../support/core-api.harness';
import { type SecuredNats, startSecuredNats } from '../support/secured-nats';

const until = async (cond: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
};

/** Announcements refused by the ownership policy, as counted in this process (the test's registry). */
const ownershipDrops = async (): Promise<number> =>
  (await registrationMessagesDropped.get()).values.filter((v) => v.labels.reason === 'ownership').reduce((sum, v) => sum + v.value, 0);

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.nats.example.com' },
  spec: {
    group: 'nats.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};

// On nats-server as deployments run it (TLS, one client certificate per service, the registration permissions):
// observers listen with the aggregator's identity, the sample-apiserver announces with its own.
describe('registration over NATS', () => {
  let secured: SecuredNats;
  let nats: SecuredNats['nats'];
  let stack: StackHarness;
  let registry: RegistrationRegistry;
  let registryApp: INestMicroservice;

  beforeAll(async () => {
    secured = await startSecuredNats(tempDir('registration-stack'), [
      { name: 'sample-apiserver', roles: ['announcer'] },
      { name: 'impostor', roles: ['announcer'] },
    ]);
    nats = secured.nats;
    stack = await startStack({ natsUrl: nats.url, natsTls: secured.tls, pki: secured.pki });
    registryApp = await startRegistrationApp({ natsUrl: nats.url, tls: secured.tls('aggregator'), name: 'test', registry: true });
    registry = registryApp.get(RegistrationRegistry);
    await registry.start();
  });

  /** A wardle server announcing over NATS with the identity `component`, as runAggregatedServer does without KUBE_REGISTER_URL. */
  async function bootAnnouncingWardle(component: string): Promise<INestApplicationContext> {
    const { SampleApiServerModule, WARDLE_API_SERVICE } = await import('../../apps/sample-apiserver/src/sample-apiserver.module');
    const { bootAggregatedServer } = await import('../support/aggregated-server.boot');
    const { groupPriorityMinimum, versionPriority } = WARDLE_API_SERVICE;
    return bootAggregatedServer(stack, {
      component,
      serviceDnsName: 'wardle-server.kube-system.svc',
      module: ({ config }) => SampleApiServerModule.forRoot({ config: { ...config, natsUrl: nats.url, natsTls: secured.tls(component), servingCAPem: readFileSync(stack.pki.caCert, 'utf8'), announcedPriority: { groupPriorityMinimum, versionPriority } } }),
    });
  }

  afterAll(async () => {
    await registryApp?.close();
    await stack?.stop();
    await nats?.stop();
  });

  it('hears core-api and extensions announce their group/versions with endpoints and CA bundles', async () => {
    expect(await until(() => registry.current().has('v1.') && registry.current().has('v1.apiextensions.k8s.io'))).toBe(true);
    const core = registry.current().get('v1.');
    expect(core?.source).toBe('onstart');
    expect(core?.endpoints[0].service).toBe('core-api');
    expect(core?.endpoints[0].endpoint).toBe(stack.core.url);
    expect(Buffer.from(core?.endpoints[0].caBundle ?? '', 'base64').toString()).toContain('BEGIN CERTIFICATE');
    expect(registry.current().get('v1.coordination.k8s.io')?.groupPriorityMinimum).toBe(16500);
    expect((await stack.request('GET', '/readyz?verbose')).body).toContain('[+]nats ok');
  });

  it('announces a CRD group/version as source crd while the CRD is served, and withdraws it after deletion', async () => {
    const created = await stack.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: JSON.stringify(CRD) });
    expect(created.status).toBe(201);
    expect(await until(() => registry.current().get('v1.nats.example.com')?.source === 'crd')).toBe(true);
    expect(registry.current().get('v1.nats.example.com')?.endpoints[0].service).toBe('extensions');
    await stack.request('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.nats.example.com');
    expect(await until(() => !registry.current().has('v1.nats.example.com'))).toBe(true);
  });

  it('keeps a group/version announced until the last CRD serving it is gone, and re-announces after a restart', async () => {
    const second = { ...CRD, metadata: { name: 'gadgets.nats.example.com' }, spec: { ...CRD.spec, names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' } } };
    const first = { ...CRD, metadata: { name: 'things.nats.example.com' }, spec: { ...CRD.spec, names: { plural: 'things', singular: 'thing', kind: 'Thing' } } };
    for (const crd of [first, second]) expect((await stack.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: JSON.stringify(crd) })).status).toBe(201);
    expect(await until(() => registry.current().has('v1.nats.example.com'))).toBe(true);
    await stack.request('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/things.nats.example.com');
    await new Promise((r) => setTimeout(r, 1000));
    expect(registry.current().has('v1.nats.example.com')).toBe(true);

    // A registry that starts later learns the whole set at once (resync), as after an aggregator restart.
    const lateApp = await startRegistrationApp({ natsUrl: nats.url, tls: secured.tls('aggregator'), name: 'late', registry: true });
    const late = lateApp.get(RegistrationRegistry);
    await late.start();
    try {
      expect(await until(() => late.current().get('v1.nats.example.com')?.source === 'crd' && late.current().has('v1.'))).toBe(true);
    } finally {
      await lateApp.close();
    }
    await stack.request('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.nats.example.com');
    expect(await until(() => !registry.current().has('v1.nats.example.com'))).toBe(true);
  });

  it('lets a second aggregator replica that knows its backends only from NATS serve the same APIs', async () => {
    const replica = await startAggregatorReplica(stack, nats.url, secured.tls);
    try {
      expect(await until(async () => (await replica.request('GET', '/api/v1/namespaces')).status === 200)).toBe(true);
      const a = (await stack.request('GET', '/apis')).json<{ groups: Array<{ name: string }> }>().groups.map((g) => g.name);
      const b = (await replica.request('GET', '/apis')).json<{ groups: Array<{ name: string }> }>().groups.map((g) => g.name);
      expect(b).toEqual(a);
      const svcA = (await stack.request('GET', '/apis/apiregistration.k8s.io/v1/apiservices')).json<{ items: Array<{ metadata: { name: string } }> }>().items.map((i) => i.metadata.name);
      const svcB = (await replica.request('GET', '/apis/apiregistration.k8s.io/v1/apiservices')).json<{ items: Array<{ metadata: { name: string } }> }>().items.map((i) => i.metadata.name);
      expect(svcB, `${svcA} vs ${svcB}`).toEqual(svcA);
    } finally {
      await replica.stop();
    }
  });
  it('lets an aggregated server without KUBE_REGISTER_URL announce its APIService over NATS, with its priorities', async () => {
    const wardle = await bootAnnouncingWardle('sample-apiserver');
    try {
      expect(await until(() => registry.current().has('v1alpha1.wardle.example.com'))).toBe(true);
      expect(registry.current().get('v1alpha1.wardle.example.com')).toMatchObject({ groupPriorityMinimum: 1000, versionPriority: 15, source: 'onstart' });
      expect(await until(async () => (await stack.request('GET', '/apis/wardle.example.com/v1alpha1/fischers')).status === 200)).toBe(true);
      const apiService = JSON.parse((await stack.request('GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1alpha1.wardle.example.com')).body);
      // Managed like a CRD's ("true"): removed again once no server announces it.
      expect(apiService.metadata.labels).toMatchObject({ 'kube-aggregator.kubernetes.io/automanaged': 'true' });
      expect(apiService.spec).toMatchObject({ group: 'wardle.example.com', version: 'v1alpha1', groupPriorityMinimum: 1000, versionPriority: 15 });
    } finally {
      await wardle.close();
    }
  });
  it("refuses a core-api group announced with extensions' identity, and keeps routing it to core-api", async () => {
    expect(await until(() => registry.current().has('v1.'))).toBe(true);
    const before = await ownershipDrops();
    const app = await startRegistrationApp({ natsUrl: nats.url, tls: secured.tls('extensions'), name: 'forger', announce: true });
    try {
      const forger = app.get(RegistrationAnnouncers).create({ service: 'extensions', endpoint: 'https://127.0.0.1:9', caBundle: encodeCaBundle('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n') });
      await forger.start();
      forger.announce([{ group: '', version: 'v1' }, { group: 'apps', version: 'v1' }]);
      expect(await until(async () => (await ownershipDrops()) > before)).toBe(true);
      await new Promise((r) => setTimeout(r, 500)); // let the stack's aggregator hear it too
      for (const key of ['v1.', 'v1.apps']) expect(registry.current().get(key)?.endpoints.map((e) => e.service), key).toEqual(['core-api']);
      expect((await stack.request('GET', '/api/v1/namespaces/default')).status).toBe(200);
      expect((await stack.request('GET', '/apis/apps/v1/namespaces/default/deployments')).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("refuses a second aggregated server claiming wardle's group/version, while wardle keeps serving it", async () => {
    const wardle = await bootAnnouncingWardle('sample-apiserver');
    try {
      expect(await until(() => registry.current().has('v1alpha1.wardle.example.com'))).toBe(true);
      const owner = registry.current().get('v1alpha1.wardle.example.com')?.endpoints;
      const before = await ownershipDrops();
      const impostor = await bootAnnouncingWardle('impostor');
      try {
        expect(await until(async () => (await ownershipDrops()) > before)).toBe(true);
        expect(registry.current().get('v1alpha1.wardle.example.com')?.endpoints).toEqual(owner);
        expect(owner?.map((e) => e.service)).toEqual(['sample-apiserver']);
        expect((await stack.request('GET', '/apis/wardle.example.com/v1alpha1/fischers')).status).toBe(200);
      } finally {
        await impostor.close();
      }
      expect(registry.current().get('v1alpha1.wardle.example.com')?.endpoints).toEqual(owner);
    } finally {
      await wardle.close();
    }
  });
});
