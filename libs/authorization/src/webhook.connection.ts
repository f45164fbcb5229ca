/**
 * How an authorization webhook is reached (connectionInfo): a kubeconfig file (kube's webhookutil.LoadKubeconfig:
 * the current context's cluster server, CA, client certificate or token) or the in-cluster configuration
 * (rest.InClusterConfig: the service account's token and CA, KUBERNETES_SERVICE_HOST/PORT).
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import type { WebhookConnectionInfo } from './authorization.config';

/** What one POST of a review answered: the status code and body, or why no answer came. */
export type WebhookResponse = { statusCode: number; body: string } | { failure: 'timeout' | 'error'; message: string; code?: string };

export interface WebhookClient {
  /** The URL posted to (kube appends `?timeout=` from the webhook's timeout). */
  readonly url: string;
  post(body: string): Promise<WebhookResponse>;
  close(): void;
}

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

interface TlsMaterial {
  server: string;
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  token?: string;
  insecure?: boolean;
  servername?: string;
}

function named(list: unknown, name: string, field: string): Raw | undefined {
  if (!Array.isArray(list)) return undefined;
  const hit = list.find((e) => isRecord(e) && e.name === name) as Raw | undefined;
  return hit && isRecord(hit[field]) ? (hit[field] as Raw) : undefined;
}

function fileOrData(base: string, file: unknown, data: unknown): Buffer | undefined {
  if (typeof data === 'string' && data) return Buffer.from(data, 'base64');
  if (typeof file === 'string' && file) return readFileSync(isAbsolute(file) ? file : join(base, file));
  return undefined;
}

/** clientcmd's view of a kubeconfig: its current context (or its only cluster and user when it names none). */
function fromKubeconfig(path: string): TlsMaterial {
  const doc = parse(readFileSync(path, 'utf8')) as unknown;
  if (!isRecord(doc)) throw new Error('invalid configuration: no configuration has been provided');
  const base = dirname(path);
  let cluster: Raw | undefined;
  let user: Raw | undefined;
  const current = typeof doc['current-context'] === 'string' ? doc['current-context'] : '';
  if (current) {
    const ctx = named(doc.contexts, current, 'context');
    if (!ctx) throw new Error(`invalid configuration: context was not found for specified context: ${current}`);
    cluster = named(doc.clusters, String(ctx.cluster ?? ''), 'cluster');
    user = named(doc.users, String(ctx.user ?? ''), 'user');
    if (!cluster) throw new Error(`invalid configuration: cluster "${String(ctx.cluster ?? '')}" was not found for context "${current}"`);
  } else {
    const clusters = Array.isArray(doc.clusters) ? doc.clusters : [];
    const users = Array.isArray(doc.users) ? doc.users : [];
    cluster = isRecord(clusters[0]) && isRecord(clusters[0].cluster) ? (clusters[0].cluster as Raw) : undefined;
    user = isRecord(users[0]) && isRecord(users[0].user) ? (users[0].user as Raw) : undefined;
  }
  const server = typeof cluster?.server === 'string' ? cluster.server : '';
  if (!server) throw new Error('invalid configuration: no server found for cluster');
  const tokenFile = typeof user?.tokenFile === 'string' ? user.tokenFile : undefined;
  return {
    server,
    ca: fileOrData(base, cluster?.['certificate-authority'], cluster?.['certificate-authority-data']),
    cert: fileOrData(base, user?.['client-certificate'], user?.['client-certificate-data']),
    key: fileOrData(base, user?.['client-key'], user?.['client-key-data']),
    token: typeof user?.token === 'string' ? user.token : tokenFile ? readFileSync(isAbsolute(tokenFile) ? tokenFile : join(base, tokenFile), 'utf8').trim() : undefined,
    insecure: cluster?.['insecure-skip-tls-verify'] === true,
    servername: typeof cluster?.['tls-server-name'] === 'string' ? cluster['tls-server-name'] : undefined,
  };
}

const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** The most of a webhook's answer read (3 MiB, kube's limit on a request body). */
const MAX_RESPONSE_BYTES = 3 * 1024 * 1024;

/** rest.InClusterConfig, posting to the cluster's own SubjectAccessReview API. */
function inCluster(version: string, env: NodeJS.ProcessEnv): TlsMaterial {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) throw new Error('unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined');
  const hostPort = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return {
    server: `https://${hostPort}/apis/authorization.k8s.io/${version}/subjectaccessreviews`,
    ca: readFileSync(join(SA_DIR, 'ca.crt')),
    token: readFileSync(join(SA_DIR, 'token'), 'utf8').trim(),
  };
}

/** Go's net/http error texts, so a review's evaluationError reads as kube's. */
function goError(url: string, err: NodeJS.ErrnoException): string {
  const target = new URL(url);
  const addr = `${target.hostname}:${target.port || '443'}`;
  if (err.code === 'ECONNREFUSED') return `Post "${url}": dial tcp ${addr}: connect: connection refused`;
  if (err.code === 'ECONNRESET') return `Post "${url}": read tcp ${addr}: read: connection reset by peer`;
  if (err.code === 'ENOTFOUND') return `Post "${url}": dial tcp: lookup ${target.hostname}: no such host`;
  return `Post "${url}": ${err.message}`;
}

/**
 * One client per configured webhook, its TLS session and connections kept (a keep-alive agent); every POST
 * bounded by the webhook's timeout (http.Client.Timeout: connect, write and the whole answer).
 */
export function webhookClient(info: WebhookConnectionInfo, sarVersion: string, timeoutMs: number, timeoutParam: string, env: NodeJS.ProcessEnv = process.env): WebhookClient {
  const material = info.type === 'InClusterConfig' ? inCluster(sarVersion, env) : fromKubeconfig(info.kubeConfigFile ?? '');
  const target = new URL(material.server);
  if (target.protocol !== 'https:') throw new Error(`webhook server ${material.server} must use https`);
  target.searchParams.set('timeout', timeoutParam);
  const url = target.toString();
  const agent = new Agent({ keepAlive: true, ca: material.ca, cert: material.cert, key: material.key, rejectUnauthorized: !material.insecure, servername: material.servername });
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json, */*', 'User-Agent': 'kube-apiserver/v1.33.0 (linux/amd64) kubernetes' };
  if (material.token) headers.Authorization = `Bearer ${material.token}`;
  return {
    url,
    post: (body) =>
      new Promise<WebhookResponse>((resolve) => {
        let settled = false;
        const done = (r: WebhookResponse): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(r);
        };
        const req = request(target, { method: 'POST', agent, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } }, (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            // A review answer is a few hundred bytes: a webhook streaming more is broken, not to be buffered.
            if (size > MAX_RESPONSE_BYTES) {
              done({ failure: 'error', message: `Post "${url}": response body larger than ${MAX_RESPONSE_BYTES} bytes` });
              req.destroy();
              return;
            }
            chunks.push(c);
          });
          res.on('end', () => done({ statusCode: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', (err) => done({ failure: 'error', message: goError(url, err), code: (err as NodeJS.ErrnoException).code }));
        });
        const timer = setTimeout(() => {
          done({ failure: 'timeout', message: `Post "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` });
          req.destroy();
        }, timeoutMs);
        req.on('error', (err: NodeJS.ErrnoException) => done({ failure: 'error', message: goError(url, err), code: err.code }));
        req.end(body);
      }),
    close: () => agent.destroy(),
  };
}
