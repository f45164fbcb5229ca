/** Announcer and registry against a real nats-server. */
import { startNats, type NatsProcess } from '@kube/testing';
import { connect, type NatsConnection } from 'nats';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RegistrationSnapshot } from './live-instance.table';
import type { RegistrationAnnouncer, RegistrationAnnouncerOptions } from './registration.announcer';
import { RegistrationAnnouncers } from './registration.announcers';
import { startRegistrationApp } from './registration.app';
import { registrationMessagesDropped } from './registration.metrics';
import { RegistrationRegistry } from './registration.registry';
import { RegistrationSubjects, serviceSubject } from './registration.subjects';
import { type Announcement, REGISTRATION_API_VERSION, type RegistrationLogger } from './registration.types';
import { CapturingLogger, eventually } from './registration.testing';

const caBundle = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIBtest\n-----END CERTIFICATE-----\n').toString('base64');
const CORE = { group: '', version: 'v1' };
const COORDINATION = { group: 'coordination.k8s.io', version: 'v1' };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const ANNOUNCE_CORE_API = serviceSubject(RegistrationSubjects.announce, 'core-api');
const WITHDRAW_CORE_API = serviceSubject(RegistrationSubjects.withdraw, 'core-api');

const endpointsOf = (snapshot: RegistrationSnapshot, key: string): string[] => (snapshot.get(key)?.endpoints ?? []).map((e) => e.endpoint);

