import { Module, type DynamicModule } from '@nestjs/common';
import { ResourceQuotaAdmission } from '@kube/admission';
import { AggregatedApiServerModule, NamespaceLifecycleAdmission, type AdmissionPlugin, type AggregatedServerOptions, type ApiServiceIdentity } from '@kube/apiserver';
import type { Storage } from '@kube/storage';
import { BanFlunderAdmission } from './admission/ban-flunder.admission';
import { fischersResource, wardleResources, wardleStoragePrefix } from './resources';
import { WARDLE_GROUP, WARDLE_VERSION } from './wardle.types';

/** The APIService kube's sample-apiserver is deployed with (artifacts/example/apiservice.yaml). */
export const WARDLE_API_SERVICE: ApiServiceIdentity = {
  group: WARDLE_GROUP,
  version: WARDLE_VERSION,
  serviceNamespace: 'default',
  serviceName: 'wardle-server',
  groupPriorityMinimum: 1000,
  versionPriority: 15,
};

export interface SampleApiServerOptions extends AggregatedServerOptions {
  /** etcd keys go under /registry/<storageRoot>/; default wardle.example.com. */
  storageRoot?: string;
}

function admissionPlugins(storage: Storage, storageRoot?: string): AdmissionPlugin[] {
  // The same store the REST handler serves Fischers from (Storage keeps one per prefix), so lookups hit its cache.
  const fischers = storage.resource({ group: WARDLE_GROUP, resource: fischersResource.plural }, wardleStoragePrefix(fischersResource.plural, storageRoot));
  // Flunders count toward `count/flunders.wardle.example.com` quotas; ResourceQuota runs last.
  return [new NamespaceLifecycleAdmission(storage.resource({ group: '', resource: 'namespaces' }, 'namespaces')), new BanFlunderAdmission(fischers), ResourceQuotaAdmission.forStorage(storage)];
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
          apiService: WARDLE_API_SERVICE,
          resources: wardleResources(options.storageRoot),
          admission: (storage) => admissionPlugins(storage, options.storageRoot),
        }),
      ],
    };
  }
}
