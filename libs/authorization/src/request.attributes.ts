import type { AuthorizationAttributes, RequestInfo, UserInfo } from '@kube/apiserver';

/** authorizer.AttributesRecord of a request (filters.GetAuthorizerAttributes). */
export function requestAttributes(user: UserInfo, info: RequestInfo): AuthorizationAttributes {
  return {
    user,
    verb: info.verb,
    resourceRequest: info.isResourceRequest,
    path: info.path,
    apiGroup: info.group,
    apiVersion: info.version,
    resource: info.resource,
    subresource: info.subresource,
    namespace: info.namespace,
    name: info.name,
  };
}
