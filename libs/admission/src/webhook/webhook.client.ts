/**
 * The HTTPS client of one webhook (kube's webhook.ClientManager HookClient), shared by admission webhooks and CRD
 * conversion webhooks: `clientConfig.url` as given, or `clientConfig.service` resolved to an endpoint address and
 * verified as `<name>.<namespace>.svc`, trusting `caBundle` (system roots without it). One keep-alive agent per
 * client; a deadline per call. Failures read like Go's http client errors: `Post "<url>?timeout=10s": <cause>`.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import { Agent, request } from 'node:https';
import { context, propagation, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';

/** kube's webhook client default (k8s.io/apiserver pkg/util/webhook defaultRequestTimeout). */
export const WEBHOOK_TIMEOUT_MS = 30_000;
/**
 * Idle pooled connections close after this (Go's http.Transport IdleConnTimeout), so a client dropped for a
 * newer configuration needs no explicit close that could cut calls still in flight.
 */
const IDLE_SOCKET_TIMEOUT_MS = 90_000;

/** A webhook's `clientConfig` (admissionregistration and apiextensions share the shape). */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  /** Base64 of PEM-encoded CA certificates ([]byte in Go). */
  caBundle?: string;
}

/** Resolves a Service to the endpoint `host:port` to dial (libs/apiserver's resolveServiceEndpoint). */
export type ServiceResolver = (ref: { namespace: string; name: string; port?: number }) => Promise<{ resolved: true; address: string } | { resolved: false; message: string }>;

/** Where one call goes: the URL to dial and the name the serving certificate must carry. */
interface WebhookEndpoint {
  url: URL;
  servername?: string;
}

interface HttpResponse {
  status: number;
  body: string;
}

class DeadlineExceeded extends Error {
  constructor() {
    super('context deadline exceeded');
  }
}

/** Go's time.Duration formatting for whole seconds or milliseconds, as kube puts it in `?timeout=`. */
function goDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** Node's connection errors in the words of Go's net package where they differ. */
function describeError(err: Error & { code?: string; address?: string; port?: number }): string {
  if (err.code === 'ECONNREFUSED' && err.address) return `dial tcp ${err.address}:${err.port ?? ''}: connect: connection refused`;
  return err.message;
}

/** rest.Result.Into for a non-2xx answer: a Status's message, else client-go's generic texts. */
function httpFailure(res: HttpResponse): string {
  try {
    const status = JSON.parse(res.body) as { kind?: unknown; message?: unknown };
    if (status.kind === 'Status' && typeof status.message === 'string' && status.message) return status.message;
  } catch {
    // not JSON: fall through to the generic text
  }
  if (res.status >= 500 && res.body.trim()) return `an error on the server (${JSON.stringify(res.body.trim())}) has prevented the request from succeeding`;
  return `the server responded with the status code ${res.status} but did not return more information`;
}

export class WebhookClient {
  private readonly agent: Agent;
  private readonly query: string;

  constructor(
    private readonly config: WebhookClientConfig,
    private readonly resolveService?: ServiceResolver,
    private readonly timeoutMs = WEBHOOK_TIMEOUT_MS,
  ) {
    const ca = config.caBundle ? Buffer.from(config.caBundle, 'base64').toString('utf8') : undefined;
    this.agent = new Agent({ keepAlive: true, maxFreeSockets: 16, timeout: IDLE_SOCKET_TIMEOUT_MS, ca });
    this.query = `?timeout=${goDuration(timeoutMs)}`;
  }

  /** The URL as kube names it in errors (a Service by its DNS name, not the endpoint dialled). */
  get displayURL(): string {
    const svc = this.config.service;
    if (!svc) return `${this.config.url ?? ''}${this.query}`;
    return `https://${svc.name}.${svc.namespace}.svc:${svc.port ?? 443}${svc.path ?? ''}${this.query}`;
  }

  /** POSTs `body` as JSON and returns the decoded answer; any failure is an Error in Go's words. */
  async post(body: unknown): Promise<unknown> {
    try {
      const res = await this.send(await this.endpoint(), Buffer.from(JSON.stringify(body)));
      if (res.status < 200 || res.status > 299) throw new Error(httpFailure(res));
      return JSON.parse(res.body) as unknown;
    } catch (err) {
      throw new Error(`Post ${JSON.stringify(this.displayURL)}: ${describeError(err as Error)}`);
    }
  }

  private async endpoint(): Promise<WebhookEndpoint> {
    const svc = this.config.service;
    if (!svc) return { url: new URL(this.config.url ?? '') };
    if (!this.resolveService) throw new Error('service resolution is not available in this server');
    const resolved = await this.resolveService(svc);
    if (!resolved.resolved) throw new Error(resolved.message);
    return { url: new URL(`https://${resolved.address}${svc.path ?? ''}`), servername: `${svc.name}.${svc.namespace}.svc` };
  }

  private send(endpoint: WebhookEndpoint, body: Buffer): Promise<HttpResponse> {
    const headers: OutgoingHttpHeaders = { 'Content-Type': 'application/json', Accept: 'application/json', 'Content-Length': body.length };
    // Inside a traced request: a client span, and the webhook sees it as its caller (kube's otelhttp transport).
    const parent = trace.getActiveSpan();
    const span = parent?.isRecording() ? webhookTracer().startSpan('HTTP POST', { kind: SpanKind.CLIENT, attributes: { 'http.method': 'POST', 'http.url': this.displayURL } }) : undefined;
    if (span) propagation.inject(trace.setSpan(context.active(), span), headers);
    const sent = new Promise<HttpResponse>((resolve, reject) => {
      const req = request(
        {
          agent: this.agent,
          method: 'POST',
          protocol: endpoint.url.protocol,
          hostname: endpoint.url.hostname.replace(/^\[|\]$/g, ''),
          port: endpoint.url.port || 443,
          path: `${endpoint.url.pathname}${endpoint.url.search ? `${endpoint.url.search}&${this.query.slice(1)}` : this.query}`,
          servername: endpoint.servername,
          headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      // The deadline covers the whole exchange, like Go's client timeout, not just idle sockets.
      const timer = setTimeout(() => req.destroy(new DeadlineExceeded()), this.timeoutMs);
      req.on('close', () => clearTimeout(timer));
      req.on('error', reject);
      req.end(body);
    });
    if (!span) return sent;
    return sent.then(
      (r) => {
        span.setAttribute('http.status_code', r.status);
        span.end();
        return r;
      },
      (err: unknown) => {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        span.end();
        throw err;
      },
    );
  }
}

let tracer: Tracer | undefined;
const webhookTracer = (): Tracer => (tracer ??= trace.getTracer('k8s.io/apiserver/pkg/admission/plugin/webhook'));
