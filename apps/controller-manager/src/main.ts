import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { appLogger, installLastResortHandlers, logStartupFailure, stopOnShutdownSignals } from '@kube/apiserver';
import { controllerManagerOptionsFromEnv } from './controller-manager.config';
import { ControllerManagerModule } from './controller-manager.module';

async function main(): Promise<void> {
  installLastResortHandlers('controller-manager');
  const app = await NestFactory.createApplicationContext(ControllerManagerModule.forRoot(controllerManagerOptionsFromEnv()), { logger: appLogger('controller-manager') });
  stopOnShutdownSignals(app);
}

main().catch((err: unknown) => {
  logStartupFailure('controller-manager', err);
  process.exit(1);
});
