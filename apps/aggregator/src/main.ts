import 'reflect-metadata';
import { appLogger, createServerApp, installLastResortHandlers, logStartupFailure } from '@kube/apiserver';
import { aggregatorConfigFromEnv } from './aggregator.config';
import { AggregatorModule } from './aggregator.module';

async function main(): Promise<void> {
  installLastResortHandlers('aggregator');
  const app = await createServerApp(AggregatorModule.forRoot(aggregatorConfigFromEnv()), { logger: appLogger('aggregator') });
  app.enableShutdownHooks();
}

main().catch((err: unknown) => {
  logStartupFailure('aggregator', err);
  process.exit(1);
});
