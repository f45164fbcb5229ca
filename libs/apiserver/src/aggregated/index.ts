/**
 * What an aggregated API server needs beyond the generic server: its serving certificate, its registration as
 * an APIService (objects, client, NestJS module) and a ready-made main. Part of the SDK: used by the sample and
 * by apps the scaffold creates (scripts/new-apiserver.ts).
 */
export { apiServiceName, apiServiceObject, endpointsObject, registrationObjects, serviceObject, SERVICE_PORT, type ApiServiceRegistration } from './apiservice.objects';
export {
  ApiServiceRegistrar,
  endpointAddress,
  SELF_REGISTRATION,
  SelfRegistrationModule,
  type ApiServiceIdentity,
  type RegistrationOptions,
  type SelfRegistrationOptions,
} from './apiservice.registrar';
export { ApiClient, kubeConfigFor, statusErrorOf, type RegistrationTarget } from './api.client';
export { delegatedAuthentication } from './delegated-authentication';
export { TokenReviewAuthenticator, type TokenReviewer, type TokenReviewStatus } from './token-review.authenticator';
export { RegistrationClient, collectionPath } from './registration.client';
export { registrationTargetFromEnv } from './registration.env';
export { issueServingCertificate, servingCertificateFromEnv, type ServingCertificateFiles, type ServingIdentity } from './serving-certificate';
export { authorizationModeFromEnv, runAggregatedServer, startAggregatedServer, type AggregatedAuthorizationMode, type AggregatedServerOptions, type AggregatedServerSpec } from './aggregated-server.main';
export { type AggregatedAdmissionFactory, AggregatedApiServerModule, aggregatedAuthorizer, aggregatedEtcdPrefix, type AggregatedApiServerModuleOptions } from './aggregated-api-server.module';
export { controlPlaneStores, type ControlPlaneStores } from './control-plane.stores';
export { AGGREGATED_SERVICE_NAMESPACE, aggregatedServerRbac, aggregatedServerUser, type AggregatedServerAccess, type RbacRule } from './aggregated-server.rbac';
