/** wardle.example.com/v1alpha1 Fischer: cluster-scoped, lists the Flunder names BanFlunder refuses. */
import type { KubeObject } from '@kube/apimachinery';
import type { ResourceDefinition } from '@kube/apiserver';
import { FISCHER_SCHEMA, wardleV1alpha1Components } from '../openapi/wardle-v1alpha1.schemas';
import { WARDLE_GROUP, WARDLE_VERSION, type Fischer } from '../wardle.types';

export const fischersResource: ResourceDefinition = {
  group: WARDLE_GROUP,
  version: WARDLE_VERSION,
  kind: 'Fischer',
  plural: 'fischers',
  singular: 'fischer',
  namespaced: false,
  schema: { name: FISCHER_SCHEMA, components: wardleV1alpha1Components },
  tableColumns: [
    {
      name: 'Disallowed Flunders',
      type: 'string',
      description: 'DisallowedFlunders holds a list of Flunder.Names that are disallowed.',
      cell: (obj: KubeObject) => ((obj as Fischer).disallowedFlunders ?? []).join(','),
    },
  ],
};
