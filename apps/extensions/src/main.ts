import 'reflect-metadata';
import { appLogger, createServerApp, installLastResortHandlers, logStartupFailure, serverConfigFromEnv, stopOnShutdownSignals } from '@kube/apiserver';
import { ExtensionsModule } from './extensions.module';

async function main(): Promise<void> {
  installLastResortHandlers('extensions');
  const app = await createServerApp(ExtensionsModule.forRoot(serverConfigFromEnv('extensions', 6444)), { logger: appLogger('extensions') });
  stopOnShutdownSignals(app);
}

main().catch((err: unknown) => {
  logStartupFailure('extensions', err);
  process.exit(1);
});
