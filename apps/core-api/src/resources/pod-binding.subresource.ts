/**
 * pods/binding (kube's BindingREST in pkg/registry/core/pod/storage): a scheduler POSTs a core/v1 Binding and the
 * pod gets spec.nodeName, the binding's annotations and PodScheduled=True in one guaranteed update. A pod
 * already bound, being deleted or still gated is a 409 Conflict on pods/binding with kube's message.
 */
import { Errors, FieldError, isStatusError, StatusError, type KubeObject } from '@kube/apimachinery';
import { nowTimestamp, type SubresourceStrategy } from '@kube/apiserver';
import type { StorageInterface } from '@kube/storage';
import { isRecord } from './validation.helpers';

interface Binding extends KubeObject {
  target?: { kind?: string; name?: string; apiVersion?: string };
}

interface BoundPod extends KubeObject {
  spec?: { nodeName?: string; schedulingGates?: unknown[] };
  status?: { conditions?: Array<{ type: string; status: string; lastProbeTime?: string | null; lastTransitionTime?: string }> };
}

const BINDING_KIND = { group: '', version: 'v1', kind: 'Binding' };
const PODS_BINDING = { group: '', resource: 'pods/binding' };

/** ValidatePodBinding. */
function validateBinding(binding: Binding): FieldError[] {
  const errs: FieldError[] = [];
  const kind = binding.target?.kind ?? '';
  if (kind !== '' && kind !== 'Node') errs.push(FieldError.notSupported('target.kind', kind, ['Node', '<empty>']));
  if (!binding.target?.name) errs.push(FieldError.required('target.name'));
  return errs;
}

/** A rejection inside the update: kube wraps a plain error from setPodNodeAndMetadata as a Conflict on pods/binding. */
class BindRefused extends Error {}

/** POST pods/<name>/binding: 201 Success once the pod is assigned. */
export function podBindingSubresource(pods: StorageInterface): SubresourceStrategy {
  return {
    verbs: ['create'],
    discovered: true,
    prepareForUpdate: (_incoming, old) => old,
    creater: {
      kind: BINDING_KIND,
      create: async (pod: KubeObject, body: unknown, ctx): Promise<KubeObject> => {
        const binding = (isRecord(body) ? body : {}) as Binding;
        const name = pod.metadata.name as string;
        if ((binding.metadata?.name ?? '') !== name) throw Errors.badRequest('name in URL does not match name in Binding object');
        const errs = validateBinding(binding);
        if (errs.length) throw Errors.invalid(BINDING_KIND, name, errs);
        const node = binding.target?.name as string;
        const preconditions = binding.metadata.uid || binding.metadata.resourceVersion ? { uid: binding.metadata.uid, resourceVersion: binding.metadata.resourceVersion } : undefined;
        try {
          await pods.guaranteedUpdate(
            pod.metadata.namespace,
            name,
            (current) => {
              const next = structuredClone(current as BoundPod);
              if (next.metadata.deletionTimestamp) throw new BindRefused(`pod ${name} is being deleted, cannot be assigned to a host`);
              const spec = (next.spec ??= {});
              if (spec.nodeName) throw new BindRefused(`pod ${name} is already assigned to node "${spec.nodeName}"`);
              if (spec.schedulingGates?.length) throw new BindRefused(`pod ${name} has non-empty .spec.schedulingGates`);
              spec.nodeName = node;
              if (binding.metadata.annotations) next.metadata.annotations = { ...next.metadata.annotations, ...binding.metadata.annotations };
              // podutil.UpdatePodCondition: the transition time moves only when the status changes.
              const status = (next.status ??= {});
              const conditions = (status.conditions ??= []);
              const existing = conditions.find((c) => c.type === 'PodScheduled');
              if (!existing) conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: nowTimestamp() });
              else if (existing.status !== 'True') Object.assign(existing, { status: 'True', lastTransitionTime: nowTimestamp(), reason: undefined, message: undefined });
              return next;
            },
            { preconditions, dryRun: ctx.dryRun },
          );
        } catch (err) {
          if (err instanceof BindRefused) throw Errors.conflict(PODS_BINDING, name, err.message);
          if (isStatusError(err) && err.code === 404) throw Errors.notFound({ group: '', resource: 'pods' }, name);
          if (err instanceof StatusError) throw err;
          throw Errors.conflict(PODS_BINDING, name, (err as Error).message);
        }
        return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } as unknown as KubeObject;
      },
    },
  };
}
