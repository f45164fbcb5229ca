import { Module, type DynamicModule } from '@nestjs/common';
import { ResourceQuotaAdmission } from '@kube/admission';
import { AGGREGATED_SERVICE_NAMESPACE, AggregatedApiServerModule, NamespaceLifecycleAdmission, type AdmissionPlugin, type AggregatedServerOptions, type ApiServiceIdentity, type ControlPlaneStores } from '@kube/apiserver';
import type { Storage } from '@kube/storage';
import { BanFlunderAdmission } from './admission/ban-flunder.admission';
import { fischersResource, wardleResources, wardleStoragePrefix } from './resources';
import { WARDLE_GROUP, WARDLE_VERSION } from './wardle.types';

/** The APIService kube's sample-apiserver is deployed with (artifacts/example/apiservice.yaml), its Service in kube-system. */
export const WARDLE_API_SERVICE: ApiServiceIdentity = {
  group: WARDLE_GROUP,
  version: WARDLE_VERSION,
  serviceNamespace: AGGREGATED_SERVICE_NAMESPACE,
  serviceName: 'wardle-server',
  groupPriorityMinimum: 1000,
  versionPriority: 15,
};

export interface SampleApiServerOptions extends AggregatedServerOptions {
  /** etcd keys go under /registry/<storageRoot>/; default wardle.example.com. */
  storageRoot?: string;
}

/**
 * Its own admission: BanFlunder reads Fischers from its own storage; NamespaceLifecycle and ResourceQuota read (and
 * charge) the control plane's Namespaces and ResourceQuotas through its API as this server (its etcd role reaches
 * only /registry/wardle.example.com/). Not registered with a control plane, it has none to check against.
 */
function admissionPlugins(storage: Storage, controlPlane: ControlPlaneStores | undefined, storageRoot?: string): AdmissionPlugin[] {
  // The same store the REST handler serves Fischers from (Storage keeps one per prefix), so lookups hit its cache.
  const fischers = storage.resource({ group: WARDLE_GROUP, resource: fischersResource.plural }, wardleStoragePrefix(fischersResource.plural, storageRoot));
  if (!controlPlane) return [new BanFlunderAdmission(fischers)];
  // Flunders count toward `count/flunders.wardle.example.com` quotas; ResourceQuota runs last.
  return [new NamespaceLifecycleAdmission(controlPlane.namespaces), new BanFlunderAdmission(fischers), new ResourceQuotaAdmission(controlPlane.resourceQuotas)];
}

/**
 * kube's sample-apiserver ("wardle") on the SDK: Flunders and Fischers on etcd, namespace lifecycle and
 * BanFlunder admission, and its own registration as an APIService when given `registration` (otherwise
 * apply deploy/sample-apiserver/apiservice.yaml).
 */
@Module({})
export class SampleApiServerModule {
  static forRoot(options: SampleApiServerOptions): DynamicModule {
    return {
      module: SampleApiServerModule,
      imports: [
        AggregatedApiServerModule.forRoot({
          ...options,
          // KUBE_STORAGE_ROOT moves its keys, and the one etcd prefix it is confined to, together.
          config: options.storageRoot && !options.config.etcdPrefix ? { ...options.config, etcdPrefix: `/registry/${options.storageRoot}/` } : options.config,
          apiService: WARDLE_API_SERVICE,
          resources: wardleResources(options.storageRoot),
          admission: (storage, controlPlane) => admissionPlugins(storage, controlPlane, options.storageRoot),
        }),
      ],
    };
  }
}
