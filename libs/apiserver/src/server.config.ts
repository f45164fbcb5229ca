import { readFileSync } from 'node:fs';
import type { ApiServerOptions } from './api-server';
import { EncryptionConfigSource, type EtcdTls, parseGoDuration, Storage } from '@kube/storage';
import { Logger } from '@nestjs/common';
import type { RegistrationNatsTls } from '@kube/registration';
import type { RequestHeaderOptions } from './authentication';
import type { UserInfo } from './resource.definition';
import { requestLogOptionsFromEnv } from './logging/request.log';
import { profilingFromEnv } from './debug/profiling.handler';
import { tracingFromEnv } from './tracing/tracing.config';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER, type ServiceAccountTokenOptions } from './serviceaccount/service-account.token';
import { StructuredAuthentication } from './authentication/structured.authentication';
import { BACKEND_HTTP2, http2ServingFromEnv } from './http2.serving';

/** Settings every API server process reads from its environment (documented in docs/configuration.md). */
export interface ServerConfig {
  etcdEndpoints: string[];
  /** KUBE_ETCD_CAFILE / KUBE_ETCD_CERTFILE / KUBE_ETCD_KEYFILE (kube's --etcd-cafile/--etcd-certfile/--etcd-keyfile). */
  etcdTls?: EtcdTls;
  /** KUBE_ETCD_COMPACTION_INTERVAL (kube's --etcd-compaction-interval, default 5m; 0 never compacts). */
  etcdCompactionIntervalMs?: number;
  /**
   * The etcd keys this server may touch (libs/storage StorageOptions.prefix): `/registry/` for the control plane;
   * an aggregated server is confined to `/registry/<its group>/` (AggregatedApiServerModule), as its etcd role is.
   */
  etcdPrefix?: string;
  /**
   * KUBE_ENCRYPTION_PROVIDER_CONFIG (kube's --encryption-provider-config): the EncryptionConfiguration the resources
   * it names are stored with; KUBE_ENCRYPTION_PROVIDER_CONFIG_AUTOMATIC_RELOAD=true re-reads it when it changes.
   */
  encryption?: EncryptionConfigSource;
  natsUrl?: string;
  /** KUBE_NATS_CA_FILE / KUBE_NATS_CERT_FILE / KUBE_NATS_KEY_FILE: TLS to nats-server and this service's NATS identity. */
  natsTls?: RegistrationNatsTls;
  /** PEM of the CA that signed the serving certificate, announced as the caBundle over NATS. */
  servingCAPem?: string;
  /**
   * Priorities announced over NATS with every group/version (an aggregated server's APIService); without
   * them only group/versions with a built-in priority can be announced.
   */
  announcedPriority?: { groupPriorityMinimum: number; versionPriority: number };
  server: ApiServerOptions;
}

function env(name: string, fallback?: string): string {
  const v = process.env[name];
  if (v !== undefined && v !== '') return v;
  if (fallback !== undefined) return fallback;
  throw new Error(`missing required environment variable ${name}`);
}

function readOptional(path: string | undefined): string | undefined {
  return path ? readFileSync(path, 'utf8') : undefined;
}

/** One CSV record (RFC 4180, as Go's encoding/csv with TrimLeadingSpace): empty fields are kept. */
function csvRecord(line: string): string[] {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    let field = '';
    if (line[i] === '"') {
      for (i++; i < line.length; i++) {
        if (line[i] !== '"') field += line[i];
        else if (line[i + 1] === '"') field += line[++i];
        else break;
      }
      i++;
      const comma = line.indexOf(',', i);
      field += comma < 0 ? line.slice(i) : line.slice(i, comma);
      i = comma < 0 ? line.length : comma;
    } else {
      const comma = line.indexOf(',', i);
      field = comma < 0 ? line.slice(i) : line.slice(i, comma);
      i = comma < 0 ? line.length : comma;
    }
    fields.push(field);
    if (i >= line.length) return fields;
    i++;
  }
}

/**
 * Parses a kube static token file (kube's tokenfile.NewCSV): `token,user,uid[,"group1,group2"]`, the uid may be
 * empty; fewer than 3 columns is an error; a record with an empty token is skipped.
 */
export function parseTokenFile(text: string, path = 'token file'): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const record = csvRecord(line);
    if (record.length < 3) throw new Error(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    const [token, name, uid, groups] = record;
    if (!token) continue;
    tokens.set(token, { name, uid: uid || undefined, groups: [...(record.length >= 4 ? groups.split(',') : []), 'system:authenticated'] });
  }
  return tokens;
}

