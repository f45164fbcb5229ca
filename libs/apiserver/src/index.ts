export * from './resource.definition';
export * from './subresources';
export { GenericApiServer, KUBE_VERSION, KUBE_VERSION_JSON, type ApiServerOptions, type VersionInfo } from './api-server';
export { RestHandler, PATCH_CONTENT_TYPES, type FieldValidation, type ListQuery, type PatchType, type WriteOptions } from './rest.handler';
export { HealthChecks, type HealthCheck, type HealthEndpoint } from './health.checks';
export { Authenticator, isPublicPath, type AuthenticationOptions, type RequestHeaderOptions } from './authentication';
export { retrying } from './retrying';
export { EXTENSION_APISERVER_AUTHENTICATION, extensionApiserverAuthenticationData, requestHeaderFromConfigMap } from './authentication.configmap';
export { serverConfigFromEnv, etcdTlsFromEnv, natsTlsFromEnv, parseTokenFile, serviceAccountOptionsFromEnv, storageFor, type ServerConfig } from './server.config';
export { ObjectFilter } from './object.filter';
export { formatTimestamp, nowTimestamp } from './object-meta';
export { DiscoveryDocuments, storageVersionHash } from './discovery';
export { ApiServerModule, ApiServerLifecycle, SERVER_CONFIG, API_SERVER_RESOURCES, ADMISSION_PLUGINS, type ApiServerModuleOptions, type ListOption, type ListProvider } from './api-server.module';
export { informerProviders, InformerFactoryLifecycle } from './informers.providers';
/** Every server process boots through it (a Nest microservice carrying the NATS registration messages). */
export { createServerApp } from '@kube/registration';
export * from './openapi';
export { NamespaceLifecycleAdmission, IMMORTAL_NAMESPACES } from '@kube/admission';
export { prettyPrint, writeStatus } from './response.writer';
export { chunkedSocket } from './chunked.socket';
export { listOptions, parseInt64, queryBool, queryInt64, queryOptionalBool, type ListWatchOptions, type QueryValues } from './query.params';
export { resolveServiceEndpoint, serviceStores, type ObjectReader, type ServiceReference, type ServiceResolution, type ServiceResolutionFailure, type ServiceStores } from './service.resolver';
export { closeGracefully, listenHttps, serveUpgrades, type SecureServer } from './https.listener';
export { http2ServingFromEnv, type Http2ServingOptions } from './http2.serving';
export * from './aggregated';
export { appLogger, JsonLogger, logFormatFromEnv, logStartupFailure, type LogFormat, type LogSink } from './logging/json.logger';
export { installLastResortHandlers, type ProcessEvents } from './logging/last-resort.handler';
export { SHUTDOWN_SIGNALS, stopOnShutdownSignals } from './lifecycle/shutdown.signals';
export { RequestLog, requestIdOf, requestLogOptionsFromEnv, type RequestLogEntry, type RequestLogOptions } from './logging/request.log';
export { AUTHORIZER } from './authorization/authorizer.token';
export { alwaysAllowAuthorizer, type AuthorizationAttributes, type AuthorizationDecision, type AuthorizationResult, type Authorizer } from './authorization/authorizer';
export {
  DelegatingAuthorizer,
  DELEGATING_AUTHORIZATION_DEFAULTS,
  subjectAccessReviewSpec,
  type DelegatingAuthorizerOptions,
  type SubjectAccessReviewer,
  type SubjectAccessReviewSpec,
  type SubjectAccessReviewStatus,
} from './authorization/delegating.authorizer';
export { parseRequestInfo, type RequestInfo } from './request-info';
export { AuditLog } from './logging/audit.log';
export { loadAuditPolicy, parseAuditPolicy, AuditPolicyChecker, DEFAULT_AUDIT_POLICY, type AuditPolicy, type PolicyRule, type AuditLevel, type AuditStage } from './audit/audit.policy';
export type { AuditEvent } from './audit/audit.event';
export { auditOptionsFromEnv, buildAuditBackend, defaultAuditOptions, validateAuditOptions, type AuditOptions, type AuditLogOptions, type AuditWebhookOptions, type AuditMode } from './audit/audit.options';
export type { AuditBackend } from './audit/audit.backend';
export { ApiRequest, respondWithError, type Filter, type RequestHandler, type UpgradeConnection } from './filters/api-request';
export { buildHandlerChain, type HandlerChainConfig } from './filters/handler-chain';
export { authorizationAttributes, forbidden, forbiddenMessage } from './filters/with-authorization';
export type { InFlightLimits } from './filters/with-max-in-flight';
export { DEFAULT_SERVICE_ACCOUNT_ISSUER, ServiceAccountTokens, serviceAccountTokensFromStorage, serviceAccountUser, type StorageServiceAccountTokens, type BoundObject, type IssuedToken, type ServiceAccountLookup, type ServiceAccountTokenOptions, type TokenRequestInput } from './serviceaccount/service-account.token';
export { signJwt, verifyJwt, signingKeyPair, verificationKeys, type JwsAlgorithm, type JwtClaims, type SigningKeyPair, type VerificationKey } from './serviceaccount/jwt.codec';
export { OIDC_CONFIGURATION_PATH, OIDC_JWKS_PATH, serveOidcDiscovery } from './serviceaccount/oidc.discovery';
export * from './flowcontrol';
export { collectRuntimeMetrics, GO_EQUIVALENT_METRICS } from './debug/runtime.metrics';
export { ProfilingHandler, profilingFromEnv, type ProfilingOptions } from './debug/profiling.handler';
export { serveApfDump } from './debug/apf.dump';
export * from './authentication/index';
export { parseTracingConfiguration, tracingFromEnv, DEFAULT_TRACING_ENDPOINT, type TracingConfiguration } from './tracing/tracing.config';
export { startTracing, flushTracing } from './tracing/tracer.provider';
export { startOtlpReceiver, decodeExportTraceServiceRequest, type OtlpReceiver, type OtlpReceiverOptions, type ReceivedSpan } from './tracing/otlp.receiver';
