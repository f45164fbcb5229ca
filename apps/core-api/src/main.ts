import 'reflect-metadata';
import { appLogger, createServerApp, installLastResortHandlers, logStartupFailure, serverConfigFromEnv, stopOnShutdownSignals } from '@kube/apiserver';
import { CoreApiModule } from './core-api.module';

async function main(): Promise<void> {
  installLastResortHandlers('core-api');
  const [base, last] = (process.env.KUBE_SERVICE_NODE_PORT_RANGE ?? '30000-32767').split('-').map(Number);
  const app = await createServerApp(
    CoreApiModule.forRoot({
      config: serverConfigFromEnv('core-api', 6443),
      serviceClusterIPRange: process.env.KUBE_SERVICE_CLUSTER_IP_RANGE ?? '10.96.0.0/12',
      serviceNodePortRange: { base, size: last - base + 1 },
      allowLoopbackEndpoints: process.env.KUBE_ALLOW_LOOPBACK_ENDPOINTS === 'true',
      bootstrapManifests: process.env.KUBE_BOOTSTRAP_MANIFESTS || undefined,
    }),
    { logger: appLogger('core-api') },
  );
  stopOnShutdownSignals(app);
}

main().catch((err: unknown) => {
  logStartupFailure('core-api', err);
  process.exit(1);
});
