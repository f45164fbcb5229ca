import { Inject, Injectable, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { LimitRangerAdmission, ResourceQuotaAdmission } from '@kube/admission';
import { ApiServerModule, AUTHORIZER, Authenticator, NamespaceLifecycleAdmission, serviceAccountTokensFromStorage, type ServerConfig, type ServiceAccountTokenOptions } from '@kube/apiserver';
import { authorizationConfigFromEnv, authorizationModeFromEnv, authorizedImpersonation, buildAuthorization, servingAuthorizer, type AuthorizationMode, type AuthorizationSet } from '@kube/authorization';
import { Storage } from '@kube/storage';
import { ServiceAllocator, type PortRange } from './allocation/service.allocator';
import { AUTHORIZATION } from './core-api.tokens';
import { buildCoreResources } from './core.resources';
import { BOOTSTRAP_MANIFESTS, BootstrapManifestsController } from './reconcilers/bootstrap-manifests.reconciler';
import { BootstrapController } from './reconcilers/bootstrap.reconciler';
import { KubernetesEndpointsController } from './reconcilers/kubernetes-endpoints.reconciler';
import { FlowControlConfigController } from './reconcilers/flowcontrol-config.reconciler';
import { ClusterAuthenticationTrustController } from './reconcilers/cluster-authentication.reconciler';
import { ValidatingAdmissionPolicyStatusController } from './reconcilers/policy-status.reconciler';
import { RbacBootstrapController } from './reconcilers/rbac-bootstrap.reconciler';
import { certificatesAdmission } from './resources/certificates.admission';
import { RbacEscalationAdmission } from './resources/rbac.admission';
import { SystemPriorityClassProtection } from './resources/scheduling.resources';

export interface CoreApiOptions {
  config: ServerConfig;
  serviceClusterIPRange: string;
  serviceNodePortRange: PortRange;
  /** Accept 127.0.0.0/8 in Endpoints (local stacks, where aggregated servers listen on loopback). */
  allowLoopbackEndpoints?: boolean;
  /** KUBE_AUTHORIZATION_MODE by default. */
  authorizationMode?: AuthorizationMode;
  /** An AuthorizationConfiguration file (KUBE_AUTHORIZATION_CONFIG by default). */
  authorizationConfig?: string;
  /** A file or directory of manifests applied at every start (KUBE_BOOTSTRAP_MANIFESTS; see BootstrapManifestsController). */
  bootstrapManifests?: string;
}

/** Follows the RBAC objects (request authorization, review APIs and escalation checks read them) from start to shutdown. */
@Injectable()
class AuthorizationLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(AUTHORIZATION) private readonly authz: AuthorizationSet) {}

  onApplicationBootstrap(): void {
    void this.authz.start();
  }

  onApplicationShutdown(): void {
    this.authz.stop();
  }
}

/**
 * core-api: the built-in resources on the generic API server, plus what kube runs inside kube-apiserver: the
 * bootstrap controller, the Service IP/port allocator with its repair, RBAC (its API, bootstrap policy, escalation
 * checks) and the review APIs. Namespace deletion, ClusterRole aggregation, ResourceQuota status and CSR signing
 * run in apps/controller-manager.
 */
/** What TokenRequest and TokenReview need: the shared token issuer/verifier, bound-object stores, the token authenticator. */
function serviceAccountIssuance(config: ServerConfig, storage: Storage): Parameters<typeof buildCoreResources>[3] {
  const auth = config.server.authentication;
  const { tokens } = serviceAccountTokensFromStorage(auth.serviceAccounts as ServiceAccountTokenOptions, storage);
  const authenticator = new Authenticator(auth, tokens);
  return {
    tokens,
    stores: { pods: storage.resource({ group: '', resource: 'pods' }, 'pods'), secrets: storage.resource({ group: '', resource: 'secrets' }, 'secrets') },
    authenticate: (token, audiences) => authenticator.reviewToken(token, audiences),
  };
}

@Module({})
export class CoreApiModule {
  static forRoot(options: CoreApiOptions): DynamicModule {
    const mode = options.authorizationMode ?? authorizationModeFromEnv();
    const authorizationConfig = options.authorizationConfig ?? authorizationConfigFromEnv();
    return {
      module: CoreApiModule,
      imports: [
        ApiServerModule.forRoot({
          // Impersonate-* sent straight to core-api is decided by its authorizer, as at the front door.
          config: { ...options.config, server: { ...options.config.server, impersonation: authorizedImpersonation } },
          providers: [
            {
              provide: ServiceAllocator,
              useFactory: (storage: Storage) => new ServiceAllocator(storage.client, options.serviceClusterIPRange, options.serviceNodePortRange),
              inject: [Storage],
            },
            { provide: AUTHORIZATION, useFactory: (storage: Storage) => buildAuthorization(storage, mode, authorizationConfig), inject: [Storage] },
            // Every request core-api serves is authorized, whoever sent it (the front proxy's X-Remote-* user, a
            // certificate, a token): with the same RBAC index as the review APIs, listed before it listens.
            { provide: AUTHORIZER, useFactory: (authorization: AuthorizationSet) => servingAuthorizer(authorization), inject: [AUTHORIZATION] },
            { provide: NamespaceLifecycleAdmission, useFactory: (storage: Storage) => new NamespaceLifecycleAdmission(storage.resource({ group: '', resource: 'namespaces' }, 'namespaces')), inject: [Storage] },
          ],
          resources: {
            inject: [ServiceAllocator, AUTHORIZATION, Storage],
            useFactory: (allocator: ServiceAllocator, authorization: AuthorizationSet, storage: Storage) => {
              const sa = options.config.server.authentication.serviceAccounts;
              const eviction = { pods: storage.resource({ group: '', resource: 'pods' }, 'pods'), podDisruptionBudgets: storage.resource({ group: 'policy', resource: 'poddisruptionbudgets' }, 'policy/poddisruptionbudgets') };
              return buildCoreResources(allocator, authorization, { allowLoopback: options.allowLoopbackEndpoints ?? false }, sa?.signingKeyPem ? serviceAccountIssuance(options.config, storage) : undefined, eviction, { nodes: storage.resource({ group: '', resource: 'nodes' }, 'nodes'), endpoints: storage.resource({ group: '', resource: 'endpoints' }, 'endpoints') });
            },
          },
          admission: {
            inject: [NamespaceLifecycleAdmission, AUTHORIZATION, Storage],
            // kube's order: LimitRanger (mutating) early, ResourceQuota (charging usage) last.
            useFactory: (namespaces: NamespaceLifecycleAdmission, authorization: AuthorizationSet, storage: Storage) => [
              namespaces,
              LimitRangerAdmission.forStorage(storage),
              new RbacEscalationAdmission(authorization.escalation),
              new SystemPriorityClassProtection(),
              ...certificatesAdmission(authorization.authorizer),
              ResourceQuotaAdmission.forStorage(storage),
            ],
          },
        }),
      ],
      providers: [
        { provide: BOOTSTRAP_MANIFESTS, useValue: options.bootstrapManifests },
        BootstrapManifestsController,
        AuthorizationLifecycle, BootstrapController, KubernetesEndpointsController, FlowControlConfigController, ClusterAuthenticationTrustController, RbacBootstrapController, ValidatingAdmissionPolicyStatusController,
      ],
    };
  }
}
