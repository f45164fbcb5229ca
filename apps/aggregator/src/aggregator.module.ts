import { Inject, Injectable, Logger, Module, type BeforeApplicationShutdown, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { FlowControl, GenericApiServer, HealthChecks, flowSchemasFromInformers, informerProviders, storageFor } from '@kube/apiserver';
import { SharedInformerFactory } from '@kube/client';
import { authorizationConfigFromEnv, authorizationModeFromEnv, buildAuthorization, type AuthorizationSet } from '@kube/authorization';
import { hostname } from 'node:os';
import { LeaderElection, Storage } from '@kube/storage';
import { RegistrationModule } from '@kube/registration';
import { apiServicesResource } from './apiservice/apiservices.resource';
import type { AggregatorConfig } from './aggregator.config';
import { AGGREGATOR_CONFIG, AUTHORIZATION } from './aggregator.tokens';
import { AggregatorEvents } from './aggregator.events';
import { AutoRegistration } from './reconcilers/autoregistration.reconciler';
import { AvailabilityController } from './reconcilers/availability.reconciler';
import { BackendsController } from './reconcilers/backends.reconciler';
import { ApiServerPresence, PRESENCE_OPTIONS, presenceOptionsFromEnv } from './reconcilers/apiserver-presence.reconciler';
import { DiscoveryMerger } from './discovery/discovery.merger';
import type { DiscoveryList } from './discovery/discovery.types';
import { FrontDoor } from './front-door.server';
import { OpenApiMerger } from './openapi/openapi.merger';
import { BackendAgents, MAX_BACKEND_POOLS } from './proxy/backend.target';
import { proxyHttp2FromEnv } from './proxy/backend.h2-pool';
import { RoutingTable } from './routing/routing.table';
import { priorityFor } from './routing/group.priorities';

/** Opens the front door after every controller is wired, closes it first on shutdown. */
@Injectable()
export class FrontDoorLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('Aggregator');
  port = 0;

  constructor(
    @Inject(FrontDoor) private readonly frontDoor: FrontDoor,
    @Inject(GenericApiServer) private readonly local: GenericApiServer,
    @Inject(Storage) private readonly storage: Storage,
    @Inject(BackendAgents) private readonly agents: BackendAgents,
    @Inject(AGGREGATOR_CONFIG) private readonly config: AggregatorConfig,
    @Inject(LeaderElection) private readonly election: LeaderElection,
    @Inject(AUTHORIZATION) private readonly authz: AuthorizationSet,
    @Inject(FlowControl) private readonly flowControl: FlowControl,
    @Inject(SharedInformerFactory) private readonly informers: SharedInformerFactory,
    @Inject(ApiServerPresence) private readonly presence: ApiServerPresence,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // APF classifies by the bootstrap objects in memory until the FlowSchemas and levels are listed.
    flowSchemasFromInformers(this.flowControl, this.informers);
    this.informers.start();
    // Every request is authorized from the RBAC objects in memory: they are listed before the first request.
    await Promise.all([this.local.start(), this.authz.start()]);
    this.port = await this.frontDoor.listen();
    this.presence.start(this.port, this.config.server.server.bindAddress, this.config.server.server.advertiseAddress);
    this.logger.log(`aggregator serving on https://${this.config.server.server.bindAddress}:${this.port}`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    // First, as kube's RemoveEndpoints: clients stop being sent here while the front door drains.
    await this.presence.stop();
    await this.election.stop();
    await this.frontDoor.close();
    this.authz.stop();
    this.agents.destroy();
  }

  /** Last: Nest runs onModuleDestroy before beforeApplicationShutdown, and the steps above still need etcd. */
  async onApplicationShutdown(): Promise<void> {
    await this.storage.close();
  }
}

/**
 * The aggregator: the front door every client talks to. It serves apiregistration.k8s.io APIServices itself
 * (a GenericApiServer without a listener) and proxies every other group/version to its backend.
 */
@Module({})
export class AggregatorModule {
  static forRoot(config: AggregatorConfig): DynamicModule {
    const s = config.server.server;
    return {
      module: AggregatorModule,
      imports: [RegistrationModule.forRoot({ natsUrl: config.server.natsUrl, tls: config.server.natsTls, name: 'aggregator', registry: { ownership: config.groupOwnership } })],
      providers: [
        { provide: AGGREGATOR_CONFIG, useValue: config },
        { provide: Storage, useFactory: () => storageFor(config.server) },
        {
          provide: GenericApiServer,
          useFactory: (storage: Storage) => {
            const server = new GenericApiServer(s, storage);
            server.install([apiServicesResource]);
            return server;
          },
          inject: [Storage],
        },
        { provide: BackendAgents, useFactory: () => new BackendAgents(config.proxyClient, MAX_BACKEND_POOLS, config.proxyHttp2 ?? proxyHttp2FromEnv()) },
        { provide: AUTHORIZATION, useFactory: (storage: Storage) => buildAuthorization(storage, config.authorizationMode ?? authorizationModeFromEnv(), config.authorizationConfig ?? authorizationConfigFromEnv()), inject: [Storage] },
        {
          provide: LeaderElection,
          useFactory: (storage: Storage) => {
            const election = new LeaderElection(storage.client, { key: '/registry/leader-election/kube-aggregator', identity: `${hostname()}/${process.pid}/${s.port}` });
            election.start();
            return election;
          },
          inject: [Storage],
        },
        RoutingTable,
        {
          provide: DiscoveryMerger,
          useFactory: (local: GenericApiServer, agents: BackendAgents) => {
            const own = JSON.parse(local.discoveryDocuments.aggregated('/apis', 'v2')?.body.toString() ?? '{"items":[]}') as DiscoveryList;
            return new DiscoveryMerger(agents, s.advertiseAddress ?? `${s.bindAddress}:${s.port}`, (g, v) => {
              const p = priorityFor(g, v, 'crd');
              return { group: p.groupPriorityMinimum, version: p.versionPriority };
            }, own.items);
          },
          inject: [GenericApiServer, BackendAgents],
        },
        { provide: OpenApiMerger, useFactory: (local: GenericApiServer, agents: BackendAgents) => new OpenApiMerger(agents, () => local.openApiDocuments), inject: [GenericApiServer, BackendAgents] },
        {
          provide: FlowControl,
          useFactory: () =>
            new FlowControl({
              // kube's server concurrency limit: the two max-in-flight budgets together.
              serverConcurrencyLimit: (s.maxRequestsInFlight ?? 400) + (s.maxMutatingRequestsInFlight ?? 200),
              requestWaitLimitMs: Math.min((s.requestTimeoutMs ?? 60_000) / 4, 60_000),
            }),
        },
        {
          provide: FrontDoor,
          useFactory: (local: GenericApiServer, routes: RoutingTable, discovery: DiscoveryMerger, openapi: OpenApiMerger, agents: BackendAgents, authz: AuthorizationSet, flowControl: FlowControl) =>
            new FrontDoor(
              { bindAddress: s.bindAddress, port: s.port, tls: s.tls, authentication: { clientCAPem: s.authentication.clientCAPem, tokens: s.authentication.tokens, structured: s.authentication.structured }, maxRequestsInFlight: s.maxRequestsInFlight, maxMutatingRequestsInFlight: s.maxMutatingRequestsInFlight, requestTimeoutMs: s.requestTimeoutMs, readHeaderTimeoutMs: s.readHeaderTimeoutMs, auditLogPath: config.auditLogPath, auditPolicy: config.auditPolicy, audit: config.audit, requestLog: s.requestLog, authorizer: authz.authorizer, flowControl, http2: config.http2 },
              local,
              routes,
              discovery,
              openapi,
              agents,
            ),
          inject: [GenericApiServer, RoutingTable, DiscoveryMerger, OpenApiMerger, BackendAgents, AUTHORIZATION, FlowControl],
        },
        // The front door serves the aggregator's health: controllers register their checks there themselves.
        { provide: HealthChecks, useFactory: (frontDoor: FrontDoor) => frontDoor.health, inject: [FrontDoor] },
        ...informerProviders(),
        AggregatorEvents,
        FrontDoorLifecycle,
        AvailabilityController,
        AutoRegistration,
        BackendsController,
        { provide: PRESENCE_OPTIONS, useFactory: presenceOptionsFromEnv },
        ApiServerPresence,
      ],
    };
  }
}
