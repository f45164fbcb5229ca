import 'reflect-metadata';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { serverConfigFromEnv } from '@kube/apiserver';
import { registrationTargetFromEnv } from './registration/registration.env';
import { SampleApiServerModule, WARDLE_API_SERVICE, type SampleRegistrationOptions } from './sample-apiserver.module';
import { servingCertificateFromEnv, type ServingCertificateFiles } from './serving/serving-certificate';

const COMPONENT = 'sample-apiserver';
const DEFAULT_PORT = 6446;

function registrationFromEnv(serving: ServingCertificateFiles): SampleRegistrationOptions | undefined {
  const target = registrationTargetFromEnv(process.env);
  if (!target) return undefined;
  if (!serving.caPem) throw new Error('KUBE_REGISTER_URL needs the CA of the serving certificate for the caBundle: set KUBE_SERVING_CA_FILE');
  return { target, caBundlePem: serving.caPem, address: process.env.KUBE_REGISTER_ADDRESS || undefined };
}

async function main(): Promise<void> {
  const serving = await servingCertificateFromEnv(
    process.env,
    {
      serviceDnsName: `${WARDLE_API_SERVICE.serviceName}.${WARDLE_API_SERVICE.serviceNamespace}.svc`,
      addresses: [process.env.KUBE_BIND_ADDRESS ?? '', process.env.KUBE_REGISTER_ADDRESS ?? ''],
    },
    join('apiserver.local.config', 'certificates'),
  );
  // serverConfigFromEnv reads the serving pair from these variables; an issued pair takes their place.
  process.env.KUBE_TLS_CERT_FILE = serving.certFile;
  process.env.KUBE_TLS_PRIVATE_KEY_FILE = serving.keyFile;
  const app = await NestFactory.createApplicationContext(
    SampleApiServerModule.forRoot({
      config: serverConfigFromEnv(COMPONENT, DEFAULT_PORT),
      storageRoot: process.env.KUBE_STORAGE_ROOT || undefined,
      registration: registrationFromEnv(serving),
    }),
    { logger: ['log', 'warn', 'error'] },
  );
  app.enableShutdownHooks();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
