import { request } from 'node:https';
import type { BackendAgents, BackendTarget } from './backend.target';

const IDENTITY = { 'x-remote-user': 'system:kube-aggregator', 'x-remote-group': 'system:masters' };

export interface BackendResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

/** A GET the aggregator makes on its own behalf (discovery, OpenAPI, availability checks), time-limited. */
export function backendGet(target: BackendTarget, agents: BackendAgents, path: string, accept: string, timeoutMs = 5000): Promise<BackendResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { agent: agents.agentFor(target), host: target.url.hostname, port: target.url.port || 443, servername: target.serverName, path, method: 'GET', headers: { Accept: accept, ...IDENTITY }, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${path}: timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
