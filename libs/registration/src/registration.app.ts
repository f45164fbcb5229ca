import { type DynamicModule, type INestMicroservice, Logger, type NestApplicationOptions, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AsyncMicroserviceOptions, CustomTransportStrategy, NestMicroservice } from '@nestjs/microservices';
import { REGISTRATION_TRANSPORT, RegistrationModule, type RegistrationModuleOptions } from './registration.module';

/**
 * Creates a server process's Nest app: a Nest microservice whose transport strategy is the module's
 * REGISTRATION_TRANSPORT (so its @EventPattern handlers receive the registration subjects), initialised (every
 * lifecycle hook has run: the HTTPS server listens), with NATS connecting in the background. It is not a hybrid
 * app (connectMicroservice): that needs a Nest HTTP adapter, and the HTTPS server is our own. `module` must
 * import RegistrationModule (ApiServerModule and AggregatorModule do).
 */
export async function createServerApp(module: DynamicModule | Type<unknown>, options: Pick<NestApplicationOptions, 'logger' | 'abortOnError'> = {}): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice<AsyncMicroserviceOptions>(module, {
    ...options,
    useFactory: (strategy: CustomTransportStrategy) => ({ strategy }),
    inject: [REGISTRATION_TRANSPORT],
  });
  // What listen() does before connecting: bind the @EventPattern handlers and run every lifecycle hook once
  // (NestMicroservice.init() would run the hooks twice: once as an application context, once as a microservice).
  await (app as unknown as NestMicroservice).registerModules();
  // Connecting waits for nats-server as long as it takes: registration must never hold back serving.
  app.listen().catch((err: unknown) => new Logger('Registration').debug(`registration transport stopped: ${String(err)}`));
  return app;
}

/**
 * A Nest app that does registration only (tests, tools): with `registry`, start its RegistrationRegistry; with
 * `announce`, create announcers from its RegistrationAnnouncers. Close the app to disconnect.
 */
export function startRegistrationApp(options: RegistrationModuleOptions): Promise<INestMicroservice> {
  return createServerApp(RegistrationModule.forRoot(options), { logger: ['error', 'warn'] });
}
