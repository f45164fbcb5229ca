import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { Controller, SharedInformerFactory, type SharedIndexInformer } from '@kube/client';
import {
  AUTOUPDATE_ANNOTATION,
  defaultFlowSchema,
  defaultPriorityLevel,
  FLOW_SCHEMA_CONDITION_DANGLING,
  FLOW_SCHEMAS_RESOURCE,
  FLOWCONTROL_GROUP,
  GenericApiServer,
  MANDATORY_FLOW_SCHEMAS,
  MANDATORY_PRIORITY_LEVELS,
  nowTimestamp,
  PRIORITY_LEVELS_RESOURCE,
  SUGGESTED_FLOW_SCHEMAS,
  SUGGESTED_PRIORITY_LEVELS,
  type Condition,
  type FlowSchema,
  type PriorityLevelConfiguration,
} from '@kube/apiserver';
import { semanticEqual } from '../resources/validation.helpers';
import { SYSTEM_WRITE, systemContext } from './system.context';

/** kube re-ensures the bootstrap configuration every 5 minutes once it succeeded. */
const RESYNC_MS = 5 * 60_000;
const RETRY_MS = 1000;

type FlowControlObject = FlowSchema | PriorityLevelConfiguration;

function defaulted<T extends FlowControlObject>(obj: T, plural: string): T {
  const copy = structuredClone(obj);
  if (plural === 'flowschemas') defaultFlowSchema(copy as FlowSchema);
  else defaultPriorityLevel(copy as PriorityLevelConfiguration);
  return copy;
}

/**
 * kube-apiserver's APF configuration producer (pkg/registry/flowcontrol/ensurer, post-start hook
 * `priority-and-fairness-config-producer`) and the FlowSchema status part of its APF controller:
 * - the mandatory objects are created and always kept at their fixed spec (the exempt level's `exempt` settings
 *   excepted); the suggested ones are created, and kept up to date while `apf.kubernetes.io/autoupdate-spec` is
 *   "true" (an object without the annotation gets "true" if nobody changed it, i.e. generation 1, else "false");
 * - every FlowSchema's `Dangling` condition says whether its priority level exists.
 */