/** The etcd client TLS files, when any is set; whether they fit the endpoints is checked when connecting. */
export function etcdTlsFromEnv(e: Readonly<Record<string, string | undefined>> = process.env): EtcdTls | undefined {
  const [caPem, certPem, keyPem] = [e.KUBE_ETCD_CAFILE, e.KUBE_ETCD_CERTFILE, e.KUBE_ETCD_KEYFILE].map((f) => readOptional(f || undefined));
  return caPem || certPem || keyPem ? { caPem, certPem, keyPem } : undefined;
}

/**
 * TLS to nats-server: KUBE_NATS_CA_FILE (its CA) and KUBE_NATS_CERT_FILE / KUBE_NATS_KEY_FILE (this service's
 * client certificate, its NATS identity). Refuses half a client certificate or an unreadable file at start,
 * rather than reconnecting forever with a configuration that can never work.
 */
export function natsTlsFromEnv(e: Readonly<Record<string, string | undefined>> = process.env): RegistrationNatsTls | undefined {
  const [caFile, certFile, keyFile] = [e.KUBE_NATS_CA_FILE, e.KUBE_NATS_CERT_FILE, e.KUBE_NATS_KEY_FILE].map((f) => f || undefined);
  if (!caFile && !certFile && !keyFile) return undefined;
  if (!certFile !== !keyFile) throw new Error('KUBE_NATS_CERT_FILE and KUBE_NATS_KEY_FILE must be set together');
  for (const file of [caFile, certFile, keyFile]) if (file) readFileSync(file); // fail now on a missing or unreadable file
  return { caFile, certFile, keyFile };
}

/**
 * kube's --service-account-key-file (KUBE_SERVICE_ACCOUNT_KEY_FILE: keys that verify tokens, public or private),
 * --service-account-signing-key-file (KUBE_SERVICE_ACCOUNT_SIGNING_KEY_FILE: the key that signs them; also the
 * verification key when no key file is given, as kube completes it), --service-account-issuer
 * (KUBE_SERVICE_ACCOUNT_ISSUER), --service-account-jwks-uri (KUBE_SERVICE_ACCOUNT_JWKS_URI) and --api-audiences
 * (KUBE_API_AUDIENCES, comma-separated; default the issuer).
 */
export function serviceAccountOptionsFromEnv(e: Readonly<Record<string, string | undefined>> = process.env): ServiceAccountTokenOptions | undefined {
  const signingKeyPem = readOptional(e.KUBE_SERVICE_ACCOUNT_SIGNING_KEY_FILE || undefined);
  const keyPem = readOptional(e.KUBE_SERVICE_ACCOUNT_KEY_FILE || undefined) ?? signingKeyPem;
  if (!keyPem) return undefined;
  const apiAudiences = (e.KUBE_API_AUDIENCES ?? '').split(',').map((a) => a.trim()).filter(Boolean);
  return { issuer: e.KUBE_SERVICE_ACCOUNT_ISSUER || DEFAULT_SERVICE_ACCOUNT_ISSUER, keyPem, signingKeyPem, apiAudiences: apiAudiences.length ? apiAudiences : undefined, jwksUri: e.KUBE_SERVICE_ACCOUNT_JWKS_URI || undefined };
}

/** The CN of the front proxy's client certificate when KUBE_REQUESTHEADER_ALLOWED_NAMES is not set (kubeadm's). */
export const DEFAULT_REQUESTHEADER_ALLOWED_NAMES: readonly string[] = ['front-proxy-client'];

/**
 * kube's --requestheader-client-ca-file (KUBE_REQUESTHEADER_CLIENT_CA_FILE) and --requestheader-allowed-names
 * (KUBE_REQUESTHEADER_ALLOWED_NAMES, comma-separated). Unset, the allowed names are kubeadm's `front-proxy-client`:
 * "any certificate the CA signed" must be asked for by setting the variable to an empty value (and is warned
 * about at start), never be what a forgotten variable means.
 */
export function requestHeaderFromEnv(e: Readonly<Record<string, string | undefined>> = process.env): RequestHeaderOptions | undefined {
  const caFile = e.KUBE_REQUESTHEADER_CLIENT_CA_FILE;
  if (!caFile) return undefined;
  const names = e.KUBE_REQUESTHEADER_ALLOWED_NAMES;
  const allowedNames = names === undefined ? [...DEFAULT_REQUESTHEADER_ALLOWED_NAMES] : names.split(',').map((n) => n.trim()).filter(Boolean);
  return { caPem: readFileSync(caFile, 'utf8'), allowedNames };
}

