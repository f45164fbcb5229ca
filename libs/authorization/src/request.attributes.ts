/** authorizer.AttributesRecord of a request (filters.GetAuthorizerAttributes): the handler chain's own. */
export { authorizationAttributes as requestAttributes } from '@kube/apiserver';
