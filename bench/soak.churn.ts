/**
 * The soak's load: what makes a control plane allocate per object and per group, done over and over so that
 * whatever is not given back shows as growth.
 *  - CRD churn: a CRD in a new group, custom resources and a watch on them through the front door, then the
 *    CRD deleted (the aggregator registers and drops the group's APIService, extensions its storage and cache),
 *    and re-created at once under the same name;
 *  - APIService churn: a small aggregated server on a new port with its own certificate, its Service, Endpoints
 *    and APIService, a request proxied to it, then all of it deleted (availability checks, proxy pools);
 *  - namespace churn: a namespace with configmaps, a secret, a custom resource and a wardle Flunder (an
 *    aggregated resource), deleted and emptied by the controller-manager;
 *  - long watches through the aggregator (core, CRD, aggregated and the aggregator's own resources), reopened
 *    from their last resourceVersion as they end, and short watches opened and dropped all the time.
 */
import { readFileSync } from 'node:fs';
import { issueServingCertificate, registrationObjects } from '@kube/apiserver';
import { isResourceExpired, RestClient } from '@kube/client';
import { pkiPaths, type PkiPaths } from '@kube/pki';
import type { KubeObject } from '@kube/apimachinery';
import { startStubAggregatedServer } from './aggregated.stub';

export type ChurnKind = 'crd' | 'apiservice' | 'namespace' | 'watch';

export interface ChurnReport {
  /** Cycles (for watches: watch requests) that completed, and that failed, by kind. */
  readonly completed: Record<ChurnKind, number>;
  readonly failed: Record<ChurnKind, number>;
  /** Events the long watches received. */
  readonly watchEvents: number;
  /** Long watches that ended with 410 Gone and relisted (not a failure: kube's contract). */
  readonly watchRelists: number;
  /** Watches on a CRD's resources still open 30 s after the CRD was deleted (kube ends them). */
  readonly watchesOutlivingTheirCrd: number;
  /** The first failures, for the report. */
  readonly errors: readonly string[];
}

const SOAK_GROUP = 'soak.example.com';
const CR_NAMESPACE = 'soak-crs';
const APISERVICE_NAMESPACE = 'soak-apis';
const GADGETS = `/apis/${SOAK_GROUP}/v1/gadgets`;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const APISERVICES = '/apis/apiregistration.k8s.io/v1/apiservices';
const WAIT_MS = 120_000;
const KEEP_ERRORS = 20;
/**
 * Cycles reuse this many names. Metrics label every request with its group and resource, and as in kube those
 * series outlive a deleted CRD: with a new name every cycle that growth, by design, would hide a leak's.
 */
export const SOAK_NAMES = 16;
/** Between two cycles of one loop: the soak is about repetition, not throughput, and the machine is shared. */
const PAUSE_MS = 250;

/** Long watches: one per kind of server behind the front door. */
const LONG_WATCHES = [
  '/api/v1/configmaps',
  '/api/v1/namespaces',
  GADGETS,
  '/apis/wardle.example.com/v1alpha1/flunders',
  APISERVICES,
  CRDS,
];

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, cond: () => Promise<boolean>, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await cond().catch(() => false)) return;
    await sleep(200);
  }
  throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
}

const statusCode = (err: unknown): number | undefined => (err as { code?: number }).code;

function crdObject(plural: string, kind: string, group: string): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
    },
  };
}

export class StackChurn {
  private readonly client: RestClient;
  private readonly pki: PkiPaths;
  private readonly completed: Record<ChurnKind, number> = { crd: 0, apiservice: 0, namespace: 0, watch: 0 };
  private readonly failed: Record<ChurnKind, number> = { crd: 0, apiservice: 0, namespace: 0, watch: 0 };
  private readonly errors: string[] = [];
  private watchEvents = 0;
  private watchRelists = 0;
  private watchesOutlivingTheirCrd = 0;
  private readonly openWatches = new Set<{ close(): void }>();
  private stopAt = 0;

  /** `dir`: the launched stack's directory (its pki/ holds the admin certificate and the CA). */
  constructor(
    url: string,
    dir: string,
    private readonly names = SOAK_NAMES,
  ) {
    this.pki = pkiPaths(`${dir}/pki`);
    const pem = (path: string): string => readFileSync(path, 'utf8');
    this.client = new RestClient({ url, caPem: pem(this.pki.caCert), certPem: pem(this.pki.adminCert), keyPem: pem(this.pki.adminKey), userAgent: 'kube-ts-soak' });
  }

