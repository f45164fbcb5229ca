/**
 * The `main` of an aggregated API server: serving certificate (given, or issued from the signing CA), the
 * generic server config from KUBE_* (serverConfigFromEnv), registration when KUBE_REGISTER_URL is set, then the
 * app's module. An app's main.ts is one call to runAggregatedServer.
 */
import 'reflect-metadata';
import { join } from 'node:path';
import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { createServerApp } from '@kube/registration';
import { serverConfigFromEnv, type ServerConfig } from '../server.config';
import { appLogger, logStartupFailure } from '../logging/json.logger';
import { installLastResortHandlers } from '../logging/last-resort.handler';
import { stopOnShutdownSignals } from '../lifecycle/shutdown.signals';
import type { ApiServiceIdentity, RegistrationOptions } from './apiservice.registrar';
import { delegatedAuthentication } from './delegated-authentication';
import { registrationTargetFromEnv } from './registration.env';
import { servingCertificateFromEnv, type ServingCertificateFiles } from './serving-certificate';

/**
 * How an aggregated server authorizes requests (KUBE_AUTHORIZATION_MODE): `Delegating` asks the control plane
 * with a SubjectAccessReview (the default when it has a client of the control plane, i.e. registration),
 * `AlwaysAllow` trusts whoever the front proxy says (kube's AlwaysAllow mode).
 */
export type AggregatedAuthorizationMode = 'Delegating' | 'AlwaysAllow';

/** What every aggregated server module takes: the generic config and, optionally, its registration. */
export interface AggregatedServerOptions {
  config: ServerConfig;
  registration?: RegistrationOptions;
  authorizationMode?: AggregatedAuthorizationMode;
}

/**
 * KUBE_AUTHORIZATION_MODE: Delegating (default) or AlwaysAllow. RBAC, the front door's value when one
 * environment is shared by every process, means Delegating here: the control plane's RBAC decides.
 */
export function authorizationModeFromEnv(env: Env): AggregatedAuthorizationMode {
  const mode = env.KUBE_AUTHORIZATION_MODE || 'Delegating';
  if (mode === 'RBAC') return 'Delegating';
  if (mode !== 'Delegating' && mode !== 'AlwaysAllow') throw new Error(`KUBE_AUTHORIZATION_MODE must be Delegating, RBAC or AlwaysAllow, not ${JSON.stringify(mode)}`);
  return mode;
}

export interface AggregatedServerSpec {
  /** Name in logs and metrics, e.g. "sample-apiserver". */
  component: string;
  /** HTTPS port unless KUBE_SECURE_PORT says otherwise. */
  defaultPort: number;
  apiService: ApiServiceIdentity;
  module(options: AggregatedServerOptions): DynamicModule;
}

type Env = Readonly<Record<string, string | undefined>>;

function registrationFromEnv(env: Env, serving: ServingCertificateFiles): RegistrationOptions | undefined {
  const target = registrationTargetFromEnv(env);
  if (!target) return undefined;
  if (!serving.caPem) throw new Error('KUBE_REGISTER_URL needs the CA of the serving certificate for the caBundle: set KUBE_SERVING_CA_FILE');
  return { target, caBundlePem: serving.caPem, address: env.KUBE_REGISTER_ADDRESS || undefined, replicaPorts: replicaPortsFromEnv(env.KUBE_REGISTER_REPLICA_PORTS) };
}

/** KUBE_REGISTER_REPLICA_PORTS: "6446,6546", the ports of every replica at the registered address (npm start's replicas). */
function replicaPortsFromEnv(raw: string | undefined): number[] | undefined {
  if (!raw) return undefined;
  const ports = raw.split(',').map((p) => Number(p.trim()));
  if (ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) throw new Error(`KUBE_REGISTER_REPLICA_PORTS=${raw} is not a list of TCP ports`);
  return ports;
}

/**
 * One registration path at a time: a server that registers its APIService through the aggregator does not
 * also announce over NATS; without KUBE_REGISTER_URL but with KUBE_NATS_URL it announces its group/version
 * with its APIService's priorities, and the aggregator's autoregistration creates the APIService.
 */
function announcement(config: ServerConfig, apiService: ApiServiceIdentity, registration: RegistrationOptions | undefined): ServerConfig {
  if (registration) return { ...config, natsUrl: undefined };
  return { ...config, announcedPriority: { groupPriorityMinimum: apiService.groupPriorityMinimum, versionPriority: apiService.versionPriority } };
}

export async function startAggregatedServer(spec: AggregatedServerSpec): Promise<INestApplicationContext> {
  const env = process.env;
  const serving = await servingCertificateFromEnv(
    env,
    { serviceDnsName: `${spec.apiService.serviceName}.${spec.apiService.serviceNamespace}.svc`, addresses: [env.KUBE_BIND_ADDRESS ?? '', env.KUBE_REGISTER_ADDRESS ?? ''] },
    join('apiserver.local.config', 'certificates'),
  );
  // serverConfigFromEnv reads the serving pair from these variables; an issued pair takes their place.
  env.KUBE_TLS_CERT_FILE = serving.certFile;
  env.KUBE_TLS_PRIVATE_KEY_FILE = serving.keyFile;
  const registration = registrationFromEnv(env, serving);
  const local = serverConfigFromEnv(spec.component, spec.defaultPort);
  // Trust not configured by files comes from the control plane's extension-apiserver-authentication ConfigMap.
  const authentication = registration ? await delegatedAuthentication(local.server.authentication, registration.target) : local.server.authentication;
  const config = announcement({ ...local, server: { ...local.server, authentication } }, spec.apiService, registration);
  const module = spec.module({ config, registration, authorizationMode: authorizationModeFromEnv(env) });
  const app = await createServerApp(module, { logger: appLogger(spec.component) });
  stopOnShutdownSignals(app);
  return app;
}

/** Starts the server; any start-up failure (bad certificate, registration refused) ends the process. */
export function runAggregatedServer(spec: AggregatedServerSpec): void {
  installLastResortHandlers(spec.component);
  startAggregatedServer(spec).catch((err: unknown) => {
    logStartupFailure(spec.component, err);
    process.exit(1);
  });
}
