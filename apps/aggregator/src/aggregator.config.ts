import { readFileSync } from 'node:fs';
import { auditOptionsFromEnv, http2ServingFromEnv, loadAuditPolicy, serverConfigFromEnv, type AuditOptions, type AuditPolicy, type Http2ServingOptions, type ServerConfig } from '@kube/apiserver';
import type { AuthorizationMode } from '@kube/authorization';
import { type GroupOwnership, groupOwnershipWith } from '@kube/registration';
import type { ProxyClientCertificate } from './proxy/backend.target';
import { proxyHttp2FromEnv } from './proxy/backend.h2-pool';

/** A service the aggregator fronts without an APIService.spec.service (core-api, extensions). */
export interface LocalBackend {
  name: string;
  url: string;
  caPem?: string;
}

export interface AggregatorConfig {
  server: ServerConfig;
  proxyClient: ProxyClientCertificate;
  backends: LocalBackend[];
  auditLogPath?: string;
  /** KUBE_AUDIT_POLICY_FILE (kube's --audit-policy-file), loaded and validated at start-up. */
  auditPolicy?: AuditPolicy;
  /** kube's audit backends: the log (KUBE_AUDIT_LOG_*, rotation) and the webhook (KUBE_AUDIT_WEBHOOK_*); overrides auditLogPath. */
  audit?: AuditOptions;
  /** KUBE_AUTHORIZATION_MODE by default. */
  authorizationMode?: AuthorizationMode;
  /** An AuthorizationConfiguration file (KUBE_AUTHORIZATION_CONFIG by default). */
  authorizationConfig?: string;
  /** Which service may announce which group/version over NATS (defaults plus KUBE_REGISTRATION_GROUP_OWNERS). */
  groupOwnership?: GroupOwnership;
  /** HTTP/2 at the front door (KUBE_HTTP2, KUBE_HTTP2_MAX_STREAMS_PER_CONNECTION); kube's defaults when absent. */
  http2?: Http2ServingOptions;
  /** KUBE_PROXY_HTTP2 (default false: opt-in): proxied watches go to the backends over HTTP/2. */
  proxyHttp2?: boolean;
}

/**
 * Environment of the aggregator, on top of the common server variables: KUBE_PROXY_CLIENT_CERT_FILE/_KEY_FILE
 * (front-proxy client certificate), KUBE_AGGREGATOR_BACKENDS ("core-api=https://127.0.0.1:6444,…"),
 * KUBE_BACKEND_CA_FILE (CA of the backends' serving certificates), KUBE_AUDIT_LOG_PATH, KUBE_AUDIT_POLICY_FILE (a bad policy refuses to start with kube's message),
 * the other KUBE_AUDIT_LOG_… and KUBE_AUDIT_WEBHOOK_… variables (kube's --audit-log-… and --audit-webhook-… flags),
 * KUBE_REGISTRATION_GROUP_OWNERS ("wardle.example.com=sample-apiserver,…": groups only that service may announce).
 */
export function aggregatorConfigFromEnv(): AggregatorConfig {
  const caFile = process.env.KUBE_BACKEND_CA_FILE ?? process.env.KUBE_CLIENT_CA_FILE;
  const caPem = caFile ? readFileSync(caFile, 'utf8') : undefined;
  const backends = (process.env.KUBE_AGGREGATOR_BACKENDS ?? '')
    .split(',')
    .filter(Boolean)
    .map((entry) => {
      const [name, url] = entry.split('=');
      return { name, url, caPem };
    });
  const certFile = process.env.KUBE_PROXY_CLIENT_CERT_FILE;
  const keyFile = process.env.KUBE_PROXY_CLIENT_KEY_FILE;
  if (!certFile || !keyFile) throw new Error('KUBE_PROXY_CLIENT_CERT_FILE and KUBE_PROXY_CLIENT_KEY_FILE are required');
  return {
    server: serverConfigFromEnv('aggregator', 6443),
    proxyClient: { certPem: readFileSync(certFile, 'utf8'), keyPem: readFileSync(keyFile, 'utf8') },
    backends,
    auditLogPath: process.env.KUBE_AUDIT_LOG_PATH,
    auditPolicy: process.env.KUBE_AUDIT_POLICY_FILE ? auditPolicyFrom(process.env.KUBE_AUDIT_POLICY_FILE) : undefined,
    audit: auditOptionsFromEnv(),
    groupOwnership: groupOwnershipWith(process.env.KUBE_REGISTRATION_GROUP_OWNERS),
    http2: http2ServingFromEnv(),
    proxyHttp2: proxyHttp2FromEnv(),
  };
}

/** kube-apiserver's start-up error for a bad --audit-policy-file (pkg/server/options/audit.go). */
function auditPolicyFrom(path: string): AuditPolicy {
  try {
    return loadAuditPolicy(path);
  } catch (err) {
    throw new Error(`loading audit policy file: ${(err as Error).message}`);
  }
}
