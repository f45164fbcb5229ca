import { StatusError } from '@kube/apimachinery';
import type { AuthorizationAttributes } from '@kube/apiserver';
import { goQuote } from './go.format';

/** responsewriters.forbiddenMessage: `User "alice" cannot list resource "pods" in API group "" in the namespace "dev"`. */
export function forbiddenMessage(attrs: AuthorizationAttributes): string {
  const user = goQuote(attrs.user.name);
  if (!attrs.resourceRequest) return `User ${user} cannot ${attrs.verb} path ${goQuote(attrs.path)}`;
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const scope = attrs.namespace ? `in the namespace ${goQuote(attrs.namespace)}` : 'at the cluster scope';
  return `User ${user} cannot ${attrs.verb} resource ${goQuote(resource)} in API group ${goQuote(attrs.apiGroup)} ${scope}`;
}

/**
 * responsewriters.Forbidden: a 403 Status naming the resource (apierrors.NewForbidden), the reason appended.
 * Non-resource requests read `forbidden: User "x" cannot get path "/metrics"`.
 */
export function forbiddenError(attrs: AuthorizationAttributes, reason: string): StatusError {
  const why = reason ? `${forbiddenMessage(attrs)}: ${reason}` : forbiddenMessage(attrs);
  const qualified = attrs.apiGroup ? `${attrs.resource}.${attrs.apiGroup}` : attrs.resource;
  let message: string;
  if (!attrs.resource && !attrs.apiGroup) message = `forbidden: ${why}`;
  else if (!attrs.name) message = `${qualified} is forbidden: ${why}`;
  else message = `${qualified} ${goQuote(attrs.name)} is forbidden: ${why}`;
  const details: Record<string, string> = {};
  if (attrs.name) details.name = attrs.name;
  if (attrs.apiGroup) details.group = attrs.apiGroup;
  details.kind = attrs.resource;
  return new StatusError(403, 'Forbidden', message, details);
}
