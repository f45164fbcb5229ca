import { request } from 'node:https';
import type { KubeObject } from '@kube/apimachinery';
import { statusErrorFrom } from '@kube/client';
import { failoverInstance } from './backend.instances';
import type { BackendAgents, BackendTarget } from './backend.target';

/** The identity the aggregator asserts (front-proxy headers) for a request it makes on its own behalf. */
export interface BackendIdentity {
  user: string;
  groups: readonly string[];
}

const TIMEOUT_MS = 10_000;

function once(target: BackendTarget, agents: BackendAgents, method: string, path: string, identity: BackendIdentity, body?: unknown): Promise<KubeObject> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const headers: Record<string, string | string[]> = { Accept: 'application/json', 'X-Remote-User': identity.user, 'X-Remote-Group': [...identity.groups] };
  if (payload) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(payload.length);
  }
  return new Promise((resolve, reject) => {
    const req = request({ agent: agents.agentFor(target), host: target.url.hostname, port: target.url.port || 443, servername: target.serverName, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const code = res.statusCode ?? 0;
        if (code < 200 || code >= 300) return reject(statusErrorFrom(code, text, `${method} ${path}`));
        try {
          resolve((text ? JSON.parse(text) : {}) as KubeObject);
        } catch (err) {
          reject(err);
        }
      });
    });
    req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error(`${method} ${path}: timed out after ${TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** A connection that never opened: nothing was sent, so another instance may take the request. */
function refused(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ECONNREFUSED' || code === 'EHOSTUNREACH';
}

/**
 * A JSON request the aggregator makes to a backend as `identity` (its front-proxy certificate asserts it, as for
 * its own discovery GETs): the backend authorizes that user, so the aggregator's controllers get only what RBAC
 * grants it. Failures are the backend's Status (StatusError); a refused connection tries another instance of
 * `service`.
 */
export async function backendRequest(target: BackendTarget, agents: BackendAgents, method: string, path: string, identity: BackendIdentity, body?: unknown, service?: BackendTarget): Promise<KubeObject> {
  let t: BackendTarget = target;
  for (;;) {
    try {
      return await once(t, agents, method, path, identity, body);
    } catch (err) {
      const next: BackendTarget | undefined = service && refused(err) ? failoverInstance(service, t) : undefined;
      if (!next) throw err;
      t = next;
    }
  }
}
