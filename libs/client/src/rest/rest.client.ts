import { Agent, request as httpsRequest } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { createInterface } from 'node:readline';
import { context, defaultTextMapSetter, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { StatusError, type KubeList, type KubeObject, type Status, type StatusReason } from '@kube/apimachinery';
import type { ListerWatcher, ListResult, WatchEvent, WatchStream } from '../cache/lister-watcher';

/** Where and as whom a client talks to the API: the front door's URL, the CA that signed it, a client certificate. */
export interface RestConfig {
  url: string;
  caPem: string;
  certPem: string;
  keyPem: string;
  /** Sent as User-Agent (kube's controllers send `kube-controller-manager/<version> …`). */
  userAgent?: string;
  /** When tracing is on: each request is a client span whose traceparent the server receives (otelhttp's transport). */
  tracer?: Tracer;
}

const propagator = new W3CTraceContextPropagator();

/** A group/version/resource and whether it is namespaced: enough to build its paths. */
export interface ResourcePath {
  group: string;
  version: string;
  resource: string;
  namespaced: boolean;
}

export interface RequestOptions {
  body?: unknown;
  contentType?: string;
  accept?: string;
  query?: Record<string, string | undefined>;
}

/** The path of a collection (`namespace` undefined: all namespaces) or, with `name`, of one object and its subresource. */
export function resourcePath(r: ResourcePath, namespace?: string, name?: string, subresource?: string): string {
  const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const ns = r.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  const obj = name !== undefined ? `/${encodeURIComponent(name)}${subresource ? `/${subresource}` : ''}` : '';
  return `${base}${ns}/${r.resource}${obj}`;
}

const LIST_PAGE = 500;
/** Watches are reopened by the reflector; a server-side timeout keeps dead connections from lingering. */
const WATCH_TIMEOUT_SECONDS = 300;

/**
 * client-go's REST client, over HTTPS with a keep-alive agent: JSON requests whose failures become the server's
 * Status (StatusError), paginated lists, and watches streamed as events. What controllers outside the API
 * servers (the controller-manager) use instead of storage.
 */
export class RestClient {
  private readonly agent: Agent;
  /**
   * Watches hold their connection for minutes: they get sockets of their own, uncapped (client-go multiplexes
   * them over HTTP/2). Sharing the capped pool, a controller watching many resources left no socket for its
   * requests — lease renewals included.
   */
  private readonly watchAgent: Agent;
  private readonly base: URL;

  constructor(private readonly config: RestConfig) {
    this.base = new URL(config.url);
    const tls = { ca: config.caPem, cert: config.certPem, key: config.keyPem };
    this.agent = new Agent({ keepAlive: true, maxSockets: 64, ...tls });
    this.watchAgent = new Agent({ keepAlive: false, ...tls });
  }

  /** One request; a 2xx body is parsed as JSON, anything else thrown as the server's Status. */
  async request<T = KubeObject>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const span = this.config.tracer?.startSpan(`HTTP ${method}`, { kind: SpanKind.CLIENT, attributes: { 'http.method': method, 'http.url': new URL(path, this.base).toString() } });
    try {
      const res = await this.send(method, path, opts, this.agent, span);
      const text = await readAll(res);
      const code = res.statusCode ?? 0;
      span?.setAttribute('http.status_code', code);
      if (code < 200 || code >= 300) throw statusErrorFrom(code, text, `${method} ${path}`);
      return (text ? JSON.parse(text) : {}) as T;
    } catch (err) {
      span?.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      span?.end();
    }
  }

  get<T = KubeObject>(path: string, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('GET', path, opts);
  }

  /** Every page of a collection (client-go's pager: 500 per page), with the first page's resourceVersion. */
  async list(path: string, query: Record<string, string | undefined> = {}): Promise<ListResult> {
    const items: KubeObject[] = [];
    let cont: string | undefined;
    let resourceVersion = '';
    do {
      const page = await this.get<KubeList>(path, { query: { ...query, limit: String(LIST_PAGE), continue: cont } });
      for (const item of page.items ?? []) items.push(item);
      resourceVersion ||= page.metadata?.resourceVersion ?? '';
      cont = page.metadata?.continue || undefined;
    } while (cont);
    return { items, resourceVersion };
  }

  /** A watch from `resourceVersion`: events as they arrive; an ERROR event ends the stream with its Status as `error`. */
  async watch(path: string, resourceVersion: string, query: Record<string, string | undefined> = {}): Promise<WatchStream> {
    const res = await this.send(
      'GET',
      path,
      { query: { ...query, watch: '1', resourceVersion, allowWatchBookmarks: 'true', timeoutSeconds: String(WATCH_TIMEOUT_SECONDS) } },
      this.watchAgent,
    );
    const code = res.statusCode ?? 0;
    if (code !== 200) throw statusErrorFrom(code, await readAll(res), `watch ${path}`);
    return watchStream(res);
  }

  close(): void {
    this.agent.destroy();
    this.watchAgent.destroy();
  }

  private send(method: string, path: string, opts: RequestOptions, agent: Agent = this.agent, span?: Span): Promise<IncomingMessage> {
    const url = new URL(path, this.base);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    const body = opts.body === undefined ? undefined : Buffer.from(typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body));
    const headers: Record<string, string> = { Accept: opts.accept ?? 'application/json' };
    if (this.config.userAgent) headers['User-Agent'] = this.config.userAgent;
    if (span) propagator.inject(trace.setSpan(context.active(), span), headers, defaultTextMapSetter);
    if (body) {
      headers['Content-Type'] = opts.contentType ?? 'application/json';
      headers['Content-Length'] = String(body.length);
    }
    return new Promise((resolve, reject) => {
      const req = httpsRequest({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method, headers, agent, servername: url.hostname === '127.0.0.1' ? undefined : url.hostname }, resolve);
      req.on('error', reject);
      req.end(body);
    });
  }
}

