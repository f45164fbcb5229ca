import type { IncomingMessage, ServerResponse } from 'node:http';
import { register } from 'prom-client';
import { Errors, FieldError, applyJsonPatch, applyMergePatch, buildTable, hasProtobufKind, isStatusError, KUBE_PROTOBUF_WATCH_MEDIA_TYPE, StatusError, type DeleteOptions, type JsonObject, type IncludeObject, type JsonValue, type KubeObject } from '@kube/apimachinery';
import type { Storage } from '@kube/storage';
import { FIELD_MANAGER_MAX_LENGTH } from '@kube/field-management';
import { Authenticator, type AuthenticationOptions } from './authentication';
import type { Authorizer } from './authorization/authorizer';
import { ApiRequest, respondWithError, type RequestHandler } from './filters/api-request';
import { buildHandlerChain } from './filters/handler-chain';
import { STORAGE_OBJECTS_HEADER } from './flowcontrol/flowcontrol.types';
import type { Impersonator } from './filters/with-impersonation';
import { closeGracefully, listenHttps, serveUpgrades, type SecureServer } from './https.listener';
import { BACKEND_HTTP2, type Http2ServingOptions } from './http2.serving';
import { bodyFormat, decodeBody, decodePatchBody, readBody } from './body.reader';
import { DiscoveryDocuments } from './discovery';
import { HealthChecks, type HealthEndpoint } from './health.checks';
import { negotiate, PARTIAL_METADATA_LIST_V1, PARTIAL_METADATA_V1, TABLE_V1, TABLE_V1BETA1, type Negotiated } from './negotiation';
import { ObjectFilter } from './object.filter';
import type { RequestInfo } from './request-info';
import { type AdmissionPlugin, type RequestContext, type ResourceDefinition, type UserInfo, SOURCE_VERBS, servedVerbs } from './resource.definition';
import type { SubresourceView } from './subresources/subresource.strategy';
import { serviceAccountTokensFromStorage, type ServiceAccountTokens } from './serviceaccount/service-account.token';
import { serveOidcDiscovery } from './serviceaccount/oidc.discovery';
import type { SharedIndexInformer } from '@kube/client';
import { cachedJson, listJson, markJsonOnly, warningHeaders, writeBuffer, writeJsonText, writeObject, writeProtobufList } from './response.writer';
import { RequestLog, type RequestLogOptions } from './logging/request.log';
import { PATCH_CONTENT_TYPES, RestHandler, type FieldValidation, type ListQuery, type WriteOptions } from './rest.handler';
import { storageFor, storagePrefixOf } from './source.storage';
import { eventFrame, streamWatch } from './watch.stream';
import { listOptions, queryBool } from './query.params';
import { decodeDeleteOptions, isDryRun, validateDryRun } from './delete.options';
import { OpenApiDocuments } from './openapi';
import { ProfilingHandler } from './debug/profiling.handler';
import { collectRuntimeMetrics } from './debug/runtime.metrics';
import { context, trace, type Tracer } from '@opentelemetry/api';
import type { TracingConfiguration } from './tracing/tracing.config';
import { flushTracing, startTracing } from './tracing/tracer.provider';

export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

export interface ApiServerOptions {
  /** Name in logs and metrics ("core-api", "sample-apiserver"). */
  component: string;
  bindAddress: string;
  port: number;
  tls: { certPem: string; keyPem: string };
  authentication: AuthenticationOptions;
  maxRequestsInFlight?: number;
  maxMutatingRequestsInFlight?: number;
  requestTimeoutMs?: number;
  /** kube's ReadHeaderTimeout (default 32 s): how long a request's head may take to arrive. */
  readHeaderTimeoutMs?: number;
  minRequestTimeoutSeconds?: number;
  /** Address published in /api's serverAddressByClientCIDRs. */
  advertiseAddress?: string;
  groupPriority?: (group: string) => number;
  /** Which requests get a log line (5xx and slow ones by default). */
  requestLog?: RequestLogOptions;
  /** Decides every request after authentication (default: allow all). */
  authorizer?: Authorizer;
  /**
   * Who a request may act as (Impersonate-*), decided with the server's authorizer, as kube's WithImpersonation
   * asks the server's own authorizer (@kube/authorization's `impersonate`). A factory, because the authorizer is
   * often built later than this configuration (from the server's storage). Default: system:masters only.
   */
  impersonation?: (authorizer: Authorizer) => Impersonator;
  /** kube's --profiling (KUBE_PROFILING, default true): /debug/pprof on this server. */
  profiling?: boolean;
  /** kube's --tracing-config-file (KUBE_TRACING_CONFIG_FILE): OTLP traces of every request; absent, off. */
  tracing?: TracingConfiguration;
  /**
   * HTTP/2 beside HTTP/1.1 (ALPN): the aggregator multiplexes its proxied watches on a few h2 connections to this
   * server. Default: on, with kube's aggregated-server limit of 1000 streams per connection (BACKEND_HTTP2).
   */
  http2?: Http2ServingOptions;
}

