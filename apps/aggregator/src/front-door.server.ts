import type { IncomingMessage, ServerResponse } from 'node:http';
import { register } from 'prom-client';
import { Errors, parseGroupVersion } from '@kube/apimachinery';
import { AuditLog, buildAuditBackend, Authenticator, serveApfDump, HealthChecks, buildHandlerChain, closeGracefully, listenHttps, KUBE_VERSION_JSON, prettyPrint, RequestLog, serveUpgrades, serveOidcDiscovery, ApiRequest, respondWithError, type AuditOptions, type AuditPolicy, type AuthenticationOptions, type Authorizer, type FlowControl, type GenericApiServer, type HealthEndpoint, type Http2ServingOptions, type RequestHandler, type RequestLogOptions, type SecureServer } from '@kube/apiserver';
import { impersonate } from '@kube/authorization';
import type { DiscoveryMerger } from './discovery/discovery.merger';
import type { OpenApiMerger } from './openapi/openapi.merger';
import { proxyRequest, proxyUpgrade } from './proxy/backend.proxy';
import type { BackendAgents } from './proxy/backend.target';
import type { Route, RoutingTable } from './routing/routing.table';

export interface FrontDoorOptions {
  bindAddress: string;
  port: number;
  tls: { certPem: string; keyPem: string };
  authentication: AuthenticationOptions;
  maxRequestsInFlight?: number;
  maxMutatingRequestsInFlight?: number;
  requestTimeoutMs?: number;
  /** kube's ReadHeaderTimeout (default 32 s): how long a request's head may take to arrive. */
  readHeaderTimeoutMs?: number;
  auditLogPath?: string;
  auditPolicy?: AuditPolicy;
  /** The audit backends (log with rotation, webhook); without it, a log at auditLogPath with kube's defaults. */
  audit?: AuditOptions;
  requestLog?: RequestLogOptions;
  /** Decides every request, proxied ones and impersonation included, before it is served or proxied (default: allow all). */
  authorizer?: Authorizer;
  /** API Priority and Fairness (else max-in-flight). */
  flowControl?: FlowControl;
  /** HTTP/2 beside HTTP/1.1 (KUBE_HTTP2, KUBE_HTTP2_MAX_STREAMS_PER_CONNECTION); on with kube's limits when absent, as kube-apiserver serves it. */
  http2?: Http2ServingOptions;
}

const KUBE_HTTP2: Http2ServingOptions = { enabled: true, maxStreamsPerConnection: 0 };

/**
 * The front door: the shared handler chain (buildHandlerChain), then either our own apiregistration.k8s.io
 * group, merged discovery/OpenAPI, or a proxied request to the group/version's owner.
 */
export class FrontDoor {
  readonly health = new HealthChecks();
  private readonly authn: Authenticator;
  private readonly audit: AuditLog;
  private server?: SecureServer;
  private readonly chain: RequestHandler;
  private shuttingDown = false;
  routesSynced = false;

  constructor(
    private readonly options: FrontDoorOptions,
    private readonly local: GenericApiServer,
    private readonly routes: RoutingTable,
    private readonly discovery: DiscoveryMerger,
    private readonly openapi: OpenApiMerger,
    private readonly agents: BackendAgents,
  ) {
    // Service-account tokens are verified against the ServiceAccounts the local server's informer holds.
    this.authn = new Authenticator(options.authentication, local.serviceAccountTokens);
    this.audit = new AuditLog(options.audit ? buildAuditBackend(options.audit) : options.auditLogPath, options.auditPolicy);
    const authorizer = options.authorizer;
    this.chain = buildHandlerChain((r) => this.route(r), {
      ...options,
      // Every Impersonate-* value is authorized as kube does (`impersonate` on users, groups, …).
      impersonator: authorizer && ((headers, user) => impersonate(headers, user, authorizer)),
      authenticator: this.authn,
      requestLog: new RequestLog({ ...options.requestLog, server: 'aggregator' }),
      audit: this.audit,
      // Clients' own ids are kept, as kube-apiserver keeps them, and passed on to the backend (kube-aggregator forwards Audit-ID).
      trustRequestId: () => true,
      forwardRequestId: true,
      shuttingDown: () => this.shuttingDown,
      // A span per request (when tracing is on), passed on to the backend in traceparent like Audit-Id.
      tracing: local.tracer && { tracer: local.tracer, trustedParent: () => false, forward: true },
    });
    this.health.add('etcd', () => local.storage.ping());
    local.addServiceAccountSyncCheck(this.health);
    this.health.add('discovery-synced', () => {
      if (!this.routesSynced) throw new Error('backend discovery not fetched yet');
    }, ['readyz']);
  }

