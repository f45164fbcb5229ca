import type { ResourceDefinition } from '@kube/apiserver';
import { WARDLE_GROUP } from '../wardle.types';
import { fischersResource } from './fischers.resource';
import { flundersResource } from './flunders.resource';

export { fischersResource } from './fischers.resource';
export { defaultFlunder, flunderStrategy, flundersResource, validateFlunder } from './flunders.resource';

/** etcd keys default to /registry/wardle.example.com/<plural>/…, apart from every built-in resource. */
export const DEFAULT_STORAGE_ROOT = WARDLE_GROUP;

/** etcd key segment of one wardle resource: /registry/<storageRoot>/<plural>/. */
export function wardleStoragePrefix(plural: string, storageRoot = DEFAULT_STORAGE_ROOT): string {
  return `${storageRoot}/${plural}`;
}

/** The wardle resources, stored under /registry/<storageRoot>/<plural>/. */
export function wardleResources(storageRoot = DEFAULT_STORAGE_ROOT): ResourceDefinition[] {
  return [flundersResource, fischersResource].map((def) => ({ ...def, storagePrefix: wardleStoragePrefix(def.plural, storageRoot) }));
}
