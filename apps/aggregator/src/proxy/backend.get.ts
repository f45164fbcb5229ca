import { request } from 'node:https';
import type { BackendAgents, BackendTarget } from './backend.target';

const IDENTITY = { 'x-remote-user': 'system:kube-aggregator', 'x-remote-group': 'system:masters' };

/** The largest document the aggregator reads from a backend (discovery, OpenAPI v2 of a server with many kinds). */
export const MAX_BACKEND_DOCUMENT_BYTES = 64 * 1024 * 1024;

export interface BackendResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

export interface BackendGetLimits {
  /** The whole exchange (connect, headers, every body byte) must finish within this; a trickling backend fails. */
  timeoutMs?: number;
  maxBytes?: number;
}

/**
 * A GET the aggregator makes on its own behalf (discovery, OpenAPI, availability checks), bounded in time for the
 * whole exchange and in size, so one slow or huge backend cannot stall discovery for everyone.
 */
export function backendGet(target: BackendTarget, agents: BackendAgents, path: string, accept: string, limits: BackendGetLimits = {}): Promise<BackendResponse> {
  const timeoutMs = limits.timeoutMs ?? 5000;
  const maxBytes = limits.maxBytes ?? MAX_BACKEND_DOCUMENT_BYTES;
  return new Promise((resolve, reject) => {
    const req = request(
      { agent: agents.agentFor(target), host: target.url.hostname, port: target.url.port || 443, servername: target.serverName, path, method: 'GET', headers: { Accept: accept, ...IDENTITY } },
      (res) => {
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > maxBytes) return void req.destroy(new Error(`GET ${path}: response of ${declared} bytes exceeds the limit of ${maxBytes}`));
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > maxBytes) return void req.destroy(new Error(`GET ${path}: response exceeds the limit of ${maxBytes} bytes`));
          chunks.push(c);
        });
        res.on('end', () => {
          clearTimeout(deadline);
          resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      },
    );
    const deadline = setTimeout(() => req.destroy(new Error(`GET ${path}: timed out after ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (err) => {
      clearTimeout(deadline);
      reject(err);
    });
    req.end();
  });
}
