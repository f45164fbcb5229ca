import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';

/** Where and how a webhook is called, from a kubeconfig file (client-go's rest.Config, the parts a webhook uses). */
export interface WebhookConnection {
  url: URL;
  ca?: Buffer;
  insecureSkipTLSVerify: boolean;
  serverName?: string;
  cert?: Buffer;
  key?: Buffer;
  /** The Authorization header: `Bearer <token>` or basic auth. */
  authorization?: string;
}

interface Named<T> {
  name?: string;
  cluster?: T;
  user?: T;
  context?: T;
}

type Fields = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function find(list: unknown, name: string, key: 'cluster' | 'user' | 'context'): Fields | undefined {
  if (!Array.isArray(list)) return undefined;
  const entry = (list as Array<Named<Fields>>).find((e) => e?.name === name);
  return entry ? (entry[key] ?? {}) : undefined;
}

/**
 * Reads a webhook's kubeconfig as client-go's clientcmd does for kube's webhooks (pkg/util/webhook
 * LoadKubeconfig): the current context's cluster (server, certificate-authority[-data],
 * insecure-skip-tls-verify, tls-server-name) and user (client-certificate[-data], client-key[-data], token,
 * tokenFile, username/password); relative paths are relative to the file. Errors read like clientcmd's.
 */
export function loadWebhookKubeconfig(path: string): WebhookConnection {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new Error(e.code === 'ENOENT' ? `stat ${path}: no such file or directory` : e.message);
  }
  let doc: Fields;
  try {
    doc = (parse(text) ?? {}) as Fields;
  } catch (err) {
    throw new Error(`error loading config file "${path}": ${(err as Error).message}`);
  }
  const base = dirname(resolve(path));
  const file = (p: string): string => (isAbsolute(p) ? p : resolve(base, p));
  const contextName = str(doc['current-context']);
  if (!contextName) throw new Error('invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable');
  const context = find(doc.contexts, contextName, 'context');
  if (!context) throw new Error(`invalid configuration: context was not found for specified context: ${contextName}`);
  const clusterName = str(context.cluster) ?? '';
  const cluster = find(doc.clusters, clusterName, 'cluster');
  if (!cluster) throw new Error(`invalid configuration: cluster "${clusterName}" was not found for context "${contextName}"`);
  const userName = str(context.user);
  const user = userName === undefined ? {} : find(doc.users, userName, 'user');
  if (!user) throw new Error(`invalid configuration: user "${userName}" was not found for context "${contextName}"`);
  const server = str(cluster.server);
  if (!server) throw new Error(`invalid configuration: no server found for cluster "${clusterName}"`);
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new Error(`host must be a URL or a host:port pair: "${server}"`);
  }

  const read = (p: string, what: string, owner: string): Buffer => {
    try {
      return readFileSync(file(p));
    } catch (err) {
      throw new Error(`unable to read ${what} ${p} for ${owner} due to open ${file(p)}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (err as Error).message}`);
    }
  };
  const data = (inline: unknown, path: unknown, what: string, owner: string): Buffer | undefined => {
    if (str(inline)) return Buffer.from(inline as string, 'base64');
    return str(path) ? read(path as string, what, owner) : undefined;
  };

  const conn: WebhookConnection = {
    url,
    ca: data(cluster['certificate-authority-data'], cluster['certificate-authority'], 'certificate-authority', clusterName),
    insecureSkipTLSVerify: cluster['insecure-skip-tls-verify'] === true,
    serverName: str(cluster['tls-server-name']),
    cert: data(user['client-certificate-data'], user['client-certificate'], 'client-certificate', userName ?? ''),
    key: data(user['client-key-data'], user['client-key'], 'client-key', userName ?? ''),
  };
  if (conn.insecureSkipTLSVerify && conn.ca) throw new Error('invalid configuration: specifying a root certificates file with the insecure flag is not allowed');
  if (conn.cert && !conn.key) throw new Error(`invalid configuration: client-key-data or client-key must be specified for ${userName} to use the clientCert authentication method.`);
  if (conn.key && !conn.cert) throw new Error(`invalid configuration: client-cert-data or client-cert must be specified for ${userName} to use the clientCert authentication method.`);
  const token = str(user.token) ?? (str(user.tokenFile) ? read(user.tokenFile as string, 'tokenFile', userName ?? '').toString('utf8').trim() : undefined);
  if (token) conn.authorization = `Bearer ${token}`;
  else if (str(user.username) || str(user.password)) conn.authorization = `Basic ${Buffer.from(`${str(user.username) ?? ''}:${str(user.password) ?? ''}`).toString('base64')}`;
  return conn;
}
