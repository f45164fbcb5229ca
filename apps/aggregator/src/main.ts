import 'reflect-metadata';
import { appLogger, createServerApp, installLastResortHandlers, logStartupFailure, stopOnShutdownSignals } from '@kube/apiserver';
import { aggregatorConfigFromEnv } from './aggregator.config';
import { AggregatorModule } from './aggregator.module';

async function main(): Promise<void> {
  installLastResortHandlers('aggregator');
  const app = await createServerApp(AggregatorModule.forRoot(aggregatorConfigFromEnv()), { logger: appLogger('aggregator') });
  stopOnShutdownSignals(app);
}

main().catch((err: unknown) => {
  logStartupFailure('aggregator', err);
  process.exit(1);
});
