/** The registration permissions enforced by a real nats-server with TLS client certificates (verify_and_map). */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { INestMicroservice } from '@nestjs/common';
import { ensurePki, natsClientPaths, type PkiPaths } from '@kube/pki';
import { startNats, tempDir, type NatsProcess } from '@kube/testing';
import { connect, type ConnectionOptions, type NatsConnection } from 'nats';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RegistrationAnnouncers } from './registration.announcers';
import { startRegistrationApp } from './registration.app';
import { CONTROL_PLANE_REGISTRATION_IDENTITIES, natsServerConfig, registrationPermissions } from './registration.nats-auth';
import { RegistrationRegistry } from './registration.registry';
import { RegistrationSubjects, serviceSubject } from './registration.subjects';
import { type Announcement, REGISTRATION_API_VERSION, type RegistrationLogger } from './registration.types';
import { CapturingLogger, eventually } from './registration.testing';
import type { RegistrationNatsTls } from './registration.transport';

const caBundle = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIBtest\n-----END CERTIFICATE-----\n').toString('base64');

/** Generous: nats-server reports permission violations asynchronously, and the machine may be busy. */
const within = (check: () => void): Promise<void> => eventually(check, 10_000, 50);

const announcement = (service: string, endpoint: string): Announcement => ({
  apiVersion: REGISTRATION_API_VERSION,
  service,
  instance: `${service}-forged`,
  endpoint,
  caBundle,
  groupVersions: [{ group: '', version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 }],
  source: 'onstart',
  ttlSeconds: 60,
  sentAt: new Date().toISOString(),
});

