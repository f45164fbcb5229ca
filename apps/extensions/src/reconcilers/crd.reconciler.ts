import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { goEquality, isStatusError, stableStringify, type KubeObject } from '@kube/apimachinery';
import { GenericApiServer, HealthChecks, type RequestContext, type ResourceDefinition } from '@kube/apiserver';
import { Controller, ItemExponentialFailureRateLimiter, SharedInformerFactory, type ReconcileResult, type SharedIndexInformer } from '@kube/client';
import type { CustomResourceDefinition } from '../crd/crd.types';
import { customResourceDefinitions } from '../custom-resources/custom-resource.definitions';
import { CLEANUP_FINALIZER, desiredStatus, terminatingStatus } from './crd.conditions';
import { TerminatingCustomResources } from './terminating.admission';

/** Compared as Go compares the structs: the stored status lacks the omitempty zeros a computed one may have. */
const statusEqual = goEquality('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'status');

export const CRD_GROUP = 'apiextensions.k8s.io';
export const CRD_PLURAL = 'customresourcedefinitions';
/** Longest retry backoff, and the re-check period while custom resources with finalizers remain. */
const RETRY_MS = 500;

function systemContext(): RequestContext {
  return { user: { name: 'system:apiextensions-controller', groups: ['system:masters'] }, dryRun: false, warnings: [] };
}

const WRITE = { dryRun: false, fieldValidation: 'Ignore' as const };

/**
 * Serves custom resources from the live CRD set. One queue, keyed by CRD name, does what kube splits into the
 * naming, establishing, non-structural, API-approval and finalizer controllers: write the status, then install
 * the served versions of established CRDs (and remove the rest), and empty a terminating CRD before letting
 * its deletion finish. Until the first full pass is done, unknown paths answer 503 instead of 404.
 */
@Injectable()
export class CustomResourceDefinitionController implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly installed = new Map<string, ResourceDefinition[]>();
  /** The CRD content each installed set was made from (installed only when it changes). */
  private readonly installedFrom = new Map<string, string>();
  /** The UID of the CRD each installed set serves: a new CRD under the same name gets storage of its own. */
  private readonly installedUid = new Map<string, string | undefined>();
  private readonly controller: Controller;
  private readonly crdInformer: SharedIndexInformer;

  constructor(
    @Inject(GenericApiServer) private readonly server: GenericApiServer,
    @Inject(TerminatingCustomResources) private readonly terminating: TerminatingCustomResources,
    @Inject(SharedInformerFactory) private readonly informers: SharedInformerFactory,
    @Inject(HealthChecks) private readonly health: HealthChecks,
  ) {
    this.crdInformer = informers.informerFor({ group: CRD_GROUP, resource: CRD_PLURAL });
    this.controller = new Controller({
      name: 'CRDController',
      reconcile: (name) => this.sync(name).catch((err: unknown) => this.retryQuietly(err)),
      rateLimiter: new ItemExponentialFailureRateLimiter(5, RETRY_MS),
      waitFor: [this.crdInformer],
    });
    this.crdInformer.addEventHandler({
      add: (crd) => this.controller.enqueue(crd.metadata.name as string),
      update: (_, crd) => this.controller.enqueue(crd.metadata.name as string),
      delete: (obj) => {
        const crd = obj as unknown as CustomResourceDefinition;
        this.terminating.delete(`${crd.spec.names.plural}.${crd.spec.group}`);
        this.controller.enqueue(crd.metadata.name as string);
        // Another CRD of the group may have been blocked by names the deleted one held.
        for (const other of this.crds()) if (other.spec.group === crd.spec.group) this.controller.enqueue(other.metadata.name as string);
      },
    });
  }

  onApplicationBootstrap(): void {
    this.server.pathsInstalled = false;
    this.server.installOnMiss = (group, plural) => this.installEstablished(`${plural}.${group}`);
    this.informers.start();
    // Every CRD known at start handled once: all their paths are installed.
    void this.health.addPostStartHook('start-apiextensions-controllers', () => this.controller.run().then(() => void (this.server.pathsInstalled = true)));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.controller.shutDown();
  }

  private get crdHandler() {
    return this.server.handler(CRD_GROUP, CRD_PLURAL);
  }

  private crds(): CustomResourceDefinition[] {
    return this.crdInformer.lister.list() as unknown as CustomResourceDefinition[];
  }

  /** Conflicts and races with a deletion are expected: retried with backoff, without a warning. */
  private retryQuietly(err: unknown): ReconcileResult {
    if (isStatusError(err) && (err.code === 409 || err.code === 404)) return { requeue: true };
    throw err;
  }

  private async sync(name: string): Promise<ReconcileResult | void> {
    const crd = this.crdInformer.lister.get(name) as unknown as CustomResourceDefinition | undefined;
    if (!crd) return this.uninstall(name);
    if (crd.metadata.deletionTimestamp) return this.finalize(crd);
    // A CRD not being deleted is not terminating, even one re-created under the name of a terminated one whose
    // deletion this informer never saw (a relist shows the pair as one update).
    this.terminating.delete(`${crd.spec.names.plural}.${crd.spec.group}`);
    const status = desiredStatus(crd, this.crds());
    const established = status.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
    const accepted = status.conditions?.some((c) => c.type === 'NamesAccepted' && c.status === 'True');
    // Install before Established is written: whoever sees Established can use the API at once.
    if (established && accepted) this.install({ ...crd, status });
    else this.uninstall(name);
    if (!statusEqual(crd.status, status)) await this.writeStatus(crd, status);
  }

  private async writeStatus(crd: CustomResourceDefinition, status: NonNullable<CustomResourceDefinition['status']>): Promise<void> {
    const body = { ...crd, status } as unknown as KubeObject;
    await this.crdHandler.update(systemContext(), undefined, crd.metadata.name as string, body as never, WRITE, 'status');
  }

  private install(crd: CustomResourceDefinition): void {
    const name = crd.metadata.name as string;
    // What the served definitions are made of: a status write alone (every CRD gets one) changes none of it, and
    // re-installing compiled the schemas again and rebuilt discovery and OpenAPI for every CRD served.
    const source = stableStringify([crd.metadata.uid ?? null, crd.spec, crd.status?.acceptedNames ?? null]);
    if (this.installed.has(name) && this.installedFrom.get(name) === source) return;
    const defs = customResourceDefinitions(crd, this.server.storage);
    const previous = this.installed.get(name) ?? [];
    // Another CRD under the same name (deleted and re-created, its deletion unseen here): as kube's crdHandler keys
    // storage by UID, the old one's watch cache stops (its watches end) and the new one gets a cache of its own.
    if (previous.length && this.installedUid.get(name) !== crd.metadata.uid) {
      for (const old of previous) if (old.storagePrefix) this.server.storage.release(old.storagePrefix);
    }
    // Install first: a version that stays keeps the resource's storage (and watch cache) alive.
    this.server.install(defs);
    for (const old of previous) {
      if (!defs.some((d) => d.version === old.version)) this.server.uninstall(old.group, old.version, old.plural);
    }
    this.installed.set(name, defs);
    this.installedFrom.set(name, source);
    this.installedUid.set(name, crd.metadata.uid);
  }

  /**
   * Replicas: Established is written by whichever replica got there first, and a client that saw it may reach this
   * replica before its informer has the CRD. A request for a resource not served here reads the CRD (a consistent
   * read) and, when it is established with its names accepted, installs it from that read at once (the informer's
   * event later finds it installed). kube's apiservers answer 404 in that window.
   */
  private async installEstablished(name: string): Promise<boolean> {
    if (name.startsWith('.') || name.endsWith('.') || this.installed.has(name)) return false;
    // Whatever the read fails with, the request is answered as before: 404.
    const crd = (await this.crdHandler.store.tryGet(undefined, name).catch(() => undefined)) as unknown as CustomResourceDefinition | undefined;
    if (!crd || crd.metadata.deletionTimestamp) return false;
    const holds = (type: string): boolean => crd.status?.conditions?.some((c) => c.type === type && c.status === 'True') ?? false;
    if (!holds('Established') || !holds('NamesAccepted')) return false;
    this.install(crd);
    return true;
  }

  private uninstall(name: string): void {
    const previous = this.installed.get(name);
    if (!previous) return;
    for (const d of previous) this.server.uninstall(d.group, d.version, d.plural);
    this.installed.delete(name);
    this.installedFrom.delete(name);
    this.installedUid.delete(name);
  }

  /** The cleanup finalizer: delete every custom resource, then release the CRD. */
  private async finalize(crd: CustomResourceDefinition): Promise<ReconcileResult | void> {
    const name = crd.metadata.name as string;
    if (!crd.metadata.finalizers?.includes(CLEANUP_FINALIZER)) return this.uninstall(name);
    this.terminating.add(`${crd.spec.names.plural}.${crd.spec.group}`);
    const defs = this.installed.get(name) ?? customResourceDefinitions(crd, this.server.storage);
    if (defs.length && !this.installed.has(name)) this.install(crd);
    const reason = crd.status?.conditions?.find((c) => c.type === 'Terminating')?.reason;
    if (reason !== 'InstanceDeletionInProgress') {
      await this.writeStatus(crd, terminatingStatus(crd, 'InstanceDeletionInProgress', 'CustomResource deletion is in progress'));
      return;
    }
    let remaining = 0;
    if (defs.length) {
      const handler = this.server.handler(defs[0].group, defs[0].plural);
      const deleted = await handler.deleteCollection(systemContext(), undefined, {}, { propagationPolicy: 'Background' }, false);
      remaining = deleted.items.filter((o) => o.metadata.finalizers?.length).length;
    }
    if (remaining > 0) return { requeueAfterMs: RETRY_MS };
    this.uninstall(name);
    const finalizers = (crd.metadata.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER);
    await this.crdHandler.update(systemContext(), undefined, name, { ...crd, metadata: { ...crd.metadata, finalizers } } as never, WRITE);
  }
}