  /** The namespaces and the CRD every cycle uses. */
  async prepare(): Promise<void> {
    for (const name of [CR_NAMESPACE, APISERVICE_NAMESPACE]) {
      await this.client.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
    }
    await this.client.request('POST', CRDS, { body: crdObject('gadgets', 'Gadget', SOAK_GROUP) });
    await waitFor('the gadgets CRD to be served', async () => (await this.client.list(GADGETS), true));
    await waitFor('wardle to be served', async () => (await this.client.list('/apis/wardle.example.com/v1alpha1/flunders'), true));
  }

  /** Churns until `durationMs` has passed, then waits for the cycles under way to finish. */
  async run(durationMs: number): Promise<void> {
    this.stopAt = Date.now() + durationMs;
    // Long watches wait for their next event: at the end they are closed rather than waited for.
    const timer = setTimeout(() => this.openWatches.forEach((w) => w.close()), durationMs);
    const loops = [
      this.loop('crd', (i) => this.crdCycle(i)),
      this.loop('apiservice', (i) => this.apiServiceCycle(i)),
      this.loop('namespace', (i) => this.namespaceCycle(i)),
      this.loop('watch', (i) => this.shortWatch(i)),
      ...LONG_WATCHES.map((path) => this.longWatch(path)),
    ];
    await Promise.all(loops);
    clearTimeout(timer);
  }

  report(): ChurnReport {
    return { completed: { ...this.completed }, failed: { ...this.failed }, watchEvents: this.watchEvents, watchRelists: this.watchRelists, watchesOutlivingTheirCrd: this.watchesOutlivingTheirCrd, errors: [...this.errors] };
  }

  close(): void {
    for (const w of this.openWatches) w.close();
    this.client.close();
  }

  private get stopping(): boolean {
    return Date.now() >= this.stopAt;
  }

  private fail(kind: ChurnKind, err: unknown): void {
    this.failed[kind]++;
    if (this.errors.length < KEEP_ERRORS) this.errors.push(`${kind}: ${err instanceof Error ? err.message : String(err)}`);
  }

  private async loop(kind: ChurnKind, cycle: (i: number) => Promise<void>): Promise<void> {
    for (let i = 0; !this.stopping; i++) {
      try {
        await cycle(i);
        this.completed[kind]++;
      } catch (err) {
        this.fail(kind, err);
      }
      await sleep(PAUSE_MS);
    }
  }

