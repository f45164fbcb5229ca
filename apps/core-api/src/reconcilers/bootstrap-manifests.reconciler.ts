import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { parseAllDocuments } from 'yaml';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { GenericApiServer, type ResourceDefinition } from '@kube/apiserver';
import { RbacBootstrapController } from './rbac-bootstrap.reconciler';
import { SYSTEM_WRITE, systemContext } from './system.context';

/** Injection token of the manifests' location (a file or a directory), from KUBE_BOOTSTRAP_MANIFESTS. */
export const BOOTSTRAP_MANIFESTS = Symbol('BOOTSTRAP_MANIFESTS');

/** The field manager of the objects it applies: `kubectl get -o yaml --show-managed-fields` names it. */
export const BOOTSTRAP_FIELD_MANAGER = 'kube-ts-bootstrap';

const RETRY_MS = 1000;
/** A namespace a manifest needs may be created a moment later (the system ones, by the bootstrap controller). */
const NAMESPACE_WAIT_ATTEMPTS = 30;

/** One object read from the manifests, or why it cannot be applied. */
export type BootstrapManifest = { source: string; object: KubeObject } | { source: string; error: string };

/** Reads every `.yaml`, `.yml` and `.json` file of `location` (a file or a directory, in name order). */
export function readBootstrapManifests(location: string): BootstrapManifest[] {
  const files = statSync(location).isDirectory()
    ? readdirSync(location)
        .filter((f) => /\.(ya?ml|json)$/.test(f) && !f.startsWith('.'))
        .sort()
        .map((f) => join(location, f))
    : [location];
  const out: BootstrapManifest[] = [];
  for (const file of files) {
    parseAllDocuments(readFileSync(file, 'utf8')).forEach((doc, i) => {
      const source = `${file}#${i}`;
      if (doc.errors.length) return void out.push({ source, error: doc.errors[0].message });
      const value: unknown = doc.toJS();
      if (value === null || value === undefined) return;
      const obj = value as Partial<KubeObject>;
      if (typeof obj !== 'object' || Array.isArray(obj) || !obj.apiVersion || !obj.kind || typeof obj.metadata?.name !== 'string') {
        return void out.push({ source, error: 'not an object with apiVersion, kind and metadata.name' });
      }
      out.push({ source, object: obj as KubeObject });
    });
  }
  // Namespaces first, so the objects they hold can be created in the same pass.
  return out.sort((a, b) => rank(a) - rank(b));
}

const rank = (m: BootstrapManifest): number => ('object' in m && m.object.kind === 'Namespace' ? 0 : 1);

/**
 * Objects the installer wants to exist from the first start, applied by core-api itself: the Helm chart uses it
 * for the RBAC its own aggregated API servers need inside kube-ts (they register themselves through the front
 * door with their own identities, which start with no rights). kube has no equivalent flag; it is the
 * addon-manager's job there. Each object is server-side applied with force by `kube-ts-bootstrap` at every
 * start, so a chart upgrade updates what it set while fields other managers own stay. Only kinds core-api serves.
 * An object that cannot be applied (unknown kind, invalid) is logged and skipped; storage errors retry.
 */
@Injectable()
export class BootstrapManifestsController implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('BootstrapManifests');
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private applied = false;
  private attempts = 0;

  constructor(
    @Inject(GenericApiServer) private readonly server: GenericApiServer,
    @Inject(RbacBootstrapController) private readonly rbac: RbacBootstrapController,
    @Inject(BOOTSTRAP_MANIFESTS) private readonly location: string | undefined,
  ) {
    if (!location) return;
    server.health.add('poststarthook/kube-ts/bootstrap-manifests', () => {
      if (!this.applied) throw new Error('not finished');
    }, ['readyz']);
  }

  onApplicationBootstrap(): void {
    if (this.location) void this.rbac.done.then(() => this.attempt(this.location as string));
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private async attempt(location: string): Promise<void> {
    if (this.stopped) return;
    this.attempts++;
    try {
      const skipped = await this.applyAll(readBootstrapManifests(location));
      this.applied = true;
      this.logger.log(`bootstrap manifests from ${location} applied${skipped ? `, ${skipped} skipped` : ''}`);
    } catch (err) {
      if (this.stopped) return;
      this.logger.warn(`bootstrap manifests not applied yet: ${(err as Error).message}`);
      this.timer = setTimeout(() => void this.attempt(location), RETRY_MS);
    }
  }

  /** Applies each object; returns how many were skipped as unappliable. Throws on errors worth a retry. */
  async applyAll(manifests: readonly BootstrapManifest[]): Promise<number> {
    let skipped = 0;
    for (const m of manifests) {
      const problem = 'error' in m ? m.error : await this.applyOne(m.object);
      if (problem) {
        skipped++;
        this.logger.error(`${m.source}: skipped: ${problem}`);
      }
    }
    return skipped;
  }

  /** Undefined when applied; the reason when the object can never be applied as written. */
  private async applyOne(obj: KubeObject): Promise<string | undefined> {
    const def = this.resourceFor(obj);
    if (!def) return `core-api serves no ${obj.kind} in ${obj.apiVersion}`;
    const ns = def.namespaced ? (obj.metadata.namespace ?? 'default') : undefined;
    if (ns) obj.metadata.namespace = ns;
    try {
      await this.server.handler(def.group, def.plural).apply(systemContext(), ns, obj.metadata.name as string, obj as never, { ...SYSTEM_WRITE, fieldValidation: 'Strict', fieldManager: BOOTSTRAP_FIELD_MANAGER, force: true });
      return undefined;
    } catch (err) {
      // 4xx other than conflicts and throttling: the manifest itself is wrong; retrying cannot help.
      if (isStatusError(err) && err.status.code === 404 && this.attempts < NAMESPACE_WAIT_ATTEMPTS) throw err;
      if (isStatusError(err) && err.status.code >= 400 && err.status.code < 500 && err.status.code !== 409 && err.status.code !== 429) return err.status.message;
      throw err;
    }
  }

  private resourceFor(obj: KubeObject): ResourceDefinition | undefined {
    const apiVersion = obj.apiVersion ?? '';
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
    return this.server.resources.find((d) => d.group === group && d.version === version && d.kind === obj.kind && !d.createOnly && !d.source);
  }
}
