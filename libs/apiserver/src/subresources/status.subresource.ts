import type { FieldError, KubeObject } from '@kube/apimachinery';
import type { RequestContext } from '../resource.definition';
import type { SubresourceStrategy } from './subresource.strategy';

/** Validates a /status write (only status changed); e.g. kube's ValidateAPIServiceStatusUpdate. */
export type StatusValidation = (obj: KubeObject, old: KubeObject, ctx: RequestContext) => FieldError[];

/**
 * kube's `/status`: writes through it change only `status`; writes of the resource itself never change
 * `status` (dropped on create, kept as stored on update).
 */
export function statusSubresource(validate?: StatusValidation): SubresourceStrategy {
  return {
    verbs: ['get', 'patch', 'update'],
    discovered: true,
    prepareForUpdate(incoming, old) {
      const obj: KubeObject = { ...structuredClone(old), status: incoming.status };
      if (incoming.status === undefined) delete obj.status;
      return obj;
    },
    validateUpdate: validate,
    prepareResourceForCreate(obj) {
      delete obj.status;
    },
    prepareResourceForUpdate(obj, old) {
      if (old.status === undefined) delete obj.status;
      else obj.status = structuredClone(old.status);
    },
  };
}