describe('registration permissions on an authenticating nats-server', () => {
  let pki: PkiPaths;
  let nats: NatsProcess;
  const cleanups: Array<() => Promise<unknown>> = [];

  const tlsOf = (name: string): RegistrationNatsTls => ({ caFile: pki.natsCaCert, certFile: natsClientPaths(pki, name).cert, keyFile: natsClientPaths(pki, name).key });

  async function raw(opts: Partial<ConnectionOptions>): Promise<NatsConnection> {
    const nc = await connect({ servers: nats.url, reconnect: false, ...opts });
    cleanups.push(() => nc.close());
    return nc;
  }

  /** The NATS status errors a connection reports (permission violations arrive asynchronously). */
  function errorsOf(nc: NatsConnection): string[] {
    const errors: string[] = [];
    void (async () => {
      for await (const status of nc.status()) if (status.type === 'error') errors.push(String(status.data));
    })();
    return errors;
  }

  async function app(name: string, role: 'announce' | 'registry', logger?: RegistrationLogger): Promise<INestMicroservice> {
    const started = await startRegistrationApp({ natsUrl: nats.url, name, tls: tlsOf(name), reconnectTimeWaitMs: 100, ...(role === 'registry' ? { registry: { logger } } : { announce: true }) });
    cleanups.push(() => started.close());
    return started;
  }

  beforeAll(async () => {
    const dir = tempDir('nats-auth');
    pki = await ensurePki(join(dir, 'pki'), { natsClients: ['core-api', 'extensions', 'aggregator', 'intruder'] });
    const conf = join(dir, 'nats.conf');
    await writeFile(conf, natsServerConfig({ tls: { certFile: pki.natsServerCert, keyFile: pki.natsServerKey, caFile: pki.natsCaCert }, identities: CONTROL_PLANE_REGISTRATION_IDENTITIES }), { mode: 0o600 });
    nats = await startNats({ extraArgs: ['-c', conf] });
  });
  afterAll(() => nats?.stop());
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  it('lets an announcer publish on its own subjects only, and a registry ask for resyncs', () => {
    expect(registrationPermissions({ name: 'core-api', roles: ['announcer'] })).toEqual({
      publish: ['kube.registration.v1.announce.core-api', 'kube.registration.v1.withdraw.core-api'],
      subscribe: ['kube.registration.v1.resync'],
    });
    expect(registrationPermissions({ name: 'aggregator', roles: ['registry'] })).toEqual({
      publish: ['kube.registration.v1.resync'],
      subscribe: ['kube.registration.v1.announce.*', 'kube.registration.v1.withdraw.*'],
    });
    expect(() => registrationPermissions({ name: 'nobody', roles: [] })).toThrow(/no registration role/);
  });

  it('refuses a client without a certificate, with another CA\'s certificate, or with an identity it does not know', async () => {
    await expect(raw({})).rejects.toThrow(); // does not even trust the server (its CA is the NATS CA)
    // TLS 1.3 refuses a missing certificate after the client's side of the handshake is done: the client reads the
    // server's "certificate required" alert, or, when the server's reset arrives first, ECONNRESET. Either way, refused.
    await expect(raw({ tls: { caFile: pki.natsCaCert } })).rejects.toThrow(/certificate|ECONNRESET/i);
    await expect(raw({ tls: { caFile: pki.natsCaCert, certFile: pki.adminCert, keyFile: pki.adminKey } })).rejects.toThrow();
    await expect(raw({ tls: tlsOf('intruder') })).rejects.toThrow(/authorization violation/i);
    await expect(raw({ tls: tlsOf('core-api') })).resolves.toBeDefined();
  });

  it('denies a service publishing another service\'s announcement or a resync, and listening to announcements', async () => {
    const logger = new CapturingLogger();
    const registry = (await app('aggregator', 'registry', logger)).get(RegistrationRegistry);
    await registry.start();

    const extensions = await raw({ tls: tlsOf('extensions') });
    const errors = errorsOf(extensions);
    extensions.publish(serviceSubject(RegistrationSubjects.announce, 'core-api'), JSON.stringify(announcement('core-api', 'https://10.6.6.6:443')));
    await extensions.flush();
    await within(() => expect(errors.some((e) => /PERMISSIONS_VIOLATION/.test(e))).toBe(true));
    extensions.publish(RegistrationSubjects.resync, JSON.stringify({ apiVersion: REGISTRATION_API_VERSION, requester: 'extensions', sentAt: new Date().toISOString() }));
    await extensions.flush();
    await within(() => expect(errors.filter((e) => /PERMISSIONS_VIOLATION/.test(e)).length).toBeGreaterThanOrEqual(2));

    const eavesdropped: string[] = [];
    const sub = extensions.subscribe(RegistrationSubjects.announce, { callback: (err, msg) => eavesdropped.push(err ? `error: ${err.message}` : msg.subject) });
    await extensions.flush();
    await within(() => expect(sub.isClosed()).toBe(true));
    expect(eavesdropped.every((e) => e.startsWith('error:'))).toBe(true);

    // Its own subject is allowed, but the registry drops an announcement that claims another service.
    extensions.publish(serviceSubject(RegistrationSubjects.announce, 'extensions'), JSON.stringify(announcement('core-api', 'https://10.6.6.6:443')));
    await extensions.flush();
    await within(() => expect(logger.warnings.some((w) => /claims service "core-api" but was sent as "extensions"/.test(w))).toBe(true));
    expect(registry.current().size).toBe(0);
  });

  it('still carries the real announcements between the services it knows', async () => {
    const registry = (await app('aggregator', 'registry')).get(RegistrationRegistry);
    await registry.start();
    const announcer = (await app('core-api', 'announce')).get(RegistrationAnnouncers).create({ service: 'core-api', endpoint: 'https://127.0.0.1:6444', caBundle });
    cleanups.push(() => announcer.close());
    await announcer.start();
    announcer.announce([{ group: '', version: 'v1' }]);
    await within(() => expect(registry.current().get('v1.')?.endpoints.map((e) => [e.service, e.endpoint])).toEqual([['core-api', 'https://127.0.0.1:6444']]));
    await announcer.close();
    await within(() => expect(registry.current().size).toBe(0));
  });
});
