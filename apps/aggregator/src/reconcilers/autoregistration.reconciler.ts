import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { GenericApiServer, type RequestContext } from '@kube/apiserver';
import { Controller } from '@kube/client';
import { LeaderElection } from '@kube/storage';
import { apiServiceName } from '../apiservice/apiservice.types';
import type { GroupVersionPriority } from '@kube/registration';
import { priorityFor } from '../routing/group.priorities';

export { apiServiceName };

export const AUTOMANAGED_LABEL = 'kube-aggregator.kubernetes.io/automanaged';

export interface DesiredGroupVersion {
  group: string;
  version: string;
  /** "onstart" for built-in groups, "true" for CRD group/versions and other announced ones. */
  managed: 'onstart' | 'true';
  /** The priorities its server announced (an aggregated server's own); default: the built-in or CRD table. */
  priority?: GroupVersionPriority;
}

function ctx(): RequestContext {
  return { user: { name: 'system:kube-aggregator', groups: ['system:masters'] }, dryRun: false, warnings: [] };
}

const WRITE = { dryRun: false, fieldValidation: 'Ignore' as const };

/** One key: the desired set is reconciled as a whole, the latest one wins. */
const KEY = 'apiservices';

/**
 * kube's autoregistration controller: every group/version a local backend serves gets a local APIService
 * labelled automanaged; those no longer served are deleted, but only ones we manage (unlabelled APIServices
 * are never touched) and "onstart" ones only after the first complete sync. Only the elected replica writes;
 * writes run off the discovery path, one at a time, on the latest desired set.
 */
@Injectable()
export class AutoRegistration implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Autoregistration');
  private synced = false;
  private desired?: { groupVersions: readonly DesiredGroupVersion[]; complete: boolean };
  private readonly controller = new Controller({ name: 'Autoregistration', reconcile: () => this.reconcile() });

  constructor(
    @Inject(GenericApiServer) private readonly server: GenericApiServer,
    @Inject(LeaderElection) private readonly election: LeaderElection,
  ) {}

  onApplicationBootstrap(): void {
    void this.controller.run();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.controller.shutDown();
  }

  /**
   * The group/versions the local backends serve now. `complete`: every backend this aggregator knows answered
   * discovery, so what is not desired is really gone. Until then nothing is deleted (kube's initial-sync gate):
   * a replica that has not heard from its backends yet must not remove the APIServices they serve.
   */
  setDesired(groupVersions: readonly DesiredGroupVersion[], complete: boolean): void {
    if (!this.election.isLeader) return;
    this.desired = { groupVersions, complete };
    this.controller.enqueue(KEY);
  }

  private async reconcile(): Promise<void> {
    if (!this.desired || !this.election.isLeader) return;
    await this.sync(this.desired.groupVersions, this.desired.complete);
  }

  async sync(desired: readonly DesiredGroupVersion[], complete = true): Promise<void> {
    const handler = this.server.handler('apiregistration.k8s.io', 'apiservices');
    const existing = (await handler.list(undefined, {})).items;
    const byName = new Map(existing.map((o) => [o.metadata.name as string, o]));
    const wanted = new Set<string>();
    for (const d of desired) {
      const name = apiServiceName(d.group, d.version);
      wanted.add(name);
      await this.ensure(byName.get(name), d).catch((err: Error) => this.logger.warn(`APIService ${name}: ${err.message}`));
    }
    if (!complete) return;
    for (const o of existing) {
      const managed = o.metadata.labels?.[AUTOMANAGED_LABEL];
      if (!managed || wanted.has(o.metadata.name as string)) continue;
      if (managed === 'onstart' && this.synced) continue;
      await handler.delete(ctx(), undefined, o.metadata.name as string, { preconditions: { uid: o.metadata.uid } }, false).catch((err: unknown) => {
        if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) throw err;
      });
    }
    this.synced = true;
  }

  private async ensure(current: KubeObject | undefined, d: DesiredGroupVersion): Promise<void> {
    const handler = this.server.handler('apiregistration.k8s.io', 'apiservices');
    const priority = d.priority ?? priorityFor(d.group, d.version, d.managed === 'true' ? 'crd' : 'onstart');
    const spec = { group: d.group, version: d.version, groupPriorityMinimum: priority.groupPriorityMinimum, versionPriority: priority.versionPriority };
    const name = apiServiceName(d.group, d.version);
    if (!current) {
      const obj = { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name, labels: { [AUTOMANAGED_LABEL]: d.managed } }, spec };
      await handler.create(ctx(), undefined, obj as never, WRITE).catch((err: unknown) => {
        if (!(isStatusError(err) && err.reason === 'AlreadyExists')) throw err;
      });
      return;
    }
    if (!current.metadata.labels?.[AUTOMANAGED_LABEL]) return;
    const cur = (current.spec ?? {}) as Record<string, unknown>;
    if (Object.entries(spec).every(([k, v]) => cur[k] === v) && cur.service === undefined) return;
    await handler.update(ctx(), undefined, name, { ...current, spec } as never, WRITE);
  }
}