  async listen(): Promise<number> {
    const serving = { ...this.options, http2: this.options.http2 ?? KUBE_HTTP2 };
    const { server, port } = await listenHttps({ ...this.options.tls, ca: this.authn.trustedCAs }, serving, (req, res) => void this.chain(new ApiRequest(req, res)));
    serveUpgrades(server, this.chain);
    this.server = server;
    return port;
  }

  async close(): Promise<void> {
    this.shuttingDown = true;
    if (this.server) await closeGracefully(this.server);
    // After the last request: what a batch webhook still buffers is sent (kube's backend Shutdown).
    await this.audit.close();
  }

  /** After the chain: what the front door answers itself, else the group/version's owner (local or proxied). */
  private async route(r: ApiRequest): Promise<number> {
    try {
      return await this.serve(r);
    } catch (err) {
      return respondWithError(r.res, err);
    }
  }

  private async serve(r: ApiRequest): Promise<number> {
    const { req, res, path } = r;
    const user = r.user;
    if (!user) throw Errors.unauthorized();
    // An upgrade request is routed like any other (it passed the same chain): what the front door serves itself
    // answers it on its own connection, which then closes; a proxied one goes to the upgrade path.
    const nonResource = await this.serveNonResource(req, res, path);
    if (nonResource) return nonResource;
    const gv = groupVersionOf(path);
    if (!gv) throw notFound();
    const found = this.routes.lookup(gv.group, gv.version) ?? (await this.refreshOnMiss(gv.group, gv.version));
    if (!found) throw this.routesSynced ? notFound() : Errors.serviceUnavailable('the request has been made before all known HTTP paths have been installed, please try again', 5);
    if (found.kind === 'local') return this.local.serveRequest(r);
    if (found.kind === 'unavailable') throw Errors.serviceUnavailable(found.message);
    r.proxied = true;
    if (r.upgrade) return proxyUpgrade(req, res, r.upgrade, found.target, user, this.agents, found.service);
    return proxyRequest(req, res, found.target, user, this.agents, found.service, r.info.verb === 'watch');
  }

  /** Set by the backends controller: the discovery refreshes queued or under way (a miss waits for them before a 404). */
  refreshInFlight?: () => Promise<void> | undefined;

  /**
   * Set by the backends controller: what a discovery request about the group (all groups when undefined) must
   * wait for before the merged documents answer it, if anything (see BackendsController.discoveryReady).
   */
  discoveryReady?: (group?: string) => Promise<void> | undefined;

  /** Set by the backends controller: the OpenAPI merge under way, if any. */
  openapiInFlight?: () => Promise<void> | undefined;

  /** Set by the backends controller: re-reads backend discovery (coalesced). */
  onUnknownGroupVersion?: () => Promise<void>;
  private lastMissRefresh = 0;

  /**
   * A group/version nobody announced yet (a CRD established a moment ago): refresh discovery once, at most
   * every 100 ms, before answering 404, so a new API is reachable even if its announcement was lost.
   */
  private async refreshOnMiss(group: string, version: string): Promise<Route | undefined> {
    if (!this.onUnknownGroupVersion) return undefined;
    let refreshed: Promise<void> | undefined;
    if (Date.now() - this.lastMissRefresh < 100) {
      // No new refresh yet, but one already under way (a CRD just changed) may bring the route: wait for it.
      refreshed = this.refreshInFlight?.();
    } else {
      this.lastMissRefresh = Date.now();
      refreshed = this.onUnknownGroupVersion();
    }
    // The CRD informer routes an established CRD before the refresh (every backend's discovery) is back: go then.
    await this.routes.routed(group, version, refreshed ?? Promise.resolve());
    return this.routes.lookup(group, version);
  }

