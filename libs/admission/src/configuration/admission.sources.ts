/**
 * Where admission reads its configuration: the four admissionregistration.k8s.io kinds through informers (started
 * at the first admitted write, then kept current by their watch), and namespaces, Services and parameter objects
 * read from the watch caches (resourceVersion 0: no etcd round trip). Consumers rebuild what they derive from a
 * kind only when its `generation` moved, so a request never re-reads or re-compiles configuration.
 */
import type { GroupResource, KubeObject, LabelSelector } from '@kube/apimachinery';
import { SharedIndexInformer, storageListerWatcher } from '@kube/client';
import type { GetOptions, StorageInterface } from '@kube/storage';
import { ADMISSION_REGISTRATION_GROUP } from '../registration/admissionregistration.types';
import type { ServiceResolver } from '../webhook/webhook.client';

/** What admission needs of a process's Storage (libs/storage's Storage is one). */
export interface AdmissionStorage {
  resource(resource: GroupResource, storagePrefix: string): StorageInterface;
}

/** Whatever the watch cache holds: no round trip. */
const FROM_CACHE: GetOptions = { resourceVersion: '0' };

export type ConfigurationKind = 'mutatingwebhookconfigurations' | 'validatingwebhookconfigurations' | 'validatingadmissionpolicies' | 'validatingadmissionpolicybindings';

/** One watched kind: its objects sorted by name, and a generation that moves on every change. */
export class ConfigurationSet {
  private sorted?: KubeObject[];
  generation = 0;

  constructor(readonly informer: SharedIndexInformer) {
    const changed = (): void => {
      this.generation++;
      this.sorted = undefined;
    };
    informer.addEventHandler({ add: changed, update: changed, delete: changed });
  }

  /** Objects in name order (kube sorts configurations by name), computed once per change. */
  list(): readonly KubeObject[] {
    this.sorted ??= this.informer.lister.list().sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
    return this.sorted;
  }
}

/** kube's UnsafeGuessKindToResource: the plural a parameter kind is stored under. */
export function guessResource(kind: string): string {
  const lower = kind.toLowerCase();
  if (lower.endsWith('s')) return `${lower}es`;
  if (lower.endsWith('y') && !/[aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

export class AdmissionSources {
  private readonly sets = new Map<ConfigurationKind, ConfigurationSet>();
  private started?: Promise<void>;
  private synced = false;
  private readonly namespaces: StorageInterface;

  constructor(
    private readonly storage: AdmissionStorage,
    /** Resolves webhook Services (libs/apiserver's resolveServiceEndpoint over this storage). */
    readonly resolveService?: ServiceResolver,
  ) {
    for (const kind of ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings'] as const) {
      // kube's key layout for admissionregistration: /registry/<resource>/<name>.
      const informer = new SharedIndexInformer(kind, storageListerWatcher(storage.resource({ group: ADMISSION_REGISTRATION_GROUP, resource: kind }, kind)));
      this.sets.set(kind, new ConfigurationSet(informer));
    }
    this.namespaces = storage.resource({ group: '', resource: 'namespaces' }, 'namespaces');
  }

  set(kind: ConfigurationKind): ConfigurationSet {
    return this.sets.get(kind)!;
  }

  /** Resolves once every configuration informer has synced (they start with the first call). */
  ready(): Promise<void> | undefined {
    if (this.synced) return undefined;
    this.started ??= (async () => {
      for (const set of this.sets.values()) set.informer.run();
      await Promise.all([...this.sets.values()].map((s) => s.informer.waitForSync()));
      this.synced = true;
    })();
    return this.started;
  }

  async namespace(name: string): Promise<KubeObject | undefined> {
    return (await this.namespaces.tryGet(undefined, name, FROM_CACHE)) ?? undefined;
  }

  /** A parameter object (policies' paramKind) by group/kind: the core group under /registry/<plural>, others under <group>/<plural>. */
  private paramStore(apiVersion: string, kind: string): StorageInterface {
    const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
    const resource = guessResource(kind);
    return this.storage.resource({ group, resource }, group === '' ? resource : `${group}/${resource}`);
  }

  async param(apiVersion: string, kind: string, namespace: string | undefined, name: string): Promise<KubeObject | undefined> {
    return (await this.paramStore(apiVersion, kind).tryGet(namespace || undefined, name, FROM_CACHE)) ?? undefined;
  }

  async params(apiVersion: string, kind: string, namespace: string | undefined, selector: LabelSelector): Promise<KubeObject[]> {
    const { items } = await this.paramStore(apiVersion, kind).list(namespace || undefined, { resourceVersion: '0' });
    return items.filter((o) => selector.matches(o.metadata.labels));
  }

  stop(): void {
    for (const set of this.sets.values()) set.informer.stop();
  }
}
