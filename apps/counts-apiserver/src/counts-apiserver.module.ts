import { Inject, Injectable, Module, type DynamicModule, type OnModuleDestroy } from '@nestjs/common';
import { AGGREGATED_SERVICE_NAMESPACE, AggregatedApiServerModule, ApiClient, type AggregatedServerOptions, type ApiServiceIdentity, type RegistrationTarget } from '@kube/apiserver';
import { ObjectCounter } from './object-counter';
import { GROUP, VERSION, objectCountsResource } from './resources/objectcounts.resource';

/** The APIService that routes counts.example.com/v1alpha1 to this server (through Service kube-system/counts-apiserver). */
export const API_SERVICE: ApiServiceIdentity = {
  group: GROUP,
  version: VERSION,
  serviceNamespace: AGGREGATED_SERVICE_NAMESPACE,
  serviceName: 'counts-apiserver',
  groupPriorityMinimum: 1000,
  versionPriority: 15,
};

export interface CountsApiServerOptions extends AggregatedServerOptions {
  /** Where the counts are read from: the front door and a client certificate allowed to list everything. */
  coreApi: RegistrationTarget;
}

const CORE_API = Symbol('CORE_API');

/** Closes the keep-alive connections to the core API, so a stopped server exits. */
@Injectable()
class CoreApiConnection implements OnModuleDestroy {
  constructor(@Inject(CORE_API) private readonly client: ApiClient) {}

  onModuleDestroy(): void {
    this.client.close();
  }
}

/**
 * counts-apiserver: one computed, read-only resource (ObjectCount) whose handlers read the core API on each
 * request. No etcd: nothing is stored. Registered as an APIService when given `registration`.
 */
@Module({})
export class CountsApiServerModule {
  static forRoot(options: CountsApiServerOptions): DynamicModule {
    const client = new ApiClient(options.coreApi);
    return {
      module: CountsApiServerModule,
      imports: [AggregatedApiServerModule.forRoot({ ...options, apiService: API_SERVICE, resources: [objectCountsResource(new ObjectCounter(client))] })],
      providers: [{ provide: CORE_API, useValue: client }, CoreApiConnection],
    };
  }
}
