/**
 * responsewriters.forbiddenMessage / Forbidden: one implementation, the handler chain's (with-authorization),
 * so a refused impersonation and a refused request read the same.
 */
export { forbidden as forbiddenError, forbiddenMessage } from '@kube/apiserver';