export const KUBE_VERSION: VersionInfo = {
  major: '1',
  minor: '33',
  gitVersion: 'v1.33.0',
  gitCommit: 'kube-ts',
  gitTreeState: 'clean',
  buildDate: '2026-11-01T00:00:00Z',
  goVersion: `node${process.versions.node}`,
  compiler: 'tsc',
  platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
};

/** /version's body as kube writes it (responsewriters.WriteRawJSON: json.MarshalIndent with two spaces). */
export const KUBE_VERSION_JSON: Buffer = Buffer.from(JSON.stringify(KUBE_VERSION, null, 2));
const VERSION_JSON = KUBE_VERSION_JSON;

/** kube's REST handler span names (endpoints/handlers: tracing.Start(ctx, "Create", …)). */
const HANDLER_SPANS: Readonly<Record<string, string>> = { get: 'Get', list: 'List', create: 'Create', update: 'Update', patch: 'Patch', delete: 'Delete', deletecollection: 'Delete' };

const TABLE_CONVERSIONS = [TABLE_V1, TABLE_V1BETA1, PARTIAL_METADATA_V1, PARTIAL_METADATA_LIST_V1];

/**
 * The generic API server: one HTTPS listener, a compiled route table (group/version → resource → handler),
 * and kube's filter chain (authentication, max-in-flight, timeout, metrics) in front of the REST handlers.
 * Hot paths avoid per-request setup: discovery documents, OpenAPI and routes are prepared on install.
 */
export class GenericApiServer {
  readonly health = new HealthChecks();
  private readonly routes = new Map<string, Map<string, RestHandler>>();
  private readonly handlersByResource = new Map<string, RestHandler>();
  private readonly definitions: ResourceDefinition[] = [];
  private readonly discovery: DiscoveryDocuments;
  private openapi: OpenApiDocuments;
  private readonly authn: Authenticator;
  /** Issues and verifies service-account tokens, when the server is configured with their keys. */
  readonly serviceAccountTokens?: ServiceAccountTokens;
  private readonly serviceAccountInformer?: SharedIndexInformer;
  private server?: SecureServer;
  private shuttingDown = false;
  /** The handler chain in front of serveRequest, built once. */
  private readonly chain: RequestHandler;
  private readonly profiler: ProfilingHandler;
  /** The process's tracer when tracing is configured (the front door's chain uses it too). */
  readonly tracer?: Tracer;

  constructor(
    readonly options: ApiServerOptions,
    readonly storage: Storage,
  ) {
    if (options.authentication.serviceAccounts) {
      const built = serviceAccountTokensFromStorage(options.authentication.serviceAccounts, storage);
      this.serviceAccountTokens = built.tokens;
      this.serviceAccountInformer = built.informer;
      this.addServiceAccountSyncCheck(this.health);
    }
    this.authn = new Authenticator(options.authentication, this.serviceAccountTokens);
    collectRuntimeMetrics();
    this.tracer = options.tracing ? startTracing(options.component, options.tracing) : undefined;
    this.profiler = new ProfilingHandler({ enabled: options.profiling ?? true, requestTimeoutMs: options.requestTimeoutMs ?? 60_000 });
    this.chain = buildHandlerChain(this.serveRequest, {
      ...options,
      impersonator: options.authorizer && options.impersonation?.(options.authorizer),
      authenticator: this.authn,
      requestLog: new RequestLog({ ...options.requestLog, server: options.component }),
      // The id the front door gave a request is kept (only the front proxy's is trusted; else a new one).
      trustRequestId: (req) => this.authn.viaFrontProxy(req),
      shuttingDown: () => this.shuttingDown,
      // The front proxy's traceparent is the front door's span of this very request: its child, not a link.
      tracing: this.tracer && { tracer: this.tracer, trustedParent: (req) => this.authn.viaFrontProxy(req) },
    });
    this.discovery = new DiscoveryDocuments(options.advertiseAddress ?? `${options.bindAddress}:${options.port}`);
    this.openapi = new OpenApiDocuments([]);
    // A server of computed resources only (metrics-server's kind) never talks to etcd.
    this.health.add('etcd', () => (this.definitions.every((d) => d.source || d.createOnly) ? undefined : storage.ping()));
    // kube's kms-providers check (healthz and readyz, not livez): each KMS v2 plugin's Status.
    const encryption = storage.encryption;
    if (encryption?.servesKmsHealthCheck) this.health.add('kms-providers', () => encryption.checkKmsProviders(), ['healthz', 'readyz']);
    this.health.add('shutdown', () => {
      if (this.shuttingDown) throw new Error('process is shutting down');
    }, ['readyz']);
  }

  /** Readiness waits until the ServiceAccounts tokens are checked against have been listed (else valid tokens get 401). */
  addServiceAccountSyncCheck(health: HealthChecks): void {
    const informer = this.serviceAccountInformer;
    if (!informer) return;
    health.add('serviceaccount-informer-sync', () => {
      if (!informer.hasSynced()) throw new Error('service accounts not listed yet');
    }, ['readyz']);
  }

  /** The server's admission chain: every resource installed runs it, those installed later (custom resources) too. */
  private admission: readonly AdmissionPlugin[] = [];