describe('registration over NATS', () => {
  let nats: NatsProcess;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    nats = await startNats();
  });
  afterAll(() => nats.stop());
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** Each announcer and registry is an app of its own, as in separate processes. */
  async function announcer(opts: Partial<RegistrationAnnouncerOptions> & { endpoint: string }): Promise<RegistrationAnnouncer> {
    const instance = opts.endpoint.replace(/\W/g, '-');
    const app = await startRegistrationApp({ natsUrl: nats.url, name: instance, reconnectTimeWaitMs: 100, announce: true });
    cleanups.push(() => app.close());
    const a = app.get(RegistrationAnnouncers).create({ service: 'core-api', caBundle, logger: new CapturingLogger(), instance, ...opts });
    cleanups.push(() => a.close());
    await a.start();
    return a;
  }

  async function registry(logger: RegistrationLogger = new CapturingLogger()): Promise<RegistrationRegistry> {
    const app = await startRegistrationApp({ natsUrl: nats.url, name: 'registry', reconnectTimeWaitMs: 100, registry: { logger } });
    cleanups.push(() => app.close());
    const r = app.get(RegistrationRegistry);
    await r.start();
    return r;
  }

  async function rawConnection(): Promise<NatsConnection> {
    const nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    cleanups.push(() => nc.close());
    return nc;
  }

  function rawAnnouncement(instance: string, ttlSeconds: number): Announcement {
    return {
      apiVersion: REGISTRATION_API_VERSION,
      service: 'core-api',
      instance,
      endpoint: 'https://127.0.0.9:6443',
      caBundle,
      groupVersions: [{ ...COORDINATION, groupPriorityMinimum: 16500, versionPriority: 15 }],
      source: 'onstart',
      ttlSeconds,
      sentAt: new Date().toISOString(),
    };
  }

  it('delivers an announcement to the registry with a debounced change event', async () => {
    const r = await registry();
    const changes: RegistrationSnapshot[] = [];
    r.onChange((s) => changes.push(s));
    const a = await announcer({ endpoint: 'https://127.0.0.1:7001' });
    a.announce([CORE, COORDINATION]);

    await eventually(() => expect([...r.current().keys()]).toEqual(['v1.', 'v1.coordination.k8s.io']));
    expect(r.current().get('v1.')).toEqual({
      group: '',
      version: 'v1',
      groupPriorityMinimum: 18000,
      versionPriority: 1,
      source: 'onstart',
      endpoints: [{ service: 'core-api', instance: a.instance, endpoint: 'https://127.0.0.1:7001', caBundle }],
    });
    await eventually(() => expect(changes.length).toBeGreaterThan(0));
    expect(changes.at(-1)).toBe(r.current());
  });

  it('lists two instances of one service as two endpoints, and drops one when it closes', async () => {
    const r = await registry();
    const first = await announcer({ endpoint: 'https://127.0.0.1:7011' });
    const second = await announcer({ endpoint: 'https://127.0.0.1:7012' });
    first.announce([CORE]);
    second.announce([CORE]);
    await eventually(() => expect(endpointsOf(r.current(), 'v1.')).toEqual(['https://127.0.0.1:7011', 'https://127.0.0.1:7012']));

    await second.close(); // withdraws: no waiting for expiry
    await eventually(() => expect(endpointsOf(r.current(), 'v1.')).toEqual(['https://127.0.0.1:7011']), 500);
  });

  it('expires an instance that stops heartbeating, but keeps one that heartbeats', async () => {
    const r = await registry();
    const live = await announcer({ endpoint: 'https://127.0.0.1:7021', ttlSeconds: 1 });
    live.announce([CORE]);
    const nc = await rawConnection();
    nc.publish(ANNOUNCE_CORE_API, Buffer.from(JSON.stringify(rawAnnouncement('silent-1', 1))));
    await eventually(() => expect(r.current().has('v1.coordination.k8s.io')).toBe(true));

    await eventually(() => expect(r.current().has('v1.coordination.k8s.io')).toBe(false), 2000);
    await sleep(500); // well past the live one's ttl: only heartbeats keep it
    expect(endpointsOf(r.current(), 'v1.')).toEqual(['https://127.0.0.1:7021']);
  });

  it('withdraws some group/versions, then all', async () => {
    const r = await registry();
    const a = await announcer({ endpoint: 'https://127.0.0.1:7031' });
    a.announce([CORE, COORDINATION]);
    await eventually(() => expect(r.current().size).toBe(2));

    a.withdraw([COORDINATION]);
    await eventually(() => expect([...r.current().keys()]).toEqual(['v1.']));
    expect(a.announced.map((gv) => gv.version + '.' + gv.group)).toEqual(['v1.']);
    a.withdraw();
    await eventually(() => expect(r.current().size).toBe(0));
  });

  it('teaches a registry started later everything at once (resync)', async () => {
    const a = await announcer({ endpoint: 'https://127.0.0.1:7041', ttlSeconds: 60 }); // heartbeat every 20 s: only resync can explain a fast answer
    const b = await announcer({ endpoint: 'https://127.0.0.1:7042', ttlSeconds: 60, service: 'extensions' });
    a.announce([CORE]);
    b.announce([{ group: 'apiextensions.k8s.io', version: 'v1' }]);
    await sleep(50);

    const r = await registry();
    await eventually(() => expect([...r.current().keys()]).toEqual(['v1.', 'v1.apiextensions.k8s.io']), 1000);
  });

  it('converges again after nats-server restarts, and expires what died meanwhile', async () => {
    const r = await registry();
    const a = await announcer({ endpoint: 'https://127.0.0.1:7051', ttlSeconds: 1 });
    a.announce([CORE]);
    const nc = await rawConnection();
    nc.publish(ANNOUNCE_CORE_API, Buffer.from(JSON.stringify(rawAnnouncement('dies-during-outage', 1))));
    await eventually(() => expect(r.current().size).toBe(2));

    await nats.stop();
    a.announce([CORE, { group: 'apps', version: 'v1' }]); // missed by the registry: only resync can repair it
    await sleep(1200); // beyond every ttl: silence while disconnected must not drop anyone
    expect(r.current().size).toBe(2);
    await nc.close(); // the raw instance dies during the outage
    await nats.restart();

    await eventually(() => expect([...r.current().keys()]).toEqual(['v1.', 'v1.apps']), 5000);
    expect(endpointsOf(r.current(), 'v1.')).toEqual(['https://127.0.0.1:7051']);
  });

  it('puts the contract JSON on the wire as it is: no Nest envelope, no headers, answered by any NATS client', async () => {
    const nc = await rawConnection();
    const seen: Array<{ subject: string; json: Record<string, unknown>; headers: boolean }> = [];
    for (const subject of [RegistrationSubjects.announce, RegistrationSubjects.resync]) {
      nc.subscribe(subject, { callback: (_err, msg) => seen.push({ subject: msg.subject, json: JSON.parse(Buffer.from(msg.data).toString('utf8')), headers: !!msg.headers }) });
    }
    await nc.flush();
    const a = await announcer({ endpoint: 'https://127.0.0.1:7061', ttlSeconds: 60 });
    a.announce([CORE]);
    await eventually(() => expect(seen.filter((m) => m.subject === ANNOUNCE_CORE_API).length).toBeGreaterThan(0));
    const count = seen.length;
    // A resync from a plain NATS client is answered at once (the heartbeat is 20 s away).
    nc.publish(RegistrationSubjects.resync, Buffer.from(JSON.stringify({ apiVersion: REGISTRATION_API_VERSION, requester: 'raw', sentAt: new Date().toISOString() })));
    await eventually(() => expect(seen.slice(count + 1).some((m) => m.subject === ANNOUNCE_CORE_API)).toBe(true));
    await registry(); // its resync request, as sent
    await eventually(() => expect(seen.filter((m) => m.subject === RegistrationSubjects.resync && m.json.requester === 'registry')).toHaveLength(1));

    const announcement = seen.find((m) => m.subject === ANNOUNCE_CORE_API);
    expect(Object.keys(announcement?.json ?? {}).sort()).toEqual(['apiVersion', 'caBundle', 'endpoint', 'groupVersions', 'instance', 'sentAt', 'service', 'source', 'ttlSeconds']);
    expect(announcement?.json).toMatchObject({ apiVersion: REGISTRATION_API_VERSION, service: 'core-api', endpoint: 'https://127.0.0.1:7061', groupVersions: [{ group: '', version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 }] });
    const resync = seen.find((m) => m.subject === RegistrationSubjects.resync && m.json.requester === 'registry');
    expect(Object.keys(resync?.json ?? {}).sort()).toEqual(['apiVersion', 'requester', 'sentAt']);
    expect(seen.every((m) => !m.headers)).toBe(true);
  });

  it('drops invalid messages with a logged reason and ignores other apiVersions', async () => {
    const logger = new CapturingLogger();
    const r = await registry(logger);
    const nc = await rawConnection();
    const droppedBefore = await droppedCount();
    nc.publish(ANNOUNCE_CORE_API, Buffer.from('{not json'));
    nc.publish(ANNOUNCE_CORE_API, Buffer.from(JSON.stringify({ ...rawAnnouncement('bad-1', 5), endpoint: 'http://plain:80' })));
    nc.publish(WITHDRAW_CORE_API, Buffer.from(JSON.stringify({ apiVersion: REGISTRATION_API_VERSION })));
    nc.publish(ANNOUNCE_CORE_API, Buffer.from(JSON.stringify({ ...rawAnnouncement('future-1', 5), apiVersion: 'registration.kube-ts.io/v2' })));
    nc.publish(ANNOUNCE_CORE_API, Buffer.from(JSON.stringify(rawAnnouncement('good-1', 5))));

    await eventually(() => expect(r.current().get('v1.coordination.k8s.io')?.endpoints.map((e) => e.instance)).toEqual(['good-1']));
    expect(r.current().size).toBe(1);
    expect(logger.warnings).toEqual([
      expect.stringMatching(/invalid message on kube\.registration\.v1\.announce\.core-api: not JSON/),
      expect.stringMatching(/invalid message on kube\.registration\.v1\.announce\.core-api: \$\.endpoint: .*must use https/),
      expect.stringMatching(/invalid message on kube\.registration\.v1\.withdraw\.core-api: \$\.service: must be a string/),
    ]);
    expect((await droppedCount()) - droppedBefore).toBe(4);
  });

  it('accepts group/versions only from the service that owns them, and hands a free one to the next claimer', async () => {
    const logger = new CapturingLogger();
    const r = await registry(logger);
    const ownershipBefore = await droppedCount('ownership');
    const WARDLE = { group: 'wardle.example.com', version: 'v1alpha1', groupPriorityMinimum: 1000, versionPriority: 15 };
    const wardle = await announcer({ endpoint: 'https://127.0.0.1:7101', service: 'sample-apiserver', ttlSeconds: 1 });
    wardle.announce([WARDLE]);
    await eventually(() => expect(endpointsOf(r.current(), 'v1alpha1.wardle.example.com')).toEqual(['https://127.0.0.1:7101']));

    // extensions' identity claims core-api's group beside its own; another service claims wardle's group/version.
    const extensions = await announcer({ endpoint: 'https://127.0.0.1:7102', service: 'extensions' });
    extensions.announce([CORE, { group: 'apiextensions.k8s.io', version: 'v1' }]);
    const impostor = await announcer({ endpoint: 'https://127.0.0.1:7103', service: 'impostor', ttlSeconds: 1 });
    impostor.announce([WARDLE]);
    await eventually(() => expect(r.current().has('v1.apiextensions.k8s.io')).toBe(true));
    await sleep(1000); // three heartbeats of the impostor: each refused again, warned once
    expect([...r.current().keys()]).toEqual(['v1.apiextensions.k8s.io', 'v1alpha1.wardle.example.com']);
    expect(endpointsOf(r.current(), 'v1alpha1.wardle.example.com')).toEqual(['https://127.0.0.1:7101']);
    expect(logger.warnings.filter((w) => /refused group\/versions announced by extensions .*v1\. \(group "" belongs to core-api\)/.test(w))).toHaveLength(1);
    expect(logger.warnings.filter((w) => /refused group\/versions announced by impostor .*v1alpha1\.wardle\.example\.com \(it is served by sample-apiserver\)/.test(w))).toHaveLength(1);
    expect((await droppedCount('ownership')) - ownershipBefore).toBeGreaterThanOrEqual(3);

    // Owned until its last claim is gone: then the next announcement takes it.
    await wardle.close();
    await eventually(() => expect(endpointsOf(r.current(), 'v1alpha1.wardle.example.com')).toEqual(['https://127.0.0.1:7103']));
  });
});

async function droppedCount(reason?: string): Promise<number> {
  return (await registrationMessagesDropped.get()).values.filter((v) => reason === undefined || v.labels.reason === reason).reduce((sum, v) => sum + v.value, 0);
}