function readAll(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString()));
    res.on('error', reject);
  });
}

/** The server's Status as an error, or one made from the code when the body is not a Status. */
export function statusErrorFrom(code: number, text: string, what: string): StatusError {
  let status: Partial<Status> = {};
  try {
    const parsed = JSON.parse(text) as Partial<Status>;
    if (parsed && parsed.kind === 'Status') status = parsed;
  } catch {
    // not JSON: keep the text in the message
  }
  return new StatusError(code, (status.reason ?? (code === 404 ? 'NotFound' : 'InternalError')) as StatusReason, status.message ?? `${what}: ${code} ${text.slice(0, 200)}`, status.details);
}

/** Newline-delimited watch events; an ERROR event ends the stream with its Status. */
function watchStream(res: IncomingMessage): WatchStream {
  let error: Error | undefined;
  const lines = createInterface({ input: res, crlfDelay: Infinity });
  // A response destroyed by close() never emits 'end', and readline would wait for a line forever: the
  // iteration (a stopped reflector's loop, with everything it holds) would never finish.
  res.once('close', () => lines.close());
  async function* events(): AsyncGenerator<WatchEvent> {
    try {
      for await (const line of lines) {
        if (!line.trim()) continue;
        const ev = JSON.parse(line) as { type: string; object: KubeObject };
        if (ev.type === 'ERROR') {
          const s = ev.object as unknown as Status;
          error = new StatusError(s.code ?? 500, (s.reason ?? 'InternalError') as StatusReason, s.message ?? 'watch error');
          return;
        }
        yield ev as WatchEvent;
      }
    } catch (err) {
      error = err as Error;
    }
  }
  return {
    close: () => res.destroy(),
    get error() {
      return error;
    },
    [Symbol.asyncIterator]: () => events(),
  };
}

/** Lists and watches one resource (all namespaces, or one) through the API: informers outside the API servers. */
export function restListerWatcher(client: RestClient, r: ResourcePath, namespace?: string): ListerWatcher {
  const path = resourcePath(r, namespace);
  return {
    list: () => client.list(path),
    watch: (resourceVersion) => client.watch(path, resourceVersion),
  };
}