  /** Serves these resources (all the same storage); `admission`, when given, becomes the server's admission chain. */
  install(defs: ResourceDefinition[], admission?: AdmissionPlugin[]): void {
    if (admission) this.admission = admission;
    for (const def of defs) {
      checkSource(def);
      const handler = new RestHandler(def, storageFor(def, this.storage), this.admission);
      const key = `${def.group}/${def.version}`;
      const byResource = this.routes.get(key) ?? new Map<string, RestHandler>();
      byResource.set(def.plural, handler);
      this.routes.set(key, byResource);
      this.handlersByResource.set(`${def.group}/${def.plural}`, handler);
      const existing = this.definitions.findIndex((d) => d.group === def.group && d.version === def.version && d.plural === def.plural);
      if (existing >= 0) this.definitions.splice(existing, 1, def);
      else this.definitions.push(def);
    }
    this.rebuildDocuments();
  }

  /**
   * Stops serving a resource (a deleted CRD version). Once no served version uses its storage any more, the
   * storage's watch cache is released (it leaves the registry watch, its watches end), as kube destroys a
   * deleted CRD's storage; the data in etcd stays.
   */
  uninstall(group: string, version: string, plural: string): void {
    const key = `${group}/${version}`;
    const byResource = this.routes.get(key);
    if (!byResource?.delete(plural)) return;
    if (byResource.size === 0) this.routes.delete(key);
    const idx = this.definitions.findIndex((d) => d.group === group && d.version === version && d.plural === plural);
    const [removed] = idx >= 0 ? this.definitions.splice(idx, 1) : [];
    if (!this.definitions.some((d) => d.group === group && d.plural === plural)) this.handlersByResource.delete(`${group}/${plural}`);
    if (removed && !removed.source && !this.definitions.some((d) => !d.source && storagePrefixOf(d) === storagePrefixOf(removed))) this.storage.release(storagePrefixOf(removed));
    this.rebuildDocuments();
  }

  /**
   * False until the owner of dynamic resources (the CRD controller) has installed every known path: until then
   * an unknown path answers 503 with Retry-After instead of 404, as kube does right after a start.
   */
  pathsInstalled = true;

  /**
   * Asked before a 404 for a resource nothing here serves (a miss only, never on a served path): the owner of
   * dynamic resources may install it now — a CRD another replica established a moment ago, which this replica's
   * informer has not delivered yet — and answer true to have the request served.
   */
  installOnMiss?: (group: string, resource: string) => Promise<boolean>;

  private rebuildDocuments(): void {
    this.discovery.rebuild(this.definitions, this.options.groupPriority);
    this.openapi = new OpenApiDocuments(this.definitions, this.openapi);
    this.onResourcesChanged?.();
  }

  /** Called after every install/uninstall (the NATS announcer re-announces). */
  onResourcesChanged?: () => void;

  /** The handler of a resource, for controllers that act inside this process. */
  handler(group: string, plural: string): RestHandler {
    const h = this.handlersByResource.get(`${group}/${plural}`);
    if (!h) throw new Error(`resource ${plural}.${group} is not installed`);
    return h;
  }

  get resources(): readonly ResourceDefinition[] {
    return this.definitions;
  }

  async listen(): Promise<number> {
    // KMS plugins are asked for their key first (kube primes them before serving): writes need a DEK seed.
    await this.storage.encryption?.ready();
    this.serviceAccountInformer?.run();
    this.prepareHandlers();
    await Promise.all([...this.handlersByResource.values()].filter((h) => !h.def.source && !h.def.createOnly).map((h) => h.store.start()));
    const { server, port } = await listenHttps({ ...this.options.tls, ca: this.authn.trustedCAs }, { ...this.options, http2: this.options.http2 ?? BACKEND_HTTP2 }, (req, res) => void this.chain(new ApiRequest(req, res)));
    // exec, attach and port-forward reach a backend as upgrade requests (the front door's upgrade proxy).
    serveUpgrades(server, this.chain);
    this.server = server;
    return port;
  }

  /** Graceful stop: /readyz fails first, new requests are refused, open watches are closed. */
  async close(): Promise<void> {
    this.shuttingDown = true;
    this.serviceAccountInformer?.stop();
    if (this.server) await closeGracefully(this.server);
    // The spans of the last requests, still in the batch, go out before the process exits.
    await flushTracing();
  }

  // ---- request pipeline ----

  /**
   * Serves a request that has passed a handler chain (this server's, or the front door's for the
   * apiregistration.k8s.io group the aggregator serves itself): non-resource paths, then one route lookup.
   */
  readonly serveRequest: RequestHandler = async (r) => {
    try {
      if (!r.info.isResourceRequest || !r.user) return await this.serveNonResource(r.req, r.res, r.path, r.query);
      return await this.serveResource(r, r.user);
    } catch (err) {
      return respondWithError(r.res, err);
    }
  };

  /** What each handler would otherwise look up in its first request (the first write of a built-in kind paid ~200 ms). */
  private prepareHandlers(): void {
    for (const h of this.handlersByResource.values()) h.prepare();
  }