  /** Returns the status code when the path is one the front door answers itself, else 0. */
  private async serveNonResource(req: IncomingMessage, res: ServerResponse, path: string): Promise<number> {
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const oidc = serveOidcDiscovery(res, trimmed, this.local.serviceAccountTokens);
    if (oidc) return oidc;
    if (trimmed.startsWith('/debug/')) {
      // kube-apiserver's /debug/pprof (this process's profiles) and, where APF runs, its dumps.
      const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
      const code = this.options.flowControl ? serveApfDump(res, trimmed, query, this.options.flowControl) : 0;
      if (code) return code;
      const profiled = await this.local.serveDebug(req, res, trimmed, query);
      if (profiled) return profiled;
    }
    if (trimmed === '/version') return this.json(res, 200, KUBE_VERSION_JSON);
    if (trimmed === '/metrics') {
      res.writeHead(200, { 'Content-Type': register.contentType });
      res.end(await register.metrics());
      return 200;
    }
    const health = /^\/(healthz|livez|readyz)(?:\/([^/]+))?$/.exec(trimmed);
    if (health) {
      const params = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
      const r = await this.health.run(health[1] as HealthEndpoint, params.has('verbose'), health[2], params.getAll('exclude'));
      res.writeHead(r.code, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(r.body);
      return r.code;
    }
    if (trimmed === '/api' || trimmed === '/apis') await this.discoveryReady?.();
    else if (/^\/apis\/[^/]+$/.test(trimmed)) await this.discoveryReady?.(trimmed.slice('/apis/'.length));
    if (trimmed.startsWith('/openapi/')) {
      await this.discoveryReady?.();
      await this.openapiInFlight?.();
    }
    if (trimmed === '/api' || trimmed === '/apis') {
      const accept = req.headers.accept ?? '';
      const agg = aggregatedVersion(accept);
      const doc = agg ? this.discovery.aggregated(trimmed, agg) : this.discovery.get(trimmed);
      if (!doc) throw notFound();
      res.setHeader('Vary', 'Accept');
      return this.cached(req, res, this.discoveryBody(req, doc.body, doc.contentType), doc.etag, doc.contentType);
    }
    if (/^\/apis\/[^/]+$/.test(trimmed)) {
      const doc = this.discovery.get(trimmed);
      if (!doc) throw notFound();
      return this.cached(req, res, this.discoveryBody(req, doc.body, doc.contentType), doc.etag, doc.contentType);
    }
    if (trimmed === '/openapi/v2') {
      const doc = await ((req.headers.accept ?? '').includes('protobuf') ? this.openapi.v2Protobuf() : this.openapi.v2Json());
      if (!doc) throw Errors.serviceUnavailable('OpenAPI is not aggregated yet', 1);
      const ct = (req.headers.accept ?? '').includes('protobuf') ? 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf' : 'application/json';
      return this.cached(req, res, doc.body, doc.etag, ct);
    }
    if (trimmed === '/openapi/v3') return this.json(res, 200, Buffer.from(JSON.stringify(this.openapi.v3Index())));
    if (trimmed.startsWith('/openapi/v3/')) return this.serveOpenApiV3(req, res, trimmed.slice('/openapi/v3/'.length));
    return 0;
  }

  private async serveOpenApiV3(req: IncomingMessage, res: ServerResponse, key: string): Promise<number> {
    const owner = this.openapi.ownerOf(key);
    if (!owner) throw notFound();
    if (owner === 'aggregator') {
      const doc = this.local.openApiDocuments.v3Document(key);
      if (!doc) throw notFound();
      return this.cached(req, res, doc.body, doc.etag, 'application/json');
    }
    const target = this.routes.backend(owner);
    if (!target) throw Errors.serviceUnavailable(`no endpoint for ${owner}`);
    return proxyRequest(req, res, target, { name: 'system:kube-aggregator', groups: ['system:masters'] }, this.agents);
  }

  /** Discovery is written as kube's WriteObjectNegotiated writes it: indented JSON for curl, browsers, ?pretty=true. */
  private discoveryBody(req: IncomingMessage, body: Buffer, contentType: string): Buffer {
    if (!contentType.includes('json') || !prettyPrint(req)) return body;
    return Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8')), null, 2));
  }

  private json(res: ServerResponse, code: number, body: Buffer): number {
    res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': body.length });
    res.end(body);
    return code;
  }

  private cached(req: IncomingMessage, res: ServerResponse, body: Buffer, etag: string, contentType: string): number {
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { ETag: etag });
      res.end();
      return 304;
    }
    res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': body.length, ETag: etag });
    res.end(body);
    return 200;
  }
}

function aggregatedVersion(accept: string): 'v2' | 'v2beta1' | undefined {
  for (const part of accept.split(',')) {
    if (!part.includes('as=APIGroupDiscoveryList') || !part.includes('g=apidiscovery.k8s.io')) continue;
    if (part.includes('v=v2beta1')) return 'v2beta1';
    if (/v=v2(;|$|\s)/.test(part)) return 'v2';
  }
  return undefined;
}

/** /api/v1/… → core v1; /apis/<g>/<v>/… → g/v; anything else → undefined. */
function groupVersionOf(path: string): { group: string; version: string } | undefined {
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'api' && parts[1]) return { group: '', version: parts[1] };
  if (parts[0] === 'apis' && parts[1] && parts[2]) return parseGroupVersion(`${parts[1]}/${parts[2]}`);
  return undefined;
}

function notFound(): Error {
  const err = Errors.notFound({ group: '', resource: '' }, '');
  err.status.message = 'the server could not find the requested resource';
  err.status.details = { causes: [{ reason: 'UnexpectedServerResponse', message: '404 page not found' }] };
  return err;
}