@Injectable()
export class FlowControlConfigController implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('FlowControlConfig');
  private readonly dangling: Controller;
  private readonly schemas: SharedIndexInformer;
  private readonly levels: SharedIndexInformer;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private ensured = false;

  constructor(
    @Inject(GenericApiServer) private readonly server: GenericApiServer,
    @Inject(SharedInformerFactory) private readonly informers: SharedInformerFactory,
  ) {
    this.schemas = informers.informerFor(FLOW_SCHEMAS_RESOURCE);
    this.levels = informers.informerFor(PRIORITY_LEVELS_RESOURCE);
    this.dangling = new Controller({ name: 'FlowSchemaDangling', reconcile: (name) => this.syncDangling(name), waitFor: [this.schemas, this.levels] });
    const enqueueSchema = (fs: KubeObject): void => this.dangling.enqueue(fs.metadata.name as string);
    this.schemas.addEventHandler({ add: enqueueSchema, update: (_, fs) => enqueueSchema(fs) });
    // A level added or removed changes every schema that names it.
    const enqueueReferrers = (pl: KubeObject): void => {
      for (const fs of this.schemas.lister.list() as FlowSchema[]) if (fs.spec.priorityLevelConfiguration?.name === pl.metadata.name) enqueueSchema(fs);
    };
    this.levels.addEventHandler({ add: enqueueReferrers, delete: enqueueReferrers });
    server.health.add('poststarthook/priority-and-fairness-config-producer', () => {
      if (!this.ensured) throw new Error('not finished');
    }, ['readyz', 'healthz']);
  }

  onApplicationBootstrap(): void {
    this.informers.start();
    void this.dangling.run();
    void this.attempt();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.dangling.shutDown();
  }

  private async attempt(): Promise<void> {
    try {
      await this.ensure();
      this.ensured = true;
      if (!this.stopped) this.timer = setTimeout(() => void this.attempt(), RESYNC_MS);
    } catch (err) {
      if (this.stopped) return;
      this.logger.warn(`APF bootstrap configuration not ensured yet: ${(err as Error).message}`);
      this.timer = setTimeout(() => void this.attempt(), RETRY_MS);
    }
  }

  /** Ensures every bootstrap object (priority levels first, so the schemas are never dangling). */
  async ensure(): Promise<void> {
    for (const pl of MANDATORY_PRIORITY_LEVELS) await this.ensureOne('prioritylevelconfigurations', pl, true);
    for (const pl of SUGGESTED_PRIORITY_LEVELS) await this.ensureOne('prioritylevelconfigurations', pl, false);
    for (const fs of MANDATORY_FLOW_SCHEMAS) await this.ensureOne('flowschemas', fs, true);
    for (const fs of SUGGESTED_FLOW_SCHEMAS) await this.ensureOne('flowschemas', fs, false);
  }

  private async ensureOne(plural: string, bootstrap: FlowControlObject, mandatory: boolean): Promise<void> {
    const handler = this.server.handler(FLOWCONTROL_GROUP, plural);
    const name = bootstrap.metadata.name as string;
    const expected = defaulted(bootstrap, plural);
    const existing = (await handler.store.tryGet(undefined, name)) as FlowControlObject | undefined;
    if (!existing) {
      try {
        await handler.create(systemContext(), undefined, structuredClone(bootstrap) as never, SYSTEM_WRITE);
      } catch (err) {
        if (!(isStatusError(err) && err.status.reason === 'AlreadyExists')) throw err;
      }
      return;
    }
    const updated = structuredClone(existing);
    const annotation = existing.metadata.annotations?.[AUTOUPDATE_ANNOTATION];
    let autoUpdate = mandatory || annotation === 'true';
    if (!mandatory && annotation === undefined) {
      autoUpdate = (existing.metadata.generation ?? 1) === 1;
      updated.metadata.annotations = { ...existing.metadata.annotations, [AUTOUPDATE_ANNOTATION]: String(autoUpdate) };
    }
    if (autoUpdate) {
      const spec = structuredClone(expected.spec) as FlowControlObject['spec'];
      // The exempt level's `exempt` settings belong to the cluster's administrator.
      if (name === 'exempt' && plural === 'prioritylevelconfigurations') (spec as PriorityLevelConfiguration['spec']).exempt = (existing as PriorityLevelConfiguration).spec.exempt ?? (spec as PriorityLevelConfiguration['spec']).exempt;
      updated.spec = spec as never;
    }
    if (semanticEqual(updated, existing)) return;
    await handler.update(systemContext(), undefined, name, updated as never, SYSTEM_WRITE);
  }

  /** Writes the FlowSchema's Dangling condition when it changed (kube's APF controller does it by apply). */
  private async syncDangling(name: string): Promise<void> {
    const fs = this.schemas.lister.get(name) as FlowSchema | undefined;
    if (!fs) return;
    const plName = fs.spec.priorityLevelConfiguration?.name ?? '';
    const found = !!this.levels.lister.get(plName);
    const want: Condition = found
      ? { type: FLOW_SCHEMA_CONDITION_DANGLING, status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named "${plName}" and it exists` }
      : { type: FLOW_SCHEMA_CONDITION_DANGLING, status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named "${plName}" but there is no such object` };
    const current = fs.status?.conditions?.find((c) => c.type === FLOW_SCHEMA_CONDITION_DANGLING);
    if (current && current.status === want.status && current.reason === want.reason && current.message === want.message) return;
    const updated = structuredClone(fs);
    const others = (fs.status?.conditions ?? []).filter((c) => c.type !== FLOW_SCHEMA_CONDITION_DANGLING);
    updated.status = { ...fs.status, conditions: [...others, { ...want, lastTransitionTime: current?.status === want.status ? current.lastTransitionTime : nowTimestamp() }] };
    try {
      await this.server.handler(FLOWCONTROL_GROUP, 'flowschemas').update(systemContext(), undefined, name, updated as never, SYSTEM_WRITE, 'status');
    } catch (err) {
      // Deleted meanwhile: nothing to say about it. A conflict comes back through the informer.
      if (isStatusError(err) && (err.status.code === 404 || err.status.code === 409)) return;
      throw err;
    }
  }
}
