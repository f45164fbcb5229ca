import { Inject, Injectable, Module, Optional, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { ApiServerModule, type ApiServerModuleOptions, type ListOption } from '../api-server.module';
import type { Authorizer } from '../authorization/authorizer';
import { DelegatingAuthorizer } from '../authorization/delegating.authorizer';
import type { AdmissionBackend } from '@kube/admission';
import type { AdmissionPlugin, UserInfo } from '../resource.definition';
import { ApiClient } from './api.client';
import { controlPlaneAdmissionBackend, noControlPlaneAdmissionBackend } from './control-plane.admission';
import { REGISTRY_ROOT, type Storage } from '@kube/storage';
import { controlPlaneStores, type ControlPlaneStores } from './control-plane.stores';
import { TokenReviewAuthenticator } from './token-review.authenticator';
import { SelfRegistrationModule, type ApiServiceIdentity } from './apiservice.registrar';
import type { AggregatedServerOptions } from './aggregated-server.main';

/**
 * An aggregated server's own admission plugins, given its storage (its own prefix only) and the control-plane
 * objects it may read through the API as itself (undefined when it is registered with no control plane).
 */
export type AggregatedAdmissionFactory = (storage: Storage, controlPlane: ControlPlaneStores | undefined) => AdmissionPlugin[];

export interface AggregatedApiServerModuleOptions extends AggregatedServerOptions, Omit<ApiServerModuleOptions, 'config' | 'admission'> {
  /** The APIService routing to this server (group, version, Service, priorities). */
  apiService: ApiServiceIdentity;
  /** Its own admission plugins: a list, a provider, or a factory of its storage and the control-plane stores. */
  admission?: ListOption<AdmissionPlugin> | AggregatedAdmissionFactory;
}

const CONTROL_PLANE_STORES = Symbol('CONTROL_PLANE_STORES');

/** Stops the control-plane informers (and their connections) with the server. */
@Injectable()
class ControlPlaneStoresLifecycle implements OnApplicationShutdown {
  constructor(@Optional() @Inject(CONTROL_PLANE_STORES) private readonly stores?: ControlPlaneStores) {}

  onApplicationShutdown(): void {
    this.stores?.stop();
  }
}

/**
 * The authorizer of an aggregated server: one given in its config, else a DelegatingAuthorizer asking the
 * control plane it registers with (unless AlwaysAllow was asked for), else none (everything allowed).
 */
export function aggregatedAuthorizer(options: AggregatedServerOptions): Authorizer | undefined {
  if (options.config.server.authorizer) return options.config.server.authorizer;
  if (!options.registration || options.authorizationMode === 'AlwaysAllow') return undefined;
  const client = new ApiClient(options.registration.target);
  return new DelegatingAuthorizer((spec) => client.subjectAccessReview(spec));
}

/** Bearer tokens sent to the server directly are reviewed by the control plane it registers with, as kube's delegating authenticator does. */
export function aggregatedTokenReview(options: AggregatedServerOptions): ((token: string) => Promise<UserInfo | undefined>) | undefined {
  if (options.config.server.authentication.tokenReview || !options.registration) return options.config.server.authentication.tokenReview;
  const client = new ApiClient(options.registration.target);
  return new TokenReviewAuthenticator((token) => client.tokenReview(token)).authenticate;
}

/**
 * Admission configuration read through the control plane it registers with; without one, a server confined to its
 * own etcd prefix has none to read (no webhooks or policies apply), and an unconfined one reads its own etcd.
 */
export function aggregatedAdmissionBackend(options: AggregatedServerOptions): (() => AdmissionBackend) | undefined {
  const target = options.registration?.target;
  if (target) return () => controlPlaneAdmissionBackend(target);
  return options.config.etcdPrefix === REGISTRY_ROOT ? undefined : noControlPlaneAdmissionBackend;
}

/**
 * The etcd prefix an aggregated server keeps its objects under and is confined to: `/registry/<its APIService's
 * group>/`, the one prefix its etcd role grants (scripts/etcd-access.ts). kube's aggregated servers have an etcd of
 * their own (sample-apiserver's --etcd-prefix defaults to /registry/wardle.example.com); on a shared etcd a role
 * confined to one prefix is the equivalent, and the server reads the control plane through its API instead.
 */
export function aggregatedEtcdPrefix(apiService: Pick<ApiServiceIdentity, 'group'>): string {
  return `${REGISTRY_ROOT}${apiService.group}/`;
}

/**
 * An aggregated API server in one import: the generic server with its resources and admission
 * (ApiServerModule; webhooks and policies configured through the control plane), its requests authorized by the
 * control plane (aggregatedAuthorizer), and its APIService registered through the aggregator when `registration`
 * is given (runAggregatedServer passes it from KUBE_REGISTER_URL).
 */
@Module({})
export class AggregatedApiServerModule {
  static forRoot(options: AggregatedApiServerModuleOptions): DynamicModule {
    const server = options.config.server;
    const etcdPrefix = options.config.etcdPrefix ?? aggregatedEtcdPrefix(options.apiService);
    const config = { ...options.config, etcdPrefix, server: { ...server, authorizer: aggregatedAuthorizer(options), authentication: { ...server.authentication, tokenReview: aggregatedTokenReview(options) } } };
    // Namespaces, quotas…: what its own admission reads of the control plane, through the API (never etcd).
    const controlPlane = options.registration ? controlPlaneStores(options.registration.target) : undefined;
    const own = options.admission;
    const admission: ListOption<AdmissionPlugin> | undefined = typeof own === 'function' ? (storage: Storage) => own(storage, controlPlane) : own;
    return {
      module: AggregatedApiServerModule,
      imports: [
        ApiServerModule.forRoot({ config, resources: options.resources, admission, admissionBackend: aggregatedAdmissionBackend({ ...options, config }) }),
        ...SelfRegistrationModule.when(options.apiService, options.registration),
      ],
      providers: [{ provide: CONTROL_PLANE_STORES, useValue: controlPlane }, ControlPlaneStoresLifecycle],
    };
  }
}