  /**
   * Every name twice in a row: the second cycle re-creates at once, under the same name, the CRD the first one
   * deleted. The first watches from now, the second from its list's resourceVersion, as informers and
   * `kubectl get --watch` do; either must see every new custom resource.
   */
  private async crdCycle(i: number): Promise<void> {
    const group = `c${Math.floor(i / 2) % this.names}.${SOAK_GROUP}`;
    const crd = crdObject('widgets', 'Widget', group);
    const widgets = `/apis/${group}/v1/namespaces/${CR_NAMESPACE}/widgets`;
    await this.client.request('POST', CRDS, { body: crd });
    let listedAt = '';
    await waitFor(`${group} to be served`, async () => ((listedAt = (await this.client.list(widgets)).resourceVersion), true));
    const watch = await this.client.watch(widgets, i % 2 === 1 ? listedAt : '');
    this.openWatches.add(watch);
    try {
      let added = 0;
      let ended = false;
      const ending = (async () => {
        for await (const ev of watch) if (ev.type === 'ADDED') added++;
        ended = true;
      })();
      for (let n = 0; n < 5; n++) {
        await this.client.request('POST', widgets, { body: { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: `w${n}` }, spec: { size: n } } });
      }
      await waitFor(`the watch on ${group} to see 5 widgets`, async () => added >= 5 || ended, 30_000);
      if (added < 5) throw new Error(`the watch on ${group} saw ${added} of 5 widgets and ended${watch.error ? `: ${watch.error.message}` : ' without an error'}`);
      await this.client.request('DELETE', `${CRDS}/${crd.metadata.name}`);
      await waitFor(`CRD ${crd.metadata.name} to be gone`, async () => this.client.get(`${CRDS}/${crd.metadata.name}`).then(() => false, (err: unknown) => statusCode(err) === 404));
      const closed = await Promise.race([ending.then(() => true), sleep(30_000).then(() => false)]);
      if (!closed) this.watchesOutlivingTheirCrd++;
    } finally {
      watch.close();
      this.openWatches.delete(watch);
    }
  }

  private async apiServiceCycle(i: number): Promise<void> {
    const group = `a${i % this.names}.${SOAK_GROUP}`;
    const serviceName = `a${i % this.names}`;
    const serving = await issueServingCertificate(this.pki.caCert, this.pki.caKey, { serviceDnsName: `${serviceName}.${APISERVICE_NAMESPACE}.svc`, addresses: ['127.0.0.1'] });
    const stub = await startStubAggregatedServer(serving.certPem, serving.keyPem);
    try {
      const [service, endpoints, apiService] = registrationObjects({
        group,
        version: 'v1',
        serviceNamespace: APISERVICE_NAMESPACE,
        serviceName,
        address: '127.0.0.1',
        port: stub.port,
        groupPriorityMinimum: 1000,
        versionPriority: 15,
        caBundlePem: serving.caPem,
      });
      const core = `/api/v1/namespaces/${APISERVICE_NAMESPACE}`;
      await this.client.request('POST', `${core}/services`, { body: service });
      await this.client.request('POST', `${core}/endpoints`, { body: endpoints });
      await this.client.request('POST', APISERVICES, { body: apiService });
      // Proxied by the aggregator to the stub once the APIService is available.
      await waitFor(`${group}/v1 to be proxied`, async () => (await this.client.get(`/apis/${group}/v1`)).kind === 'APIResourceList');
      await this.client.request('DELETE', `${APISERVICES}/${apiService.metadata.name}`);
      // Endpoints before their Service: once the Service is gone the endpoints controller deletes them itself, as kube's.
      await this.client.request('DELETE', `${core}/endpoints/${serviceName}`);
      await this.client.request('DELETE', `${core}/services/${serviceName}`);
      await waitFor(`${group}/v1 to be gone`, async () => this.client.get(`/apis/${group}/v1`).then(() => false, (err: unknown) => statusCode(err) === 404));
    } finally {
      stub.close();
    }
  }

  private async namespaceCycle(i: number): Promise<void> {
    const ns = `soak-ns-${i % this.names}`;
    const base = `/api/v1/namespaces/${ns}`;
    await this.client.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
    for (let n = 0; n < 5; n++) {
      await this.client.request('POST', `${base}/configmaps`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm${n}` }, data: { n: String(n) } } });
    }
    await this.client.request('POST', `${base}/secrets`, { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { k: 'v' } } });
    await this.client.request('POST', `/apis/${SOAK_GROUP}/v1/namespaces/${ns}/gadgets`, { body: { apiVersion: `${SOAK_GROUP}/v1`, kind: 'Gadget', metadata: { name: 'g' }, spec: { size: i % this.names } } });
    await this.client.request('POST', `/apis/wardle.example.com/v1alpha1/namespaces/${ns}/flunders`, { body: { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'f' } } });
    await this.client.request('DELETE', base);
    await waitFor(`namespace ${ns} to be emptied and deleted`, async () => this.client.get(base).then(() => false, (err: unknown) => statusCode(err) === 404));
  }

  /** A watch that is dropped by the client after a moment, or ended by the server's timeout: the churn of watchers. */
  private async shortWatch(i: number): Promise<void> {
    const path = i % 2 ? `/api/v1/namespaces/${CR_NAMESPACE}/configmaps` : `/apis/wardle.example.com/v1alpha1/namespaces/${CR_NAMESPACE}/flunders`;
    const watch = await this.client.watch(path, '', i % 3 === 0 ? { timeoutSeconds: '1' } : {});
    this.openWatches.add(watch);
    try {
      const ended = (async () => {
        for await (const _ of watch) void _;
      })();
      await Promise.race([ended, sleep(1_500)]);
    } finally {
      watch.close();
      this.openWatches.delete(watch);
    }
    if (watch.error && !(watch.error.message.includes('aborted') || watch.error.message.includes('socket hang up'))) throw watch.error;
  }

  /** One long watch, reopened from its last resourceVersion when the server ends it; relisted after 410 Gone. */
  private async longWatch(path: string): Promise<void> {
    let resourceVersion = '';
    while (!this.stopping) {
      try {
        if (!resourceVersion) resourceVersion = (await this.client.list(path)).resourceVersion;
        // Server-side timeouts spread over a minute or two, so watches end and are reopened all along.
        const watch = await this.client.watch(path, resourceVersion, { timeoutSeconds: String(45 + Math.floor(Math.random() * 60)) });
        this.openWatches.add(watch);
        this.completed.watch++;
        try {
          for await (const ev of watch) {
            this.watchEvents++;
            resourceVersion = (ev.object as KubeObject).metadata?.resourceVersion ?? resourceVersion;
            if (this.stopping) break;
          }
        } finally {
          watch.close();
          this.openWatches.delete(watch);
        }
        if (watch.error) throw watch.error;
      } catch (err) {
        if (isResourceExpired(err)) {
          this.watchRelists++;
          resourceVersion = '';
        } else if (!this.stopping) {
          this.fail('watch', new Error(`${path}: ${err instanceof Error ? err.message : String(err)}`));
          resourceVersion = '';
          await sleep(1_000);
        }
      }
    }
  }
}