export function serverConfigFromEnv(component: string, defaultPort: number): ServerConfig {
  const tokenFile = process.env.KUBE_TOKEN_AUTH_FILE;
  return {
    etcdEndpoints: env('KUBE_ETCD_ENDPOINTS', 'http://127.0.0.1:2379').split(','),
    etcdTls: etcdTlsFromEnv(),
    etcdCompactionIntervalMs: parseGoDuration(env('KUBE_ETCD_COMPACTION_INTERVAL', '5m')),
    encryption: encryptionFromEnv(component),
    natsUrl: process.env.KUBE_NATS_URL || undefined,
    natsTls: natsTlsFromEnv(),
    servingCAPem: readOptional(process.env.KUBE_SERVING_CA_FILE ?? process.env.KUBE_CLIENT_CA_FILE),
    server: {
      component,
      bindAddress: env('KUBE_BIND_ADDRESS', '127.0.0.1'),
      port: Number(env('KUBE_SECURE_PORT', String(defaultPort))),
      tls: { certPem: readFileSync(env('KUBE_TLS_CERT_FILE'), 'utf8'), keyPem: readFileSync(env('KUBE_TLS_PRIVATE_KEY_FILE'), 'utf8') },
      authentication: {
        clientCAPem: readOptional(process.env.KUBE_CLIENT_CA_FILE),
        requestHeader: requestHeaderFromEnv(),
        tokens: tokenFile ? parseTokenFile(readFileSync(tokenFile, 'utf8'), tokenFile) : undefined,
        serviceAccounts: serviceAccountOptionsFromEnv(),
        structured: structuredAuthenticationFromEnv(component),
      },
      maxRequestsInFlight: Number(env('KUBE_MAX_REQUESTS_INFLIGHT', '400')),
      maxMutatingRequestsInFlight: Number(env('KUBE_MAX_MUTATING_REQUESTS_INFLIGHT', '200')),
      requestTimeoutMs: Number(env('KUBE_REQUEST_TIMEOUT_SECONDS', '60')) * 1000,
      readHeaderTimeoutMs: Number(env('KUBE_READ_HEADER_TIMEOUT_SECONDS', '32')) * 1000,
      requestLog: requestLogOptionsFromEnv(),
      minRequestTimeoutSeconds: Number(env('KUBE_MIN_REQUEST_TIMEOUT_SECONDS', '1800')),
      advertiseAddress: process.env.KUBE_ADVERTISE_ADDRESS,
      profiling: profilingFromEnv(),
      tracing: tracingFromEnv(),
      http2: http2ServingFromEnv(process.env, BACKEND_HTTP2.maxStreamsPerConnection),
    },
  };
}

/**
 * KUBE_AUTHENTICATION_CONFIG (kube's --authentication-config): an AuthenticationConfiguration whose JWT
 * authenticators verify bearer tokens, reloaded when the file changes; an invalid file stops the server at start-up.
 * A JWT authenticator may not claim the service-account issuer (kube's disallowed issuers).
 */
export function structuredAuthenticationFromEnv(component: string, e: Readonly<Record<string, string | undefined>> = process.env): StructuredAuthentication | undefined {
  const path = e.KUBE_AUTHENTICATION_CONFIG;
  if (!path) return undefined;
  const logger = new Logger('Authentication');
  try {
    return StructuredAuthentication.fromFile(path, {
      disallowedIssuers: [e.KUBE_SERVICE_ACCOUNT_ISSUER || DEFAULT_SERVICE_ACCOUNT_ISSUER],
      log: (m) => logger.warn(`${component}: ${m}`),
    });
  } catch (err) {
    throw new Error(`failed to load authentication configuration from file ${JSON.stringify(path)}: ${(err as Error).message}`);
  }
}

/** Encryption at rest from KUBE_ENCRYPTION_PROVIDER_CONFIG; an invalid file stops the server at start-up, as kube's does. */
export function encryptionFromEnv(component: string): EncryptionConfigSource | undefined {
  const path = process.env.KUBE_ENCRYPTION_PROVIDER_CONFIG;
  if (!path) return undefined;
  const logger = new Logger('EncryptionConfig');
  return EncryptionConfigSource.fromFile(path, {
    automaticReload: process.env.KUBE_ENCRYPTION_PROVIDER_CONFIG_AUTOMATIC_RELOAD === 'true',
    log: (m) => logger.log(`${component}: ${m}`),
  });
}

/** The process's etcd storage as the config says: endpoints, TLS, kube's periodic compaction, encryption at rest. */
export function storageFor(config: Pick<ServerConfig, 'etcdEndpoints' | 'etcdTls' | 'etcdCompactionIntervalMs' | 'etcdPrefix' | 'encryption'>): Storage {
  const logger = new Logger('Compactor');
  return new Storage({ endpoints: config.etcdEndpoints, tls: config.etcdTls, prefix: config.etcdPrefix, compactionIntervalMs: config.etcdCompactionIntervalMs, log: (m) => logger.log(m), encryption: config.encryption });
}
