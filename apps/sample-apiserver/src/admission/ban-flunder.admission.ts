/** kube's sample "BanFlunder" admission plugin (k8s.io/sample-apiserver pkg/admission/plugin/banflunder). */
import { Errors } from '@kube/apimachinery';
import type { AdmissionAttributes, AdmissionPlugin } from '@kube/apiserver';
import type { ListOptions, ListResult } from '@kube/storage';
import { WARDLE_GROUP, type Fischer } from '../wardle.types';

/** Where Fischers are read from: the app's own store of them (a StorageInterface), or a stub in tests. */
export interface FischerSource {
  list(namespace: undefined, opts: ListOptions): Promise<ListResult>;
}

/** What the watch cache holds, without proving it fresh (kube's lister): a consistent list would cost each create an etcd round trip. */
const FROM_CACHE: ListOptions = { resourceVersion: '0' };

export const BAN_FLUNDER_MESSAGE = 'this name may not be used, please change the resource name';

/**
 * Creating a Flunder whose name any Fischer lists in `disallowedFlunders` is Forbidden. Like kube's, it is a
 * mutating plugin (Admit) for CREATE only. Like kube's, it reads the Fischers its own cache holds (an informer's
 * lister there, the watch cache here): a Fischer written an instant before may not be seen yet, and no create
 * pays an etcd round trip (an aggregated server's consistent reads go to etcd: its cache watches its own prefix
 * only and cannot prove itself fresh).
 */
export class BanFlunderAdmission implements AdmissionPlugin {
  readonly name = 'BanFlunder';

  constructor(private readonly fischers: FischerSource) {}

  async admit(attrs: AdmissionAttributes): Promise<void> {
    if (attrs.operation !== 'CREATE' || attrs.subresource !== '') return;
    if (attrs.resource.group !== WARDLE_GROUP || attrs.resource.kind !== 'Flunder') return;
    const name = attrs.object?.metadata.name ?? attrs.name;
    if (await this.isDisallowed(name)) {
      throw Errors.forbidden({ group: attrs.resource.group, resource: attrs.resource.plural }, name, BAN_FLUNDER_MESSAGE);
    }
  }

  private async isDisallowed(name: string): Promise<boolean> {
    const { items } = await this.fischers.list(undefined, FROM_CACHE);
    return items.some((fischer) => ((fischer as Fischer).disallowedFlunders ?? []).includes(name));
  }
}
