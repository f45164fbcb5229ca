import { Inject, Injectable, type OnApplicationShutdown, type OnModuleDestroy, type Provider } from '@nestjs/common';
import { SharedInformerFactory } from '@kube/client';
import { Storage } from '@kube/storage';
import { HealthChecks } from './health.checks';

/** Stops every informer of the process on shutdown, before Storage closes where it can (their watches would keep it alive). */
@Injectable()
export class InformerFactoryLifecycle implements OnModuleDestroy, OnApplicationShutdown {
  constructor(@Inject(SharedInformerFactory) private readonly informers: SharedInformerFactory) {}

  onModuleDestroy(): void {
    this.informers.shutdown();
  }

  onApplicationShutdown(): void {
    this.informers.shutdown();
  }
}

/**
 * The process's SharedInformerFactory over its Storage, with kube's `informer-sync` readiness check (every
 * informer a controller asked for has synced). Needs Storage and HealthChecks providers.
 */
export function informerProviders(): Provider[] {
  return [
    {
      provide: SharedInformerFactory,
      useFactory: (storage: Storage, health: HealthChecks) => {
        const informers = SharedInformerFactory.forStorage(storage);
        health.add('informer-sync', () => {
          const unsynced = informers.unsynced();
          if (unsynced.length) throw new Error(`${unsynced.length} informers not started yet: [${unsynced.join(' ')}]`);
        }, ['readyz']);
        return informers;
      },
      inject: [Storage, HealthChecks],
    },
    InformerFactoryLifecycle,
  ];
}
