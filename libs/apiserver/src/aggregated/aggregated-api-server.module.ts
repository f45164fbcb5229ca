import { Module, type DynamicModule } from '@nestjs/common';
import { ApiServerModule, type ApiServerModuleOptions } from '../api-server.module';
import { SelfRegistrationModule, type ApiServiceIdentity } from './apiservice.registrar';
import type { AggregatedServerOptions } from './aggregated-server.main';

export interface AggregatedApiServerModuleOptions extends AggregatedServerOptions, Omit<ApiServerModuleOptions, 'config'> {
  /** The APIService routing to this server (group, version, Service, priorities). */
  apiService: ApiServiceIdentity;
}

/**
 * An aggregated API server in one import: the generic server with its resources and admission
 * (ApiServerModule), and its APIService registered through the aggregator when `registration` is given
 * (runAggregatedServer passes it from KUBE_REGISTER_URL).
 */
@Module({})
export class AggregatedApiServerModule {
  static forRoot(options: AggregatedApiServerModuleOptions): DynamicModule {
    return {
      module: AggregatedApiServerModule,
      imports: [
        ApiServerModule.forRoot({ config: options.config, resources: options.resources, admission: options.admission }),
        ...SelfRegistrationModule.when(options.apiService, options.registration),
      ],
    };
  }
}
