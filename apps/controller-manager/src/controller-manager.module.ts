import { Module, type DynamicModule } from '@nestjs/common';
import { HealthChecks, startTracing } from '@kube/apiserver';
import { RestClient } from '@kube/client';
import { CONTROLLER_MANAGER_OPTIONS, ControllerManager } from './controller.manager';
import type { ControllerManagerOptions } from './controller-manager.config';
import { HealthServer } from './health.server';

/** kube-controller-manager as a Nest module: the API client, leader election with the controllers, health and metrics. */
@Module({})
export class ControllerManagerModule {
  static forRoot(options: ControllerManagerOptions): DynamicModule {
    return {
      module: ControllerManagerModule,
      providers: [
        { provide: CONTROLLER_MANAGER_OPTIONS, useValue: options },
        { provide: RestClient, useFactory: () => new RestClient({ ...options.api, tracer: options.tracing && startTracing('kube-controller-manager', options.tracing) }) },
        { provide: HealthChecks, useFactory: () => new HealthChecks() },
        ControllerManager,
        HealthServer,
      ],
      exports: [ControllerManager, HealthServer],
    };
  }
}
