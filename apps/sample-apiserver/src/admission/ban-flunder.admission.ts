/** kube's sample "BanFlunder" admission plugin (k8s.io/sample-apiserver pkg/admission/plugin/banflunder). */
import { Errors } from '@kube/apimachinery';
import type { AdmissionAttributes, AdmissionPlugin } from '@kube/apiserver';
import type { ListResult } from '@kube/storage';
import { WARDLE_GROUP, type Fischer } from '../wardle.types';

/** Where Fischers are read from: the app's own store of them (a StorageInterface), or a stub in tests. */
export interface FischerSource {
  list(namespace: undefined): Promise<ListResult>;
}

export const BAN_FLUNDER_MESSAGE = 'this name may not be used, please change the resource name';

/**
 * Creating a Flunder whose name any Fischer lists in `disallowedFlunders` is Forbidden. Like kube's, it is a
 * mutating plugin (Admit) for CREATE only. kube reads an informer's cache; we do a consistent list (served by
 * the watch cache once it has caught up), so a Fischer created just before is always seen.
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
    const { items } = await this.fischers.list(undefined);
    return items.some((fischer) => ((fischer as Fischer).disallowedFlunders ?? []).includes(name));
  }
}