  /** Starts the stores (watch caches) without a listener, for embedded use. */
  async start(): Promise<void> {
    await this.storage.encryption?.ready();
    this.serviceAccountInformer?.run();
    this.prepareHandlers();
    await Promise.all([...this.handlersByResource.values()].filter((h) => !h.def.source && !h.def.createOnly).map((h) => h.store.start()));
  }

  /** The discovery documents and OpenAPI of this server (the aggregator merges them). */
  get discoveryDocuments(): DiscoveryDocuments {
    return this.discovery;
  }

  get openApiDocuments(): OpenApiDocuments {
    return this.openapi;
  }

  /** /debug/pprof (when profiling is on): the status code, or 0 when the path is not one of them. */
  serveDebug(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<number> {
    return this.profiler.serve(req, res, path, query);
  }

  private async serveNonResource(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<number> {
    if (path.startsWith('/debug/')) {
      const code = await this.profiler.serve(req, res, path, query);
      if (code) return code;
    }
    const oidc = serveOidcDiscovery(res, path, this.serviceAccountTokens);
    if (oidc) return oidc;
    switch (path) {
      case '/version':
        // kube's WriteRawJSON: always indented, whoever asks.
        writeBuffer(res, 200, VERSION_JSON, 'application/json', { 'Cache-Control': 'no-cache, private' });
        return 200;
      case '/healthz':
      case '/livez':
      case '/readyz':
        return this.serveHealth(res, path.slice(1) as HealthEndpoint, query);
      case '/metrics': {
        const body = await register.metrics();
        writeBuffer(res, 200, Buffer.from(body), register.contentType);
        return 200;
      }
      case '/openapi/v2':
        return this.serveOpenApiV2(req, res);
      case '/openapi/v3':
        writeObject(res, 200, this.openapi.v3Index());
        return 200;
    }
    if (path.startsWith('/healthz/') || path.startsWith('/livez/') || path.startsWith('/readyz/')) {
      const [, endpoint, check] = path.split('/');
      return this.serveHealth(res, endpoint as HealthEndpoint, query, check);
    }
    if (path.startsWith('/openapi/v3/')) {
      const doc = this.openapi.v3Document(path.slice('/openapi/v3/'.length));
      if (!doc) throw notFoundPath();
      return this.serveCached(req, res, doc.body, doc.etag, 'application/json');
    }
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    if (trimmed === '/api' || trimmed === '/apis') {
      const accept = req.headers.accept ?? '';
      const agg = /as=APIGroupDiscoveryList/.test(accept) ? this.aggregatedVersion(accept) : undefined;
      const doc = agg ? this.discovery.aggregated(trimmed, agg) : this.discovery.get(trimmed);
      if (!doc) throw notFoundPath();
      res.setHeader('Vary', 'Accept');
      return this.serveCached(req, res, doc.body, doc.etag, doc.contentType);
    }
    const doc = this.discovery.get(trimmed);
    if (!doc) throw notFoundPath();
    return this.serveCached(req, res, doc.body, doc.etag, doc.contentType);
  }

  private aggregatedVersion(accept: string): 'v2' | 'v2beta1' | undefined {
    for (const part of accept.split(',')) {
      if (!/as=APIGroupDiscoveryList/.test(part) || !/g=apidiscovery\.k8s\.io/.test(part)) continue;
      if (/v=v2beta1/.test(part)) return 'v2beta1';
      if (/v=v2(;|$|\s)/.test(part)) return 'v2';
    }
    return undefined;
  }

  private serveCached(req: IncomingMessage, res: ServerResponse, body: Buffer, etag: string, contentType: string): number {
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { ETag: etag });
      res.end();
      return 304;
    }
    writeBuffer(res, 200, body, contentType, { ETag: etag });
    return 200;
  }

