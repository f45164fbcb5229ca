/**
 * Where admission reads its configuration: the four admissionregistration.k8s.io kinds through informers (started
 * at the first admitted write, then kept current by their watch), and namespaces, Services and parameter objects
 * through an AdmissionBackend: the process's storage (core-api, extensions: the watch caches, no etcd round
 * trip) or the control plane's API (SDK servers). Consumers rebuild what they derive from a kind only when its
 * `generation` moved, so a request never re-reads or re-compiles configuration.
 */
import { Errors, LabelSelector, type GroupResource, type KubeObject } from '@kube/apimachinery';
import { SharedIndexInformer, storageListerWatcher, type ListerWatcher } from '@kube/client';
import type { GetOptions, StorageInterface } from '@kube/storage';
import type { AdmissionAttributes } from '../admission.types';
import { ADMISSION_REGISTRATION_GROUP } from '../registration/admissionregistration.types';
import type { ServiceResolver } from '../webhook/webhook.client';

export type ConfigurationKind = 'mutatingwebhookconfigurations' | 'validatingwebhookconfigurations' | 'validatingadmissionpolicies' | 'validatingadmissionpolicybindings';

const CONFIGURATION_KINDS: readonly ConfigurationKind[] = ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings'];

/** How long a write waits for the configuration informers' first list before it is refused (kube: not ready). */
const SYNC_TIMEOUT_MS = 10_000;

/** Where admission reads from. */
export interface AdmissionBackend {
  /** List+watch of one admissionregistration.k8s.io/v1 kind (cluster-scoped). */
  listerWatcher(kind: ConfigurationKind): ListerWatcher;
  /** A Namespace, as recent as the backend's cache. */
  namespace(name: string): Promise<KubeObject | undefined>;
  /** One object of a kind (policies' paramKind), or every one matching `selector` when no name is given. */
  objects(apiVersion: string, kind: string, namespace: string | undefined, name: string | undefined, selector: LabelSelector): Promise<KubeObject[]>;
  /** Resolves webhook Services to an endpoint address. */
  resolveService?: ServiceResolver;
  stop?(): void;
}

/** What admission needs of a process's Storage (libs/storage's Storage is one). */
export interface AdmissionStorage {
  resource(resource: GroupResource, storagePrefix: string): StorageInterface;
}

/** Whatever the watch cache holds: no round trip. */
const FROM_CACHE: GetOptions = { resourceVersion: '0' };

/** The plural a parameter kind is served and stored under: kube's UnsafeGuessKindToResource, except that a vowel + y takes an s (gateways). */
export function guessResource(kind: string): string {
  const lower = kind.toLowerCase();
  if (lower.endsWith('s')) return `${lower}es`;
  if (lower.endsWith('y') && !/[aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

/** The group of an apiVersion ('' for the core group's "v1"). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** The process's etcd stores: admissionregistration at kube's `/registry/<resource>/`, parameters by kube's key layout. */
export function storageAdmissionBackend(storage: AdmissionStorage, resolveService?: ServiceResolver): AdmissionBackend {
  const namespaces = storage.resource({ group: '', resource: 'namespaces' }, 'namespaces');
  return {
    listerWatcher: (kind) => storageListerWatcher(storage.resource({ group: ADMISSION_REGISTRATION_GROUP, resource: kind }, kind)),
    namespace: async (name) => (await namespaces.tryGet(undefined, name, FROM_CACHE)) ?? undefined,
    objects: async (apiVersion, kind, namespace, name, selector) => {
      const group = groupOf(apiVersion);
      const resource = guessResource(kind);
      const store = storage.resource({ group, resource }, group === '' ? resource : `${group}/${resource}`);
      if (name) {
        const one = await store.tryGet(namespace || undefined, name, FROM_CACHE);
        return one ? [one] : [];
      }
      const { items } = await store.list(namespace || undefined, FROM_CACHE);
      return items.filter((o) => selector.matches(o.metadata.labels));
    },
    resolveService,
  };
}

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

export class AdmissionSources {
  private readonly sets = new Map<ConfigurationKind, ConfigurationSet>();
  private started?: Promise<void>;
  private synced = false;

  constructor(private readonly backend: AdmissionBackend) {
    for (const kind of CONFIGURATION_KINDS) this.sets.set(kind, new ConfigurationSet(new SharedIndexInformer(kind, backend.listerWatcher(kind))));
  }

  /** Admission over a process's own storage (the servers sharing core-api's etcd). */
  static forStorage(storage: AdmissionStorage, resolveService?: ServiceResolver): AdmissionSources {
    return new AdmissionSources(storageAdmissionBackend(storage, resolveService));
  }

  get resolveService(): ServiceResolver | undefined {
    return this.backend.resolveService;
  }

  set(kind: ConfigurationKind): ConfigurationSet {
    return this.sets.get(kind)!;
  }

  /**
   * Resolves once every configuration informer has synced (they start with the first call); a write that waited
   * too long is refused as kube refuses writes before its admission plugins are ready. Undefined once synced.
   */
  ready(a: AdmissionAttributes): Promise<void> | undefined {
    if (this.synced) return undefined;
    this.started ??= (async () => {
      for (const set of this.sets.values()) set.informer.run();
      await Promise.all([...this.sets.values()].map((s) => s.informer.waitForSync()));
      this.synced = true;
    })();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Errors.forbidden({ group: a.resource.group, resource: a.resource.plural }, a.name, 'not yet ready to handle request')), SYNC_TIMEOUT_MS);
    });
    return Promise.race([this.started, timeout]).finally(() => clearTimeout(timer));
  }

  namespace(name: string): Promise<KubeObject | undefined> {
    return this.backend.namespace(name);
  }

  async param(apiVersion: string, kind: string, namespace: string | undefined, name: string): Promise<KubeObject | undefined> {
    return (await this.backend.objects(apiVersion, kind, namespace, name, LabelSelector.everything()))[0];
  }

  params(apiVersion: string, kind: string, namespace: string | undefined, selector: LabelSelector): Promise<KubeObject[]> {
    return this.backend.objects(apiVersion, kind, namespace, undefined, selector);
  }

  stop(): void {
    for (const set of this.sets.values()) set.informer.stop();
    this.backend.stop?.();
  }
}
