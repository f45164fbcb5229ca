import { Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { ApiServerModule, NamespaceLifecycleAdmission, type ServerConfig } from '@kube/apiserver';
import { authorizationModeFromEnv, buildAuthorization, type AuthorizationMode, type AuthorizationSet } from '@kube/authorization';
import { Storage } from '@kube/storage';
import { ServiceAllocator, type PortRange } from './allocation/service.allocator';
import { AUTHORIZATION } from './core-api.tokens';
import { buildCoreResources } from './core.resources';
import { BootstrapController } from './reconcilers/bootstrap.reconciler';
import { ClusterAuthenticationTrustController } from './reconcilers/cluster-authentication.reconciler';
import { ClusterRoleAggregationController } from './reconcilers/clusterrole-aggregation.reconciler';
import { NamespaceController } from './reconcilers/namespace.reconciler';
import { RbacBootstrapController } from './reconcilers/rbac-bootstrap.reconciler';
import { RbacEscalationAdmission } from './resources/rbac.admission';

export interface CoreApiOptions {
  config: ServerConfig;
  serviceClusterIPRange: string;
  serviceNodePortRange: PortRange;
  /** Accept 127.0.0.0/8 in Endpoints (local stacks, where aggregated servers listen on loopback). */
  allowLoopbackEndpoints?: boolean;
  /** KUBE_AUTHORIZATION_MODE by default. */
  authorizationMode?: AuthorizationMode;
}

/** Stops following the RBAC objects on shutdown. */
@Injectable()
class AuthorizationLifecycle implements OnApplicationShutdown {
  constructor(@Inject(AUTHORIZATION) private readonly authz: AuthorizationSet) {}

  onApplicationShutdown(): void {
    this.authz.stop();
  }
}

/**
 * core-api: the built-in resources on the generic API server, plus kube's bootstrap and namespace
 * controllers, the Service IP/port allocator, RBAC (its API, bootstrap policy, aggregation, escalation checks)
 * and the review APIs.
 */
@Module({})
export class CoreApiModule {
  static forRoot(options: CoreApiOptions): DynamicModule {
    const mode = options.authorizationMode ?? authorizationModeFromEnv();
    return {
      module: CoreApiModule,
      imports: [
        ApiServerModule.forRoot({
          config: options.config,
          providers: [
            {
              provide: ServiceAllocator,
              useFactory: (storage: Storage) => new ServiceAllocator(storage.client, options.serviceClusterIPRange, options.serviceNodePortRange),
              inject: [Storage],
            },
            { provide: AUTHORIZATION, useFactory: (storage: Storage) => buildAuthorization(storage, mode), inject: [Storage] },
            { provide: NamespaceLifecycleAdmission, useFactory: (storage: Storage) => new NamespaceLifecycleAdmission(storage.resource({ group: '', resource: 'namespaces' }, 'namespaces')), inject: [Storage] },
          ],
          resources: {
            inject: [ServiceAllocator, AUTHORIZATION],
            useFactory: (allocator: ServiceAllocator, authorization: AuthorizationSet) => buildCoreResources(allocator, authorization, { allowLoopback: options.allowLoopbackEndpoints ?? false }),
          },
          admission: {
            inject: [NamespaceLifecycleAdmission, AUTHORIZATION],
            useFactory: (namespaces: NamespaceLifecycleAdmission, authorization: AuthorizationSet) => [namespaces, new RbacEscalationAdmission(authorization.escalation)],
          },
        }),
      ],
      providers: [AuthorizationLifecycle, BootstrapController, ClusterAuthenticationTrustController, NamespaceController, RbacBootstrapController, ClusterRoleAggregationController],
    };
  }
}
