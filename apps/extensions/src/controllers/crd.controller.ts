import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { isStatusError, stableStringify, type KubeObject } from '@kube/apimachinery';
import { GenericApiServer, type RequestContext, type ResourceDefinition } from '@kube/apiserver';
import type { StorageEvent, WatchChannel } from '@kube/storage';
import type { CustomResourceDefinition } from '../crd/crd.types';
import { customResourceDefinitions } from '../custom-resources/custom-resource.definitions';
import { CLEANUP_FINALIZER, desiredStatus, terminatingStatus } from './crd.conditions';
import { TerminatingCustomResources } from './terminating.admission';

export const CRD_GROUP = 'apiextensions.k8s.io';
export const CRD_PLURAL = 'customresourcedefinitions';
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
  private readonly logger = new Logger('CRDController');
  private readonly crds = new Map<string, CustomResourceDefinition>();
  private readonly installed = new Map<string, ResourceDefinition[]>();
  private readonly queue = new Set<string>();
  private readonly retries = new Map<string, NodeJS.Timeout>();
  private channel?: WatchChannel<StorageEvent>;
  private draining?: Promise<void>;
  private stopped = false;
  private readonly listeners = new Set<(crds: ReadonlyMap<string, ResourceDefinition[]>) => void>();

  constructor(
    @Inject(GenericApiServer) private readonly server: GenericApiServer,
    @Inject(TerminatingCustomResources) private readonly terminating: TerminatingCustomResources,
  ) {}

  onApplicationBootstrap(): void {
    this.server.pathsInstalled = false;
    void this.watchLoop();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    this.channel?.close();
    this.retries.forEach((t) => clearTimeout(t));
  }

  /** Called with the served definitions after every change (the CRD-registration publisher listens here). */
  onServedChange(fn: (crds: ReadonlyMap<string, ResourceDefinition[]>) => void): void {
    this.listeners.add(fn);
  }

  get served(): ReadonlyMap<string, ResourceDefinition[]> {
    return this.installed;
  }

  private get crdHandler() {
    return this.server.handler(CRD_GROUP, CRD_PLURAL);
  }

  private async watchLoop(): Promise<void> {
    while (!this.stopped) {
      try {
        this.channel = await this.crdHandler.store.watch(undefined, undefined);
        for await (const ev of this.channel) await this.onEvent(ev);
      } catch (err) {
        if (!this.stopped) this.logger.warn(`CRD watch failed: ${(err as Error).message}`);
      }
      if (!this.stopped) await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  }

  private async onEvent(ev: StorageEvent): Promise<void> {
    if (ev.type === 'BOOKMARK') {
      // End of the initial list: everything known is queued; once handled, all paths are installed.
      await this.drain();
      this.server.pathsInstalled = true;
      return;
    }
    const crd = ev.object as unknown as CustomResourceDefinition;
    const name = crd.metadata.name as string;
    if (ev.type === 'DELETED') {
      this.crds.delete(name);
      this.terminating.delete(`${crd.spec.names.plural}.${crd.spec.group}`);
      this.uninstall(name);
      this.requeueGroup(crd.spec.group);
      return;
    }
    this.crds.set(name, crd);
    this.enqueue(name);
  }

  /** Another CRD of the group may have been blocked by names the deleted one held. */
  private requeueGroup(group: string): void {
    for (const [name, crd] of this.crds) if (crd.spec.group === group) this.enqueue(name);
  }

  private enqueue(name: string): void {
    this.queue.add(name);
    void this.drain();
  }

  private drain(): Promise<void> {
    this.draining ??= this.runQueue().finally(() => (this.draining = undefined));
    return this.draining;
  }

  private async runQueue(): Promise<void> {
    while (this.queue.size && !this.stopped) {
      const name = this.queue.values().next().value as string;
      this.queue.delete(name);
      try {
        await this.sync(name);
      } catch (err) {
        if (!(isStatusError(err) && (err.code === 409 || err.code === 404))) this.logger.warn(`CRD ${name}: ${(err as Error).message}`);
        this.retryLater(name);
      }
    }
  }

  private retryLater(name: string): void {
    if (this.retries.has(name) || this.stopped) return;
    this.retries.set(name, setTimeout(() => (this.retries.delete(name), this.enqueue(name)), RETRY_MS));
  }

  private async sync(name: string): Promise<void> {
    const crd = this.crds.get(name);
    if (!crd) return this.uninstall(name);
    if (crd.metadata.deletionTimestamp) return this.finalize(crd);
    const status = desiredStatus(crd, [...this.crds.values()]);
    const established = status.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
    const accepted = status.conditions?.some((c) => c.type === 'NamesAccepted' && c.status === 'True');
    // Install before Established is written: whoever sees Established can use the API at once.
    if (established && accepted) this.install({ ...crd, status });
    else this.uninstall(name);
    if (stableStringify(status) !== stableStringify(crd.status ?? {})) await this.writeStatus(crd, status);
  }

  private async writeStatus(crd: CustomResourceDefinition, status: NonNullable<CustomResourceDefinition['status']>): Promise<void> {
    const body = { ...crd, status } as unknown as KubeObject;
    await this.crdHandler.update(systemContext(), undefined, crd.metadata.name as string, body as never, WRITE, 'status');
  }

  private install(crd: CustomResourceDefinition): void {
    const name = crd.metadata.name as string;
    const defs = customResourceDefinitions(crd, this.server.storage);
    const previous = this.installed.get(name) ?? [];
    for (const old of previous) {
      if (!defs.some((d) => d.version === old.version)) this.server.uninstall(old.group, old.version, old.plural);
    }
    this.server.install(defs);
    this.installed.set(name, defs);
    this.notify();
  }

  private uninstall(name: string): void {
    const previous = this.installed.get(name);
    if (!previous) return;
    for (const d of previous) this.server.uninstall(d.group, d.version, d.plural);
    this.installed.delete(name);
    this.notify();
  }

  private notify(): void {
    this.listeners.forEach((fn) => fn(this.installed));
  }

  /** The cleanup finalizer: delete every custom resource, then release the CRD. */
  private async finalize(crd: CustomResourceDefinition): Promise<void> {
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
    if (remaining > 0) {
      this.retryLater(name);
      return;
    }
    this.uninstall(name);
    const finalizers = (crd.metadata.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER);
    await this.crdHandler.update(systemContext(), undefined, name, { ...crd, metadata: { ...crd.metadata, finalizers } } as never, WRITE);
  }
}
