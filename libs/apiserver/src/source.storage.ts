import { Errors, type GroupResource, type KubeObject } from '@kube/apimachinery';
import type { GetOptions, ListOptions, ListResult, Storage, StorageEvent, StorageInterface, UpdateResult, WatchChannel } from '@kube/storage';
import type { ResourceDefinition, ResourceSource } from './resource.definition';

/**
 * The storage of a computed resource (`ResourceDefinition.source`, metrics-server's model): reads are answered
 * by the source's code for the asking user; there is nothing to write or watch, so those answer 405.
 */
export class SourceStorage implements StorageInterface {
  constructor(
    readonly resource: GroupResource,
    private readonly source: ResourceSource,
  ) {}

  start(): Promise<void> {
    return Promise.resolve();
  }

  async get(namespace: string | undefined, name: string, opts?: GetOptions): Promise<KubeObject> {
    const obj = await this.tryGet(namespace, name, opts);
    if (!obj) throw Errors.notFound(this.resource, name);
    return obj;
  }

  async tryGet(namespace: string | undefined, name: string, opts?: GetOptions): Promise<KubeObject | undefined> {
    return this.source.get({ namespace, name, user: this.userOf(opts) });
  }

  /** Computed objects have no revision: the list carries none, as metrics-server's lists do; no paging either. */
  async list(namespace: string | undefined, opts: ListOptions = {}): Promise<ListResult> {
    const all = await this.source.list({ namespace, user: this.userOf(opts) });
    return { items: opts.predicate ? all.filter(opts.predicate) : all, resourceVersion: '' };
  }

  create(): Promise<KubeObject> {
    return Promise.reject(this.notSupported('create'));
  }

  guaranteedUpdate(): Promise<UpdateResult> {
    return Promise.reject(this.notSupported('update'));
  }

  delete(): Promise<KubeObject> {
    return Promise.reject(this.notSupported('delete'));
  }

  watch(): Promise<WatchChannel<StorageEvent>> {
    return Promise.reject(this.notSupported('watch'));
  }

  /** The REST layer always says who asks; a read without a user is the server's own and has no answer here. */
  private userOf(opts: GetOptions | undefined): NonNullable<GetOptions['user']> {
    if (!opts?.user) throw Errors.internal(new Error(`${this.resource.resource}: a computed resource is read on behalf of a user`));
    return opts.user;
  }

  private notSupported(verb: string): Error {
    return Errors.methodNotSupported(this.resource, verb);
  }
}

/** The storage a resource is served from: its source for a computed resource, else etcd behind the watch cache. */
export function storageFor(def: ResourceDefinition, storage: Storage): StorageInterface {
  const resource = { group: def.group, resource: def.plural };
  if (def.source) return new SourceStorage(resource, def.source);
  return storage.resource(resource, storagePrefixOf(def));
}

/** The etcd key segment of a stored resource (every version of a resource shares it). */
export function storagePrefixOf(def: ResourceDefinition): string {
  return def.storagePrefix ?? (def.group === '' ? def.plural : `${def.group}/${def.plural}`);
}
