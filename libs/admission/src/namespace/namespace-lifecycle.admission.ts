import { Errors, type KubeObject } from '@kube/apimachinery';
import type { AdmissionAttributes, AdmissionPlugin } from '../admission.types';
import type { GetOptions, StorageInterface } from '@kube/storage';

/** Namespaces kube never lets anyone delete. */
export const IMMORTAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);

const NAMESPACES = { group: '', resource: 'namespaces' };
/** Whatever the watch cache holds: no round trip. */
const FROM_CACHE: GetOptions = { resourceVersion: '0' };

/**
 * kube's NamespaceLifecycle admission: no content in a missing namespace (404) or a terminating one (403),
 * and the system namespaces cannot be deleted.
 */
export class NamespaceLifecycleAdmission implements AdmissionPlugin {
  readonly name = 'NamespaceLifecycle';

  /** `namespaces`: the namespaces storage, or anything that reads Namespaces as it does (an aggregated server's, through the API). */
  constructor(private readonly namespaces: Pick<StorageInterface, 'tryGet'>) {}

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.resource.group === '' && a.resource.plural === 'namespaces') {
      if (a.operation === 'DELETE' && IMMORTAL_NAMESPACES.has(a.name)) throw Errors.forbidden(NAMESPACES, a.name, 'this namespace may not be deleted');
      return;
    }
    if (!a.resource.namespaced || a.operation !== 'CREATE') return;
    const ns = await this.lookup(a.namespace);
    if (!ns) throw Errors.notFound(NAMESPACES, a.namespace);
    if (ns.metadata.deletionTimestamp || (ns.status as { phase?: string } | undefined)?.phase === 'Terminating') {
      const err = Errors.forbidden({ group: a.resource.group, resource: a.resource.plural }, a.name, `unable to create new content in namespace ${a.namespace} because it is being terminated`);
      err.status.details = { ...err.status.details, causes: [{ reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' }] };
      throw err;
    }
  }

  /** The cached copy first (cheap); a miss is confirmed by a consistent read, as kube's lister fallback does. */
  private async lookup(name: string): Promise<KubeObject | undefined> {
    return (await this.namespaces.tryGet(undefined, name, FROM_CACHE)) ?? this.namespaces.tryGet(undefined, name);
  }
}
