/**
 * A small HTTPS client of the front door (the aggregator) for aggregated servers: registration writes, and the
 * reads a computed resource makes. One keep-alive agent per client, so repeated reads reuse their connection.
 */
import { Agent, request } from 'node:https';
import { StatusError, type Status, type StatusReason } from '@kube/apimachinery';

/** Where and as whom to talk to the control plane: the aggregator URL and a client certificate. */
export interface RegistrationTarget {
  url: string;
  certPem: string;
  keyPem: string;
  /** CA that signed the aggregator's serving certificate. */
  caPem: string;
}

export interface ApiResponse {
  status: number;
  body: string;
}

export interface ApiRequest {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
  accept?: string;
}

/** Thrown when the server is unreachable or answers too slowly (worth retrying). */
export class ApiTimeoutError extends Error {}

const DEFAULT_TIMEOUT_MS = 10_000;

export class ApiClient {
  private readonly agent: Agent;

  constructor(
    private readonly target: RegistrationTarget,
    private readonly timeoutMs = DEFAULT_TIMEOUT_MS,
  ) {
    this.agent = new Agent({ keepAlive: true, cert: target.certPem, key: target.keyPem, ca: target.caPem });
  }

  send({ method, path, body, contentType, accept = 'application/json' }: ApiRequest): Promise<ApiResponse> {
    const headers: Record<string, string | number> = { Accept: accept };
    if (body !== undefined) {
      headers['Content-Type'] = contentType ?? 'application/json';
      headers['Content-Length'] = Buffer.byteLength(body);
    }
    return new Promise((resolve, reject) => {
      const req = request(new URL(path, this.target.url), { method, agent: this.agent, headers, timeout: this.timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new ApiTimeoutError(`${method} ${path}: timed out`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  /** GET as JSON; a non-2xx answer is thrown as the server's Status (so a 404 stays a 404). */
  async getJson<T>(path: string, accept?: string): Promise<T> {
    const res = await this.send({ method: 'GET', path, accept });
    if (res.status >= 200 && res.status < 300) return JSON.parse(res.body) as T;
    throw statusErrorOf(res, `GET ${path}`);
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The Status a server answered with, or one made up from the code when the body is not a Status. */
function statusErrorOf(res: ApiResponse, what: string): StatusError {
  let status: Partial<Status> = {};
  try {
    status = JSON.parse(res.body) as Partial<Status>;
  } catch {
    // not JSON: keep the code, say what was asked
  }
  const reason = ((status.kind === 'Status' && status.reason) || 'InternalError') as StatusReason;
  return new StatusError(res.status, reason, status.message ?? `${what}: ${res.status} ${res.body.slice(0, 200)}`, status.details);
}
