import { Module, type DynamicModule } from '@nestjs/common';
import { ApiServerModule, NamespaceLifecycleAdmission, type ServerConfig } from '@kube/apiserver';
import type { Storage } from '@kube/storage';
import { BanFlunderAdmission } from './admission/ban-flunder.admission';
import { SelfRegistrationModule, type SelfRegistrationOptions } from './registration/apiservice.registrar';
import type { ApiServiceRegistration } from './registration/apiservice.objects';
import { fischersResource, wardleResources, wardleStoragePrefix } from './resources';
import { WARDLE_GROUP, WARDLE_VERSION } from './wardle.types';

/** The APIService kube's sample-apiserver is deployed with (artifacts/example/apiservice.yaml). */
export const WARDLE_API_SERVICE: Omit<ApiServiceRegistration, 'address' | 'port' | 'caBundlePem'> = {
  group: WARDLE_GROUP,
  version: WARDLE_VERSION,
  serviceNamespace: 'default',
  serviceName: 'wardle-server',
  groupPriorityMinimum: 1000,
  versionPriority: 15,
};

/** Self-registration through the aggregator: where, as whom, and the caBundle of the serving certificate. */
export interface SampleRegistrationOptions extends Omit<SelfRegistrationOptions, 'apiService'> {
  caBundlePem: string;
}

export interface SampleApiServerOptions {
  config: ServerConfig;
  /** etcd keys go under /registry/<storageRoot>/; default wardle.example.com. */
  storageRoot?: string;
  /** Register the APIService on start; without it, apply deploy/sample-apiserver/apiservice.yaml. */
  registration?: SampleRegistrationOptions;
}

function admissionPlugins(storage: Storage, storageRoot?: string): [NamespaceLifecycleAdmission, BanFlunderAdmission] {
  // The same store the REST handler serves Fischers from (Storage keeps one per prefix), so lookups hit its cache.
  const fischers = storage.resource({ group: WARDLE_GROUP, resource: fischersResource.plural }, wardleStoragePrefix(fischersResource.plural, storageRoot));
  return [new NamespaceLifecycleAdmission(storage.resource({ group: '', resource: 'namespaces' }, 'namespaces')), new BanFlunderAdmission(fischers)];
}

function selfRegistration({ caBundlePem, ...rest }: SampleRegistrationOptions): SelfRegistrationOptions {
  return { ...rest, apiService: { ...WARDLE_API_SERVICE, caBundlePem } };
}

/**
 * kube's sample-apiserver ("wardle") on the SDK: Flunders and Fischers on etcd, namespace lifecycle and
 * BanFlunder admission, and optionally its own registration as an APIService.
 */
@Module({})
export class SampleApiServerModule {
  static forRoot(options: SampleApiServerOptions): DynamicModule {
    return {
      module: SampleApiServerModule,
      imports: [
        ApiServerModule.forRoot({
          config: options.config,
          resources: wardleResources(options.storageRoot),
          admission: (storage) => admissionPlugins(storage, options.storageRoot),
        }),
        ...(options.registration ? [SelfRegistrationModule.forRoot(selfRegistration(options.registration))] : []),
      ],
    };
  }
}
