import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { Counter, Gauge, Histogram, register } from 'prom-client';

function metric<T>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

/** kube's getHash: "sha256:<hex>" of a non-empty string. */
export function sha256Label(data: string): string {
  return data ? `sha256:${createHash('sha256').update(data).digest('hex')}` : '';
}

/** kube labels these metrics with the hash of the API server's identity, which its host name gives. */
export const apiserverIdHash = (): string => sha256Label(hostname());

/** kube's oidc metrics.go: latency of cache-missed token authentications by an issuer's authenticator. */
export const jwtAuthenticatorLatency = metric(
  'apiserver_authentication_jwt_authenticator_latency_seconds',
  () =>
    new Histogram({
      name: 'apiserver_authentication_jwt_authenticator_latency_seconds',
      help: 'Latency of jwt authentication operations in seconds. This is the time spent authenticating a token for cache miss only (i.e. when the token is not found in the cache).',
      labelNames: ['result', 'jwt_issuer_hash'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
);

export const authenticationConfigReloadsTotal = metric(
  'apiserver_authentication_config_controller_automatic_reloads_total',
  () =>
    new Counter({
      name: 'apiserver_authentication_config_controller_automatic_reloads_total',
      help: 'Total number of automatic reloads of authentication configuration split by status and apiserver identity.',
      labelNames: ['status', 'apiserver_id_hash'],
    }),
);

export const authenticationConfigReloadLastTimestamp = metric(
  'apiserver_authentication_config_controller_automatic_reload_last_timestamp_seconds',
  () =>
    new Gauge({
      name: 'apiserver_authentication_config_controller_automatic_reload_last_timestamp_seconds',
      help: 'Timestamp of the last automatic reload of authentication configuration split by status and apiserver identity.',
      labelNames: ['status', 'apiserver_id_hash'],
    }),
);

export const authenticationConfigLastConfigInfo = metric(
  'apiserver_authentication_config_controller_last_config_info',
  () =>
    new Gauge({
      name: 'apiserver_authentication_config_controller_last_config_info',
      help: 'Information about the last applied authentication configuration with hash as label, split by apiserver identity.',
      labelNames: ['apiserver_id_hash', 'hash'],
    }),
);

/** kube's JWKS fetch metrics (StructuredAuthenticationConfigurationJWKSMetrics): when each issuer's key set was last fetched, and which. */
export const jwksFetchLastTimestamp = metric(
  'apiserver_authentication_jwt_authenticator_jwks_fetch_last_timestamp_seconds',
  () =>
    new Gauge({
      name: 'apiserver_authentication_jwt_authenticator_jwks_fetch_last_timestamp_seconds',
      help: 'Timestamp of the last successful or failed JWKS fetch split by result, api server identity and jwt issuer for the JWT authenticator.',
      labelNames: ['result', 'jwt_issuer_hash', 'apiserver_id_hash'],
    }),
);

export const jwksFetchLastKeySetInfo = metric(
  'apiserver_authentication_jwt_authenticator_jwks_fetch_last_key_set_info',
  () =>
    new Gauge({
      name: 'apiserver_authentication_jwt_authenticator_jwks_fetch_last_key_set_info',
      help: 'Information about the last JWKS fetched by the JWT authenticator with hash as label, split by api server identity and jwt issuer.',
      labelNames: ['jwt_issuer_hash', 'apiserver_id_hash', 'hash'],
    }),
);
