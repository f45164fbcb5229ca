import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Gauge, register } from 'prom-client';
import { HealthChecks } from '@kube/apiserver';
import { LeaderElector, RestClient } from '@kube/client';
import { parseCertificateAuthority, type CertificateAuthority } from '@kube/pki';
import { CONTROLLERS, EVENT_SOURCES } from './controllers';
import { discoveryInformerFactory, type ControllerContext, type ManagedController } from './controller.context';
import { defaultIdentity, LEASE_NAME, LEASE_NAMESPACE, type ControllerManagerOptions } from './controller-manager.config';
import { EventRecorder } from './event.recorder';
import { ResourceDiscovery } from './resource.discovery';
import { SimulatedNodesController } from './simulation/simulated-nodes.controller';

export const CONTROLLER_MANAGER_OPTIONS = Symbol('CONTROLLER_MANAGER_OPTIONS');

const leaderStatus =
  (register.getSingleMetric('leader_election_master_status') as Gauge<'name'> | undefined) ??
  new Gauge({ name: 'leader_election_master_status', help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master.', labelNames: ['name'] });

/** Everything running for one leadership term; torn down when the lease is lost. */
interface Term {
  ctx: ControllerContext;
  controllers: ManagedController[];
  started: Promise<void>;
}

/**
 * kube-controller-manager: stands for the `kube-system/kube-controller-manager` Lease and, while it holds it,
 * runs the controllers on one SharedInformerFactory through the API (discovery-driven informers). Losing the
 * lease stops every controller and informer of the term; the manager then stands for election again.
 */
@Injectable()
export class ControllerManager implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ControllerManager');
  private readonly elector: LeaderElector;
  readonly identity: string;
  private term?: Term;
  private termStarting?: Promise<void>;
  private readonly clusterSigningCa?: Promise<CertificateAuthority>;

  constructor(
    @Inject(CONTROLLER_MANAGER_OPTIONS) private readonly options: ControllerManagerOptions,
    @Inject(RestClient) private readonly client: RestClient,
    @Inject(HealthChecks) health: HealthChecks,
  ) {
    this.identity = options.identity ?? defaultIdentity();
    this.clusterSigningCa = options.clusterSigning ? parseCertificateAuthority(options.clusterSigning.certPem, options.clusterSigning.keyPem) : undefined;
    this.elector = new LeaderElector(client, {
      namespace: LEASE_NAMESPACE,
      name: LEASE_NAME,
      identity: this.identity,
      ...options.leaderElection,
      onStartedLeading: () => {
        leaderStatus.set({ name: LEASE_NAME }, 1);
        this.termStarting = this.startTerm();
      },
      onStoppedLeading: async () => {
        leaderStatus.set({ name: LEASE_NAME }, 0);
        await this.stopTerm();
      },
    });
    leaderStatus.set({ name: LEASE_NAME }, 0);
    health.add('leaderElection', () => undefined, ['healthz', 'livez']);
  }

  get isLeader(): boolean {
    return this.elector.isLeader;
  }

  /** Resolves once this leader's controllers each finished their first pass (for tests and readiness of a leader). */
  async controllersStarted(): Promise<void> {
    await this.termStarting;
    await this.term?.started;
  }

  /** This leader's running controller of that name (tests wait for its passes). */
  controller(name: string): ManagedController | undefined {
    return this.term?.controllers.find((c) => c.name === name);
  }

  onApplicationBootstrap(): void {
    this.elector.run();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.elector.stop();
    this.client.close();
  }

  private async startTerm(): Promise<void> {
    const discovery = new ResourceDiscovery(this.client);
    // Without discovery no controller can start: retry while we lead.
    for (;;) {
      try {
        await discovery.refresh();
        break;
      } catch (err) {
        this.logger.warn(`discovery failed: ${(err as Error).message}`);
        if (!this.elector.isLeader) return;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    if (!this.elector.isLeader) return;
    const informers = discoveryInformerFactory(this.client, discovery);
    const ctx: ControllerContext = {
      client: this.client,
      informers,
      discovery,
      events: new EventRecorder(this.client, 'kube-controller-manager'),
      rootCaPem: this.options.rootCaPem,
      // An unusable CA leaves only the signer off (logged), as kube skips a signer it cannot load.
      clusterSigningCa: await this.clusterSigningCa?.catch((err: unknown) => void this.logger.error(`cluster signing CA: ${(err as Error).message}`)),
    };
    const names = this.options.controllers ?? [...CONTROLLERS.keys()];
    const controllers = names.flatMap((name) => {
      const factory = CONTROLLERS.get(name);
      if (!factory) throw new Error(`unknown controller ${name}; known: ${[...CONTROLLERS.keys()].join(', ')}`);
      // Each controller records events as its own source, as kube gives each its own recorder.
      const controller = factory({ ...ctx, events: new EventRecorder(this.client, EVENT_SOURCES.get(name) ?? 'kube-controller-manager') });
      if (!controller) this.logger.warn(`skipping ${name}: not configured`);
      return controller ? [controller] : [];
    });
    // Simulated nodes run with the leader's term, whatever --controllers says: they stand in for kubelets.
    if (this.options.simulation) controllers.push(new SimulatedNodesController(ctx, this.options.simulation));
    informers.start();
    discovery.start();
    const started = Promise.all(controllers.map((c) => c.start().then(() => this.logger.log(`started ${c.name}`)))).then(() => undefined);
    this.term = { ctx, controllers, started };
  }

  private async stopTerm(): Promise<void> {
    await this.termStarting;
    const term = this.term;
    this.term = undefined;
    if (!term) return;
    term.ctx.discovery.stop();
    await Promise.all(term.controllers.map((c) => c.stop()));
    term.ctx.informers.shutdown();
  }
}