  private serveOpenApiV2(req: IncomingMessage, res: ServerResponse): number {
    const accept = req.headers.accept ?? '';
    if (accept.includes('protobuf')) {
      const doc = this.openapi.v2Protobuf();
      return this.serveCached(req, res, doc.body, doc.etag, 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    }
    const doc = this.openapi.v2Json();
    return this.serveCached(req, res, doc.body, doc.etag, 'application/json');
  }

  private async serveHealth(res: ServerResponse, endpoint: HealthEndpoint, query: URLSearchParams, check?: string): Promise<number> {
    const result = await this.health.run(endpoint, query.has('verbose'), check, query.getAll('exclude'));
    res.writeHead(result.code, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
    res.end(result.body);
    return result.code;
  }

  private async serveResource(r: ApiRequest, user: UserInfo): Promise<number> {
    const { req, res, info, query } = r;
    let handler = this.routes.get(`${info.group}/${info.version}`)?.get(info.resource);
    if (!handler && this.pathsInstalled && this.installOnMiss && (await this.installOnMiss(info.group, info.resource))) handler = this.routes.get(`${info.group}/${info.version}`)?.get(info.resource);
    if (!handler) throw this.pathsInstalled ? notFoundPath() : Errors.serviceUnavailable('the request has been made before all known HTTP paths have been installed, please try again', 5);
    const def = handler.def;
    if (info.namespace && !def.namespaced && info.resource !== 'namespaces') throw notFoundPath();
    const sub = info.subresource ? handler.subresources.get(info.subresource) : undefined;
    if (info.subresource && !sub) throw notFoundPath();
    // An installed resource: its group, version and resource may label metrics (anything else is "other").
    r.resolved = true;
    const verbs = servedVerbs(def);
    if (!verbs.includes(info.verb as never) || (sub && !sub.verbs.includes(info.verb as never))) throw Errors.methodNotSupported(handler.gr, info.verb);
    if (info.verb === 'watch') return this.serveWatch(req, res, handler, info, query);
    if (r.span && this.tracer) return this.tracedVerb(r, handler, user, this.tracer);
    return this.serveVerb(req, res, handler, info, query, user);
  }

  /**
   * A traced request: kube's REST handler span ("Get", "List", "Create", …, with its traceFields attributes) around
   * the verb, the parent of the etcd calls and webhook calls the verb makes.
   */
  private async tracedVerb(r: ApiRequest, handler: RestHandler, user: UserInfo, tracer: Tracer): Promise<number> {
    const { req, res, info, query } = r;
    const span = tracer.startSpan(HANDLER_SPANS[info.verb] ?? info.verb, {
      attributes: {
        accept: req.headers.accept ?? '',
        'audit-id': r.requestId,
        client: req.socket.remoteAddress ?? '',
        protocol: `HTTP/${req.httpVersion}`,
        resource: info.resource,
        scope: info.namespace ? 'namespace' : info.name ? 'resource' : 'cluster',
        url: r.path,
        'user-agent': (req.headers['user-agent'] ?? '').slice(0, 256),
        verb: req.method ?? '',
      },
    }, context.active());
    try {
      return await context.with(trace.setSpan(context.active(), span), () => this.serveVerb(req, res, handler, info, query, user));
    } finally {
      span.end();
    }
  }

  private ctx(user: UserInfo, info: RequestInfo, dryRun: boolean, userAgent?: string): RequestContext {
    return { user, namespace: info.namespace || undefined, dryRun, warnings: [], userAgent };
  }

  private async serveVerb(req: IncomingMessage, res: ServerResponse, h: RestHandler, info: RequestInfo, query: URLSearchParams, user: UserInfo): Promise<number> {
    const ns = h.def.namespaced ? info.namespace || undefined : undefined;
    const negotiated = negotiateFor(req, res, h, info.subresource);
    const write = writeOptions(query, info.verb, req.headers['content-type']);
    const ctx = this.ctx(user, info, write.dryRun, req.headers['user-agent']);
    if (h.def.deprecationWarning) ctx.warnings.push(h.def.deprecationWarning);
    const connecter = info.subresource ? h.subresources.get(info.subresource)?.connecter : undefined;
    if (connecter) {
      const get = (name: string): Promise<KubeObject> => h.get(ns, name, undefined, user);
      return connecter.connect({ req, res, query, name: info.name, subpath: subpathOf(info), get, upgrade: !!req.headers.upgrade, ctx });
    }
    const view = info.subresource ? h.subresources.get(info.subresource)?.view : undefined;
    if (view) return this.serveView(req, res, h, info, view, ns, ctx, write, negotiated);
    switch (info.verb) {
      case 'get': {
        const obj = await h.get(ns, info.name, query.get('resourceVersion') ?? undefined, user);
        return this.respond(res, 200, h, obj, negotiated, query, ctx);
      }
      case 'list': {
        // kube negotiates PartialObjectMetadata for any endpoint, then cannot make one of a list.
        if (negotiated.as?.kind === 'PartialObjectMetadata') throw notAcceptable(`you requested PartialObjectMetadata, but the requested object is a list (${goTypeName(h.def, true)})`);
        const list = await h.list(ns, listQuery(query), user);
        const { result: _r, ...body } = list;
        // APF at the front door costs the next LIST of this resource by it.
        if (_r.storedObjects !== undefined) res.setHeader(STORAGE_OBJECTS_HEADER, _r.storedObjects);
        if (negotiated.as?.kind === 'Table') {
          const table = buildTable(h.def.tableColumns ?? [], body.items, body.metadata, includeObject(query), true, h.def.tableAge ?? true);
          writeObject(res, 200, table, negotiated.format, ctx.warnings);
          return 200;
        }
        if (negotiated.as?.kind === 'PartialObjectMetadataList' || negotiated.as?.kind === 'PartialObjectMetadata') {
          writeObject(res, 200, { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: body.metadata, items: body.items.map(partial) }, negotiated.format);
          return 200;
        }
        if (negotiated.format === 'json') writeJsonText(res, 200, listJson(body, body.items), ctx.warnings);
        else if (negotiated.format === 'protobuf') writeProtobufList(res, 200, body, body.items, ctx.warnings);
        else writeObject(res, 200, body, negotiated.format, ctx.warnings);
        return 200;
      }
      case 'create': {
        const body = await this.readJson(req, info.subresource ? undefined : h.def.kind);
        if (info.name && info.subresource) {
          const creater = h.subresources.get(info.subresource)?.creater;
          if (!creater) throw Errors.methodNotSupported(h.gr, 'create');
          const parent = await h.get(ns, info.name, undefined, user);
          const created = await creater.create(parent, body, ctx);
          writeObject(res, 201, created, negotiated.format, ctx.warnings);
          return 201;
        }
        const obj = await h.create(ctx, ns, body, write);
        return this.respond(res, 201, h, obj, negotiated, query, ctx);
      }
      case 'update': {
        const body = await this.readJson(req, h.def.kind);
        const { object, created } = await h.update(ctx, ns, info.name, body, write, info.subresource);
        return this.respond(res, created ? 201 : 200, h, object, negotiated, query, ctx);
      }
      case 'patch': {
        const type = PATCH_CONTENT_TYPES[(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()];
        if (!type) throw Errors.unsupportedMediaType(req.headers['content-type'] ?? '', h.acceptedPatchTypes);
        const raw = await readBody(req);
        const patch = type === 'apply' ? decodeBody(raw, 'yaml') : decodePatchBody(raw, type, write.fieldValidation);
        if (type === 'apply') {
          const { object, created } = await h.apply(ctx, ns, info.name, patch, write, info.subresource);
          return this.respond(res, created ? 201 : 200, h, object, negotiated, query, ctx);
        }
        const obj = await h.patch(ctx, ns, info.name, type, patch, write, info.subresource);
        return this.respond(res, 200, h, obj, negotiated, query, ctx);
      }
      case 'delete': {
        const options = await this.deleteOptions(req, query);
        // The dry run is the DeleteOptions' (kubectl sends it in the body): admission and storage must all see it.
        ctx.dryRun = isDryRun(options);
        const { body, code } = await h.delete(ctx, ns, info.name, options, ctx.dryRun);
        if (body.kind === 'Status') {
          writeObject(res, code, body, negotiated.format, ctx.warnings);
          return code;
        }
        return this.respond(res, code, h, body as KubeObject, negotiated, query, ctx);
      }
      case 'deletecollection': {
        const options = await this.deleteOptions(req, query);
        ctx.dryRun = isDryRun(options);
        const list = await h.deleteCollection(ctx, ns, listQuery(query), options, ctx.dryRun);
        writeObject(res, 200, list, negotiated.format, ctx.warnings);
        return 200;
      }
      default:
        throw Errors.methodNotSupported(h.gr, info.verb);
    }
  }

  /** A subresource shown as another kind (/scale): reads and writes go through its view of the object. */
  private async serveView(req: IncomingMessage, res: ServerResponse, h: RestHandler, info: RequestInfo, view: SubresourceView, ns: string | undefined, ctx: RequestContext, write: WriteOptions, negotiated: Negotiated): Promise<number> {
    let body: KubeObject;
    switch (info.verb) {
      case 'get':
        body = await h.getView(ns, info.name, info.subresource);
        break;
      case 'update': {
        const desired = await this.readJson(req);
        body = await h.updateView(ctx, ns, info.name, info.subresource, () => desired as unknown as KubeObject, write);
        break;
      }
      case 'patch': {
        const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
        const type = PATCH_CONTENT_TYPES[contentType];
        if (!type || !view.patchTypes.includes(contentType)) throw Errors.unsupportedMediaType(req.headers['content-type'] ?? '', [...view.patchTypes]);
        const patch = decodeBody(await readBody(req), 'json');
        body = await h.updateView(ctx, ns, info.name, info.subresource, (current) => (type === 'json' ? applyJsonPatch(current, patch) : applyMergePatch(current, patch)) as unknown as KubeObject, write);
        break;
      }
      default:
        throw Errors.methodNotSupported(h.gr, info.verb);
    }
    // The view's kind (autoscaling/v1 Scale) has a protobuf message of its own; a Table is no view's answer.
    writeObject(res, 200, body, negotiated.format === 'protobuf' ? 'protobuf' : 'json', ctx.warnings);
    return 200;
  }

  private respond(res: ServerResponse, code: number, h: RestHandler, obj: KubeObject, negotiated: Negotiated, query: URLSearchParams, ctx: RequestContext): number {
    let body: unknown = obj;
    if (negotiated.as?.kind === 'PartialObjectMetadataList') throw notAcceptable(`you requested PartialObjectMetadataList, but the requested object is not a list (${goTypeName(h.def, false)})`);
    if (negotiated.as?.kind === 'Table') body = buildTable(h.def.tableColumns ?? [], [obj], { resourceVersion: obj.metadata.resourceVersion }, includeObject(query), true, h.def.tableAge ?? true);
    else if (negotiated.as?.kind === 'PartialObjectMetadata') body = partial(obj);
    else if (negotiated.format === 'json') return writeJsonText(res, code, cachedJson(obj), ctx.warnings), code;
    writeObject(res, code, body, negotiated.format, ctx.warnings);
    return code;
  }

  /** A create or update body; `into` is the kind it decodes into (named in kube's error for a body that is no JSON). */
  private async readJson(req: IncomingMessage, into?: string): Promise<JsonValue> {
    const format = bodyFormat(req.headers['content-type']);
    if (!format) throw Errors.unsupportedMediaType(req.headers['content-type'] ?? '', ['application/json', 'application/yaml']);
    return decodeBody(await readBody(req), format, into);
  }

  private async deleteOptions(req: IncomingMessage, query: URLSearchParams): Promise<DeleteOptions> {
    const raw = await readBody(req);
    const body = raw.length && raw.toString().trim() ? decodeBody(raw, bodyFormat(req.headers['content-type']) ?? 'json') : undefined;
    return decodeDeleteOptions(body, query);
  }

  private async serveWatch(req: IncomingMessage, res: ServerResponse, h: RestHandler, info: RequestInfo, query: URLSearchParams): Promise<number> {
    const ns = h.def.namespaced ? info.namespace || undefined : undefined;
    const negotiated = negotiateFor(req, res, h);
    const protobuf = negotiated.format === 'protobuf';
    const opts = listOptions(query, true);
    const fieldSelector = info.name ? joinSelectors(`metadata.name=${info.name}`, opts.fieldSelector ?? null) : opts.fieldSelector;
    const filter = ObjectFilter.parse(opts.labelSelector, fieldSelector, h.def);
    const asTable = negotiated.as?.kind === 'Table';
    // Table options are checked before the watch starts (kube's optionsForTransform), and only for a Table.
    const include = asTable ? includeObject(query) : 'Metadata';
    let channel;
    try {
      channel = await h.store.watch(ns, { resourceVersion: opts.resourceVersion, sendInitialEvents: opts.sendInitialEvents, predicate: filter.empty ? undefined : (o) => filter.matches(o) });
    } catch (err) {
      // Like kube's watch cache (newErrWatcher): a too-old resourceVersion, or a too-large one the cache did not reach
      // in time for sendInitialEvents, is an ERROR event on a 200 stream, not an HTTP error.
      if (!(isStatusError(err) && (err.code === 410 || err.code === 504))) throw err;
      res.writeHead(200, { 'Content-Type': protobuf ? KUBE_PROTOBUF_WATCH_MEDIA_TYPE : 'application/json' });
      res.end(protobuf ? eventFrame('ERROR', err.status as unknown as JsonObject) : `${JSON.stringify({ type: 'ERROR', object: err.status })}\n`);
      return 200;
    }
    const min = this.options.minRequestTimeoutSeconds ?? 1800;
    const timeoutMs = (opts.timeoutSeconds !== undefined && opts.timeoutSeconds > 0 ? opts.timeoutSeconds : min * (1 + Math.random())) * 1000;
    const columns = h.def.tableColumns ?? [];
    // Metadata informers (client-go's metadata client) watch with as=PartialObjectMetadata: every event, bookmarks included, carries only metadata.
    const asPartial = negotiated.as?.kind === 'PartialObjectMetadata' || negotiated.as?.kind === 'PartialObjectMetadataList';
    // A watch is a LIST in kube's installer: a deprecated resource's warning goes out with its headers too.
    if (h.def.deprecationWarning) res.setHeader('Warning', warningHeaders([h.def.deprecationWarning]));
    await streamWatch(res, channel, {
      convert: h.def.conversion || h.def.strategy?.decorate ? (obj) => h.servedOne(obj) : undefined,
      encode: (obj, first) => (asTable ? buildTable(columns, [obj], { resourceVersion: obj.metadata.resourceVersion }, include, first, h.def.tableAge ?? true) : asPartial ? partial(obj) : h.withTypeMeta(obj)),
      timeoutMs,
      allowBookmarks: opts.allowWatchBookmarks,
      initialEventsEndBookmark: opts.sendInitialEvents === true && opts.allowWatchBookmarks,
      bookmarkObject: (rv) => (asPartial ? (partial({ metadata: { resourceVersion: rv } } as KubeObject) as KubeObject) : { kind: h.def.kind, apiVersion: h.apiVersion, metadata: { resourceVersion: rv } }),
      labels: { group: h.def.group, version: h.def.version, kind: h.def.kind },
      protobuf,
    });
    return 200;
  }
}

/**
 * The response's media type. Whether the kind answered (the resource's, or its subresource's own: a custom
 * resource's /scale answers an autoscaling/v1 Scale) has a protobuf message is asked only of a client naming
 * protobuf; a custom resource's (none) keeps its errors JSON too.
 */
function negotiateFor(req: IncomingMessage, res: ServerResponse, h: RestHandler, subresource?: string): Negotiated {
  return negotiate(req.headers.accept, TABLE_CONVERSIONS, () => {
    const sub = subresource ? h.subresources.get(subresource) : undefined;
    const other = sub?.view?.kind ?? sub?.creater?.kind;
    const served = other ? hasProtobufKind(other.group ? `${other.group}/${other.version}` : other.version, other.kind) : hasProtobufKind(h.apiVersion, h.def.kind);
    if (!served) markJsonOnly(res);
    return served;
  });
}

/** A computed resource serves only reads: its source has no writes or watch to offer. */
function checkSource(def: ResourceDefinition): void {
  const extra = def.source ? (def.verbs ?? []).filter((v) => !SOURCE_VERBS.includes(v)) : [];
  if (extra.length) throw new Error(`${def.plural}.${def.group}: a resource with a source serves only ${SOURCE_VERBS.join(' and ')}, not ${extra.join(', ')}`);
  if (def.source && Object.keys(def.subresources ?? {}).length) throw new Error(`${def.plural}.${def.group}: a resource with a source has no subresources`);
}

/** What follows `<resource>/<name>/<subresource>` in the path (kube's connect subpath), with its leading slash. */
function subpathOf(info: RequestInfo): string {
  const parts = info.path.split('/');
  const at = parts.findIndex((p, i) => p === info.resource && i + 2 < parts.length && parts[i + 2] === info.subresource);
  return at < 0 || at + 3 >= parts.length ? '' : `/${parts.slice(at + 3).join('/')}`;
}

function notFoundPath(): Error {
  const err = Errors.notFound({ group: '', resource: '' }, '');
  err.status.message = 'the server could not find the requested resource';
  err.status.details = { causes: [{ reason: 'UnexpectedServerResponse', message: '404 page not found' }] };
  return err;
}

/** Stored objects are immutable: one PartialObjectMetadata per object, so a metadata watch's fan-out encodes it once. */
const partials = new WeakMap<KubeObject, object>();

function partial(obj: KubeObject): object {
  let p = partials.get(obj);
  if (!p) partials.set(obj, (p = { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata }));
  return p;
}

function joinSelectors(a: string, b: string | null): string {
  return b ? `${a},${b}` : a;
}

function includeObject(query: URLSearchParams): IncludeObject {
  const v = query.get('includeObject');
  // kube's ValidateTableOptions, as optionsForTransform words it.
  if (v && v !== 'None' && v !== 'Object' && v !== 'Metadata') throw Errors.badRequest(`Unable to convert to Table as requested: includeObject: Invalid value: ${JSON.stringify(v)}: must be 'Metadata', 'Object', 'None', or empty`);
  return v === 'None' || v === 'Object' ? v : 'Metadata';
}

/** kube's errNotAcceptable for a conversion the object cannot take (a bare message, no accepted types). */
function notAcceptable(message: string): StatusError {
  return new StatusError(406, 'NotAcceptable', message);
}

/**
 * The Go type (%T) kube's 406 names: the registry's internal object, `*<package>.<Kind>[List]` for built-in and
 * aggregated kinds (the package is the group's first label, core for the legacy group), unstructured for custom ones.
 */
function goTypeName(def: ResourceDefinition, list: boolean): string {
  if (def.disableStrategicMergePatch) return list ? '*unstructured.UnstructuredList' : '*unstructured.Unstructured';
  const pkg = def.group === '' || def.group === 'events.k8s.io' ? 'core' : def.group.split('.')[0];
  return `*${pkg}.${def.kind}${list ? 'List' : ''}`;
}

function listQuery(query: URLSearchParams): ListQuery {
  return listOptions(query, false);
}

/** The options kind kube validates a write's query against (Create/Update/PatchOptions). */
const OPTIONS_KIND: Partial<Record<string, string>> = { create: 'CreateOptions', update: 'UpdateOptions', patch: 'PatchOptions' };

function writeOptions(query: URLSearchParams, verb = '', contentType?: string): WriteOptions {
  // A DELETE's dryRun is its DeleteOptions' (decodeDeleteOptions); reads have none (kube ignores the parameter).
  const dryRun = OPTIONS_KIND[verb] ? query.getAll('dryRun') : [];
  const fv = query.get('fieldValidation') ?? 'Warn';
  if (!['Ignore', 'Warn', 'Strict'].includes(fv)) throw Errors.badRequest(`fieldValidation: Unsupported value: "${fv}": supported values: "Ignore", "Strict", "Warn"`);
  const manager = query.get('fieldManager') ?? undefined;
  const forceText = query.get('force');
  let force: boolean | undefined;
  if (forceText !== null) {
    if (!['true', 'false', ''].includes(forceText)) throw Errors.badRequest(`strconv.ParseBool: parsing ${JSON.stringify(forceText)}: invalid syntax`);
    force = forceText !== 'false';
  }
  // ValidatePatchOptions / ValidateFieldManager: 422 on the options kind.
  const errors: FieldError[] = [];
  const isApply = verb === 'patch' && PATCH_CONTENT_TYPES[(contentType ?? '').split(';')[0].trim().toLowerCase()] === 'apply';
  if (isApply && !manager) errors.push(FieldError.required('fieldManager', 'is required for apply patch'));
  if (!isApply && force !== undefined && verb === 'patch') errors.push(FieldError.forbidden('force', 'may not be specified for non-apply patch'));
  if (manager && Buffer.byteLength(manager) > FIELD_MANAGER_MAX_LENGTH) errors.push(FieldError.tooLong('fieldManager', '', FIELD_MANAGER_MAX_LENGTH));
  errors.push(...validateDryRun(dryRun));
  const optionsKind = OPTIONS_KIND[verb];
  if (errors.length && optionsKind) throw Errors.invalid({ group: 'meta.k8s.io', kind: optionsKind }, '', errors);
  return { dryRun: dryRun.length > 0, fieldValidation: fv as FieldValidation, fieldManager: manager, force };
}
