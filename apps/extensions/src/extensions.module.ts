import { Inject, Injectable, Module, type BeforeApplicationShutdown, type DynamicModule } from '@nestjs/common';
import { ResourceQuotaAdmission } from '@kube/admission';
import { alwaysAllowAuthorizer, ApiServerModule, AUTHORIZER, NamespaceLifecycleAdmission, type ServerConfig } from '@kube/apiserver';
import { authorizationConfigFromEnv, authorizationModeFromEnv, authorizedImpersonation, buildAuthorization, servingAuthorizer, type AuthorizationMode, type AuthorizationSet } from '@kube/authorization';
import { Storage } from '@kube/storage';
import { customResourceDefinitionsResource } from './crd/customresourcedefinitions.resource';
import { CustomResourceDefinitionController } from './reconcilers/crd.reconciler';
import { TerminatingCustomResources } from './reconcilers/terminating.admission';

/** extensions' RBAC (an informer on the RBAC objects in etcd, read-only), when it authorizes with RBAC. */
const AUTHORIZATION = Symbol('AUTHORIZATION');

/** Stops following the RBAC objects on shutdown. */
@Injectable()
class AuthorizationLifecycle implements BeforeApplicationShutdown {
  constructor(@Inject(AUTHORIZATION) private readonly authz: AuthorizationSet | undefined) {}

  beforeApplicationShutdown(): void {
    this.authz?.stop();
  }
}

export interface ExtensionsOptions {
  /** KUBE_AUTHORIZATION_MODE by default. */
  authorizationMode?: AuthorizationMode;
  /** An AuthorizationConfiguration file (KUBE_AUTHORIZATION_CONFIG by default). */
  authorizationConfig?: string;
}

/**
 * extensions: apiextensions.k8s.io/v1 CustomResourceDefinitions and, through the CRD controller, every custom
 * resource they define, on the same generic API server as core-api.
 *
 * Every request it serves is authorized, whoever sent it, with RBAC read from etcd by an informer (the roles and
 * bindings core-api stores), as the front door does: no round trip per request and no cache to go stale, where a
 * delegated SubjectAccessReview would cost a call to the control plane per new request and answer from a cache
 * for its TTL.
 */
@Module({})
export class ExtensionsModule {
  static forRoot(config: ServerConfig, options: ExtensionsOptions = {}): DynamicModule {
    const mode = options.authorizationMode ?? authorizationModeFromEnv();
    const authorizationConfig = options.authorizationConfig ?? authorizationConfigFromEnv();
    return {
      module: ExtensionsModule,
      imports: [
        ApiServerModule.forRoot({
          // Impersonate-* sent straight to extensions is decided by its authorizer, as at the front door.
          config: { ...config, server: { ...config.server, impersonation: authorizedImpersonation } },
          providers: [
            TerminatingCustomResources,
            { provide: NamespaceLifecycleAdmission, useFactory: (storage: Storage) => new NamespaceLifecycleAdmission(storage.resource({ group: '', resource: 'namespaces' }, 'namespaces')), inject: [Storage] },
            // AlwaysAllow reads no RBAC at all.
            { provide: AUTHORIZATION, useFactory: (storage: Storage) => (mode === 'RBAC' ? buildAuthorization(storage, mode, authorizationConfig) : undefined), inject: [Storage] },
            {
              provide: AUTHORIZER,
              useFactory: (authz: AuthorizationSet | undefined) => (authz ? servingAuthorizer(authz) : alwaysAllowAuthorizer),
              inject: [AUTHORIZATION],
            },
          ],
          resources: [customResourceDefinitionsResource],
          admission: {
            inject: [NamespaceLifecycleAdmission, TerminatingCustomResources, Storage],
            // Custom resources count toward `count/<plural>.<group>` quotas; ResourceQuota runs last.
            useFactory: (namespaces: NamespaceLifecycleAdmission, terminating: TerminatingCustomResources, storage: Storage) => [namespaces, terminating, ResourceQuotaAdmission.forStorage(storage)],
          },
        }),
      ],
      providers: [CustomResourceDefinitionController, AuthorizationLifecycle],
    };
  }
}
