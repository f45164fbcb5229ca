import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { appLogger, installLastResortHandlers, logStartupFailure } from '@kube/apiserver';
import { aggregatorConfigFromEnv } from './aggregator.config';
import { AggregatorModule } from './aggregator.module';

async function main(): Promise<void> {
  installLastResortHandlers('aggregator');
  const app = await NestFactory.createApplicationContext(AggregatorModule.forRoot(aggregatorConfigFromEnv()), { logger: appLogger('aggregator') });
  app.enableShutdownHooks();
}

main().catch((err: unknown) => {
  logStartupFailure('aggregator', err);
  process.exit(1);
});
