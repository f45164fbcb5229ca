import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuditEvent } from '../audit/audit.event';
import type { AuditPolicy } from '../audit/audit.policy';
import { AuditLog } from '../logging/audit.log';
import { ApiRequest, type Filter, type RequestHandler } from './api-request';
import { withRequestInfo } from './with-request-info';

export interface TestResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

export interface TestServer {
  /** A header given as an array is sent as one line per value. */
  request(method: string, path: string, headers?: Record<string, string | string[]>, body?: string): Promise<TestResponse>;
  close(): Promise<void>;
}

/** A handler that answers 200 with what the chain made of the request (user, request id, info). */
export const echo: RequestHandler = async (r) => {
  const body = JSON.stringify({ user: r.user, requestId: r.requestId, info: r.info, longRunning: r.longRunning, headers: r.req.headers });
  r.res.writeHead(200, { 'Content-Type': 'application/json' });
  r.res.end(body);
  return 200;
};

/**
 * A real HTTP server running `filters` (outermost first, after with-request-info, which most filters read)
 * in front of `handler`, for filter specs.
 */
export async function serveFilters(filters: Filter[], handler: RequestHandler = echo): Promise<TestServer> {
  const chain = [withRequestInfo, ...filters].reduceRight<RequestHandler>((next, f) => f(next), handler);
  const server = createServer((req, res) => void chain(new ApiRequest(req, res)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    request: (method, path, headers = {}, body) =>
      new Promise<TestResponse>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const body = Buffer.concat(chunks).toString();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) });
          });
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(body);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An audit log that keeps its events in memory. */
export class MemoryAudit extends AuditLog {
  readonly events: AuditEvent[] = [];
  constructor(policy?: AuditPolicy) {
    super(undefined, policy);
  }
  override get enabled(): boolean {
    return true;
  }
  override write(event: AuditEvent): boolean {
    this.events.push(event);
    return true;
  }
}
