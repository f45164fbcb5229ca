import { Logger } from '@nestjs/common';
import { encodeCaBundle, type RegistrationAnnouncer, type RegistrationAnnouncers } from '@kube/registration';
import type { GenericApiServer } from './api-server';
import type { ServerConfig } from './server.config';

/**
 * Announces over NATS the group/versions a server serves: those installed at start as "onstart", those
 * installed later (CRDs) as "crd", each set from its own announcer instance, re-announced on every change.
 * NATS is optional: without KUBE_NATS_URL nothing is announced and the aggregator relies on etcd.
 */
export class ServedGroupVersionsAnnouncer {
  private readonly logger = new Logger('Registration');
  private builtIn?: RegistrationAnnouncer;
  private dynamic?: RegistrationAnnouncer;
  private readonly atStart: Set<string>;

  constructor(
    private readonly server: GenericApiServer,
    private readonly config: ServerConfig,
    /** From RegistrationModule; absent without NATS. */
    private readonly announcers?: RegistrationAnnouncers,
  ) {
    this.atStart = new Set(server.resources.map((d) => `${d.group}/${d.version}`));
  }

  async start(port: number): Promise<void> {
    const natsUrl = this.config.natsUrl;
    const announcers = this.announcers;
    if (!natsUrl || !announcers) return;
    const s = this.config.server;
    const host = s.advertiseAddress?.split(':')[0] ?? (s.bindAddress === '0.0.0.0' ? '127.0.0.1' : s.bindAddress);
    const common = { service: s.component, endpoint: `https://${host}:${port}`, caBundle: encodeCaBundle(this.config.servingCAPem ?? '') };
    this.builtIn = announcers.create({ ...common, source: 'onstart' });
    this.dynamic = announcers.create({ ...common, source: 'crd', instance: `${this.builtIn.instance}-crd` });
    await Promise.all([this.builtIn.start(), this.dynamic.start()]);
    this.announce();
    this.server.onResourcesChanged = () => this.announce();
    this.logger.log(`announcing ${this.atStart.size} group/versions of ${s.component} on ${natsUrl}`);
  }

  private announce(): void {
    const priority = this.config.announcedPriority;
    const all = new Map(this.server.resources.map((d) => [`${d.group}/${d.version}`, { group: d.group, version: d.version, ...priority }]));
    this.builtIn?.announce([...all].filter(([k]) => this.atStart.has(k)).map(([, gv]) => gv));
    this.dynamic?.announce([...all].filter(([k]) => !this.atStart.has(k)).map(([, gv]) => gv));
  }

  async close(): Promise<void> {
    await Promise.all([this.builtIn?.close(), this.dynamic?.close()]);
  }
}
