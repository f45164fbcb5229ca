/**
 * docker-compose.yml, the Dockerfile and .dockerignore against what the apps read, without a Docker engine:
 * `docker-compose config` (Debian package docker-compose) validates and normalizes the file, the rest is
 * compared with the sources (environment names, ports, PKI file names, entry points). compose-stack.test.ts
 * builds the image and runs the stack for real.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { clientCertPaths, etcdClientPaths, natsClientPaths, pkiPaths, servingCertPaths } from '@kube/pki';
import { CONTROL_PLANE_REGISTRATION_IDENTITIES } from '@kube/registration';
import { tempDir } from '@kube/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { read, ROOT, sourceEnvNames } from './deploy.helpers';
import { ENCRYPTION_CONFIG_FILE } from '../../scripts/encryption-config';
import { CONTROL_PLANE_ETCD_CLIENTS, ETCD_AGGREGATED_FILE, ETCD_ROOT_CLIENT } from '../../scripts/etcd-access';

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  user?: string;
  environment?: Record<string, string>;
  ports?: Array<string | { target: number; published: number }>;
  volumes?: Array<string | { type: string; source: string; target: string }>;
  healthcheck?: { test: string[]; interval?: string; timeout?: string; retries?: number; start_period?: string };
  depends_on?: Record<string, { condition: string }>;
}
interface Compose {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** Every API service `npm start` runs (scripts/start.ts API_SERVICES, scaffolded servers included) runs in compose too. */
const API_SERVICES: readonly string[] = [...read('scripts/start.ts').matchAll(/\{ name: '([\w-]+)', main: /g)].map((m) => m[1]);
const INFRA = ['etcd', 'nats'] as const;
/** One-shots: the PKI, and etcd's users and roles (the only holder of etcd's root certificate). */
const ONE_SHOTS = ['pki', 'etcd-auth'] as const;

const hasDockerCompose = spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0;

/** `docker-compose config` output: interpolated, anchors and merges resolved, short syntax normalized. */
function composeConfig(...overrides: string[]): { code: number | null; stdout: string; stderr: string } {
  const files = [join(ROOT, 'docker-compose.yml'), ...overrides].flatMap((f) => ['-f', f]);
  const r = spawnSync('docker-compose', [...files, 'config'], { cwd: ROOT, encoding: 'utf8', timeout: 15_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The file itself, parsed with YAML merge keys (<<) resolved and every `${VAR:-default}` at its default (as
 * docker-compose reads it with those variables unset): for checks that need no docker-compose.
 */
const raw = (): Compose => parse(read('docker-compose.yml').replace(/\$\{\w+:-([^}]*)\}/g, '$1'), { merge: true }) as Compose;

function env(s: ComposeService): Record<string, string> {
  return Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, String(v)]));
}

function volumeTargets(s: ComposeService): Map<string, string> {
  return new Map(
    (s.volumes ?? []).map((v) => {
      if (typeof v !== 'string') return [v.target, v.source];
      const [source, target] = v.split(':');
      return [target, source];
    }),
  );
}

/** `--NAME=SERVICE=A,B,…` arguments of the pki one-shot: service → [A, B, …]. */
function pkiLists(pki: ComposeService, option: string): Map<string, string[]> {
  const prefix = `--${option}=`;
  return new Map(
    (pki.command ?? [])
      .filter((a) => a.startsWith(prefix))
      .map((a) => {
        const [service, list] = a.slice(prefix.length).split('=');
        return [service, list.split(',')];
      }),
  );
}

/**
 * The private keys a service may hold besides its own serving key and NATS identity: core-api signs
 * service-account tokens, the controller-manager CSRs (with the cluster CA); the aggregator presents the front-proxy client
 * certificate; the aggregated servers still register with the admin certificate (docs/registration.md).
 */
const EXTRA_KEYS: Record<string, readonly string[]> = {
  'core-api': ['sa.key'],
  aggregator: ['front-proxy-client.key'],
  'controller-manager': ['controller-manager.key', 'ca.key'],
  nats: ['nats-server.key'],
  etcd: ['etcd-server.key'],
  'etcd-auth': [basename(etcdClientPaths({ dir: '/pki' }, ETCD_ROOT_CLIENT).key)],
};
/** The aggregated servers the pki one-shot gives a client identity and RBAC of their own (--aggregated=NAME). */
const aggregatedIdentities = (pki: ComposeService): string[] => (pki.command ?? []).filter((a) => a.startsWith('--aggregated=')).map((a) => a.slice('--aggregated='.length));

describe('docker-compose.yml', () => {
  if (!hasDockerCompose) {
    it.skip('docker-compose config — skipped: the docker-compose binary is missing (apt-get install docker-compose)', () => undefined);
  } else {
    it('is valid for `docker-compose config`', () => {
      const r = composeConfig();
      expect(r.stderr).not.toMatch(/error|invalid|unsupported/i);
      expect(r.code).toBe(0);
      const normalized = parse(r.stdout) as Compose;
      expect(Object.keys(normalized.services).sort()).toEqual([...API_SERVICES, ...INFRA, ...ONE_SHOTS, 'controller-manager'].sort());
    });

    it('mounts, in every service but the pki one-shot, only its own PKI volume, and no volume holds another service\'s key', () => {
      const rendered = parse(composeConfig().stdout) as Compose;
      const bundles = pkiLists(rendered.services.pki, 'bundle');
      const pkiVolumes = new Set(Object.keys(rendered.volumes ?? {}).filter((v) => v === 'pki' || v.startsWith('pki-')));
      expect(pkiVolumes.size).toBeGreaterThan(API_SERVICES.length);
      for (const [name, s] of Object.entries(rendered.services)) {
        if (name === 'pki') continue;
        // docker-compose 1.29 renders the short syntax (source:target:mode), later versions the long one.
        const mounts = (s.volumes ?? []).map((v) => {
          if (typeof v !== 'string') return { source: v.source, target: v.target, read_only: (v as { read_only?: boolean }).read_only === true };
          const [source, target, mode] = v.split(':');
          return { source, target, read_only: mode === 'ro' };
        });
        const mounted = mounts.filter((v) => pkiVolumes.has(v.source));
        // Exactly its own, read-only, at /pki.
        expect(mounted.map((v) => [v.source, v.target, v.read_only]), name).toEqual([[`pki-${name}`, '/pki', true]]);
        // The one-shot writes that volume from this service's bundle.
        expect(volumeTargets(rendered.services.pki).get(`/bundles/${name}`), name).toBe(`pki-${name}`);
        const keys = (bundles.get(name) ?? []).filter((f) => f.endsWith('.key'));
        const own = [servingCertPaths, natsClientPaths, clientCertPaths, etcdClientPaths].map((paths) => basename(paths({ dir: '/pki' }, name).key));
        const allowed = new Set([...own, ...(EXTRA_KEYS[name] ?? [])]);
        expect(keys.filter((k) => !allowed.has(k)), `${name} holds keys that are not its own`).toEqual([]);
        expect(keys.length, name).toBeGreaterThan(0);
      }
      // The CA keys: the controller-manager's cluster CA key (the CSR signer) and nothing else, anywhere.
      const holders = (key: string): string[] => [...bundles].filter(([, files]) => files.includes(key)).map(([service]) => service);
      expect(holders('ca.key')).toEqual(['controller-manager']);
      expect(holders('sa.key')).toEqual(['core-api']);
      for (const key of ['front-proxy-ca.key', 'nats-ca.key', 'apiserver.key']) expect(holders(key), key).toEqual([]);
      expect(holders('front-proxy-client.key')).toEqual(['aggregator']);
      // Nobody is the admin: the aggregated servers have identities of their own.
      expect(holders('admin.key')).toEqual([]);
      expect(aggregatedIdentities(rendered.services.pki).sort()).toEqual(API_SERVICES.filter((n) => env(rendered.services[n]).KUBE_REGISTER_URL).sort());
      for (const { name } of CONTROL_PLANE_REGISTRATION_IDENTITIES) expect(holders(basename(natsClientPaths({ dir: '/pki' }, name).key))).toEqual([name]);
      // etcd: every API server its own etcd user's key, etcd's root key only in the etcd-auth one-shot, no etcd CA key.
      for (const name of API_SERVICES) expect(holders(basename(etcdClientPaths({ dir: '/pki' }, name).key)), name).toEqual([name]);
      expect(holders(basename(etcdClientPaths({ dir: '/pki' }, ETCD_ROOT_CLIENT).key))).toEqual(['etcd-auth']);
      expect(holders('etcd-ca.key')).toEqual([]);
    });

    it('runs two aggregators behind the TCP balancer and a second core-api, extensions and controller-manager with docker-compose.replicas.yml: same image, volume and environment, each twin announcing a name of its serving certificate', () => {
      const base = parse(composeConfig().stdout) as Compose;
      const r = composeConfig(join(ROOT, 'docker-compose.replicas.yml'));
      expect(r.code, r.stderr).toBe(0);
      const replicated = parse(r.stdout) as Compose;
      const serving = pkiLists(replicated.services.pki, 'serving');
      for (const name of ['core-api', 'extensions', 'controller-manager']) {
        const twin = replicated.services[`${name}-2`];
        expect(twin, `${name}-2`).toBeDefined();
        const { KUBE_ADVERTISE_ADDRESS: advertised, ...rest } = env(twin);
        const { KUBE_ADVERTISE_ADDRESS: original, ...originalRest } = env(base.services[name]);
        expect(rest, `${name}-2`).toEqual(originalRest);
        const same = (svc: ComposeService): unknown[] => [svc.image, svc.command, [...(svc.volumes ?? [])].map(String).sort(), svc.healthcheck];
        expect(same(twin), `${name}-2`).toEqual(same(base.services[name]));
        if (original) {
          expect(advertised, `${name}-2`).toBe(original.replace(name, `${name}-2`));
          expect(serving.get(name), `${name}'s certificate names its twin`).toContain(`${name}-2`);
        }
        for (const s of [name, `${name}-2`]) expect((replicated.services[s] as { ulimits?: unknown }).ulimits, s).toEqual({ nofile: { soft: 65536, hard: 65536 } });
      }
      // The twin of core-api starts once the first one applied the bootstrap manifests.
      expect(replicated.services['core-api-2'].depends_on?.['core-api']).toEqual({ condition: 'service_healthy' });
      // Two aggregators as the base one is, but unpublished: the published `aggregator` is the TCP balancer over them.
      const same = (svc: ComposeService): unknown[] => [env(svc), svc.image, svc.command, [...(svc.volumes ?? [])].map(String).sort(), svc.healthcheck];
      for (const twin of ['aggregator-1', 'aggregator-2']) {
        expect(same(replicated.services[twin]), twin).toEqual(same(base.services.aggregator));
        expect(replicated.services[twin].ports, twin).toBeUndefined();
        expect(replicated.services.aggregator.depends_on?.[twin], twin).toEqual({ condition: 'service_healthy' });
      }
      expect(replicated.services.aggregator.command).toEqual(['node', 'dist/scripts/tcp-balancer.js', '--listen=0.0.0.0:6443', '--backend=aggregator-1:6443', '--backend=aggregator-2:6443']);
      expect(replicated.services.aggregator.ports).toEqual(base.services.aggregator.ports);
      expect(read('Dockerfile')).toContain('/src/dist/scripts/tcp-balancer.js');
      // The default stack stays as it was: no twins.
      expect(Object.keys(base.services).filter((s) => s.endsWith('-2'))).toEqual([]);
    });

    it('switches encryption at rest off with the override docs/deployment.md shows (KUBE_ENCRYPTION_PROVIDER_CONFIG empty)', () => {
      const override = join(tempDir('compose-override'), 'docker-compose.override.yml');
      writeFileSync(override, 'services:\n  core-api:\n    environment:\n      KUBE_ENCRYPTION_PROVIDER_CONFIG: ""\n');
      expect(read('docs/deployment.md')).toContain('KUBE_ENCRYPTION_PROVIDER_CONFIG: ""');
      const on = parse(composeConfig().stdout) as Compose;
      expect(env(on.services['core-api']).KUBE_ENCRYPTION_PROVIDER_CONFIG).toBe('/pki/encryption-config.yaml');
      const r = composeConfig(override);
      expect(r.code, r.stderr).toBe(0);
      // An empty value is "no encryption" for the servers (libs/apiserver encryptionFromEnv).
      expect(env((parse(r.stdout) as Compose).services['core-api']).KUBE_ENCRYPTION_PROVIDER_CONFIG).toBe('');
    });

    it('honours KUBE_AUTHENTICATION_CONFIG: the file mounted read-only at its path and named in the front door and core-api only', () => {
      const path = join(tempDir('compose-authn'), 'authentication-config.yaml');
      const r = spawnSync('docker-compose', ['-f', join(ROOT, 'docker-compose.yml'), 'config'], { cwd: ROOT, encoding: 'utf8', timeout: 15_000, env: { ...process.env, KUBE_AUTHENTICATION_CONFIG: path } });
      expect(r.status, r.stderr).toBe(0);
      const rendered = parse(r.stdout) as Compose;
      for (const [name, s] of Object.entries(rendered.services)) {
        const wanted = name === 'aggregator' || name === 'core-api';
        expect(env(s).KUBE_AUTHENTICATION_CONFIG, name).toBe(wanted ? path : undefined);
        const mount = (s.volumes ?? []).map((v) => (typeof v === 'string' ? v : `${v.source}:${v.target}:${(v as { read_only?: boolean }).read_only ? 'ro' : 'rw'}`)).find((v) => v.startsWith(`${path}:`));
        expect(mount, name).toBe(wanted ? `${path}:${path}:ro` : undefined);
      }
      // Unset: the servers get an empty value (no authentication configuration).
      expect(env((parse(composeConfig().stdout) as Compose).services.aggregator).KUBE_AUTHENTICATION_CONFIG).toBe('');
    });
  }

  let compose: Compose;
  beforeAll(() => {
    compose = raw();
  });

  it('gives every long-running service an exec-form healthcheck with a start period', () => {
    for (const name of [...INFRA, ...API_SERVICES]) {
      const hc = compose.services[name].healthcheck;
      expect(hc, `${name} healthcheck`).toBeDefined();
      expect(hc?.test[0], `${name}: exec form`).toBe('CMD');
      expect(hc?.interval, name).toBeTruthy();
      expect(hc?.start_period, name).toBeTruthy();
    }
    expect(compose.services.etcd.healthcheck?.test).toEqual(expect.arrayContaining(['etcdctl', 'endpoint', 'health']));
    expect(compose.services.nats.healthcheck?.test.join(' ')).toMatch(/http:\/\/127\.0\.0\.1:8222\/healthz$/);
  });

  it('runs etcd with auto-compaction and NATS with JetStream and monitoring on its own loopback only', () => {
    const etcd = compose.services.etcd.command?.join(' ') ?? '';
    expect(etcd).toMatch(/--auto-compaction-mode=\w+/);
    expect(etcd).toMatch(/--auto-compaction-retention=\S+/);
    // kubeadm's raft snapshot interval: etcd 3.5's default keeps 100,000 entries in memory.
    expect(etcd).toContain('--snapshot-count=10000');
    const nats = compose.services.nats.command ?? [];
    expect(nats).toContain('-js');
    // nats-server asks monitoring clients for no credentials: the pki service's nats.conf binds it to the
    // container's loopback (the healthcheck runs inside), and no flag opens it on every address.
    expect(nats.join(' ')).not.toMatch(/(^| )(-m|-ms|--http_port|--https_port)( |=|$)/);
    expect(compose.services.pki.command).toContain('--nats-monitor=127.0.0.1:8222');
  });

  it('serves etcd to clients over TLS only, with client certificates of its CA, and applies its users and roles before any API server starts', () => {
    const etcd = compose.services.etcd.command ?? [];
    expect(etcd).toEqual(expect.arrayContaining(['--listen-client-urls=https://0.0.0.0:2379', '--advertise-client-urls=https://etcd:2379', '--client-cert-auth', '--trusted-ca-file=/pki/etcd-ca.crt', '--cert-file=/pki/etcd-server.crt', '--key-file=/pki/etcd-server.key']));
    expect(etcd.join(' ')).not.toMatch(/--listen-client-urls=[^ ]*http:\/\//);
    // One member: its peer port only on its own loopback.
    expect(etcd).toContain('--listen-peer-urls=http://127.0.0.1:2380');
    expect(compose.services.etcd.healthcheck?.test).toEqual(expect.arrayContaining(['--endpoints=https://127.0.0.1:2379', '--cacert=/pki/etcd-ca.crt']));
    const auth = compose.services['etcd-auth'];
    expect(auth.command?.slice(0, 2)).toEqual(['node', 'dist/scripts/etcd-auth.js']);
    expect(auth.command).toEqual(expect.arrayContaining(['--endpoints=https://etcd:2379', '--cert=/pki/etcd-client-root.crt', `--aggregated-file=/pki/${ETCD_AGGREGATED_FILE}`]));
    expect(auth.depends_on?.etcd?.condition).toBe('service_healthy');
    for (const name of API_SERVICES) expect(compose.services[name].depends_on?.['etcd-auth']?.condition, name).toBe('service_completed_successfully');
    expect(compose.services.pki.command).toContain('--etcd-san=etcd');
  });

  it('runs NATS with TLS and per-service users (the pki service writes its configuration), and gives each control-plane service its own NATS certificate', () => {
    expect((compose.services.nats.command ?? []).join(' ')).toMatch(/-c \/pki\/nats\.conf\b/);
    expect(compose.services.pki.command).toEqual(expect.arrayContaining(['--nats-config=/pki/nats.conf', '--nats-san=nats']));
    expect(Object.keys(compose.services.nats.depends_on ?? {})).toContain('pki');
    for (const name of ['core-api', 'extensions', 'aggregator']) {
      const e = env(compose.services[name]);
      expect(e.KUBE_NATS_CA_FILE, name).toBe('/pki/nats-ca.crt');
      expect([e.KUBE_NATS_CERT_FILE, e.KUBE_NATS_KEY_FILE], name).toEqual([`/pki/nats-client-${name}.crt`, `/pki/nats-client-${name}.key`]);
    }
  });

  it('probes every API service on its own /readyz over HTTPS, verified against the cluster CA, as an anonymous caller', () => {
    for (const name of API_SERVICES) {
      const s = compose.services[name];
      const test = s.healthcheck?.test ?? [];
      expect(test.slice(1, 3), name).toEqual(['node', 'dist/scripts/healthcheck.js']);
      expect(test, name).toContain('--ca=/pki/ca.crt');
      // No client certificate: a container holds no identity but its own (system:public-info-viewer allows /readyz).
      expect(test.filter((a) => a.startsWith('--cert') || a.startsWith('--key')), name).toEqual([]);
      expect(test.at(-1), name).toBe(`https://127.0.0.1:${env(s).KUBE_SECURE_PORT}/readyz`);
    }
  });

  it('starts each service only when what it needs is healthy (or, for pki, completed)', () => {
    for (const [name, s] of Object.entries(compose.services)) {
      for (const [dep, { condition }] of Object.entries(s.depends_on ?? {})) {
        expect(compose.services[dep], `${name} depends on unknown ${dep}`).toBeDefined();
        expect(condition, `${name} → ${dep}`).toBe((ONE_SHOTS as readonly string[]).includes(dep) ? 'service_completed_successfully' : 'service_healthy');
        if (condition === 'service_healthy') expect(compose.services[dep].healthcheck, `${dep} has a healthcheck`).toBeDefined();
      }
    }
    for (const name of API_SERVICES) {
      // etcd's users and roles are applied before any API server reaches etcd.
      expect(Object.keys(compose.services[name].depends_on ?? {}), name).toEqual(expect.arrayContaining(['etcd', 'etcd-auth', 'nats', 'pki']));
    }
    expect(Object.keys(compose.services.aggregator.depends_on ?? {})).toEqual(expect.arrayContaining(['core-api', 'extensions']));
    // Aggregated servers register their APIService through the aggregator.
    for (const name of API_SERVICES.filter((n) => env(compose.services[n]).KUBE_REGISTER_URL)) {
      expect(Object.keys(compose.services[name].depends_on ?? {}), name).toContain('aggregator');
    }
    expect(API_SERVICES).toEqual(expect.arrayContaining(['core-api', 'extensions', 'aggregator', 'sample-apiserver', 'counts-apiserver']));
  });

  it('sets only environment variables the apps read', () => {
    const known = sourceEnvNames();
    for (const name of API_SERVICES) {
      for (const key of Object.keys(env(compose.services[name]))) expect(known.has(key), `${name}: ${key} is read nowhere in apps/, libs/, scripts/`).toBe(true);
    }
  });

  it('gives each API service the settings it cannot start without', () => {
    for (const name of API_SERVICES) {
      const e = env(compose.services[name]);
      for (const key of ['KUBE_ETCD_ENDPOINTS', 'KUBE_NATS_URL', 'KUBE_SECURE_PORT', 'KUBE_TLS_CERT_FILE', 'KUBE_TLS_PRIVATE_KEY_FILE']) {
        expect(e[key], `${name}: ${key}`).toBeTruthy();
      }
      // Inside a container, loopback would be unreachable for the other services.
      expect(e.KUBE_BIND_ADDRESS, name).toBe('0.0.0.0');
      // etcd over TLS only, as its own etcd user.
      expect(e.KUBE_ETCD_ENDPOINTS, name).toBe('https://etcd:2379');
      expect([e.KUBE_ETCD_CAFILE, e.KUBE_ETCD_CERTFILE, e.KUBE_ETCD_KEYFILE], name).toEqual(['/pki/etcd-ca.crt', ...Object.values(etcdClientPaths({ dir: '/pki' }, name))]);
      expect(e.KUBE_NATS_URL, name).toBe('nats://nats:4222');
    }
    const agg = env(compose.services.aggregator);
    expect(agg.KUBE_PROXY_CLIENT_CERT_FILE && agg.KUBE_PROXY_CLIENT_KEY_FILE).toBeTruthy();
  });

  it('has every server that announces itself over NATS advertise its own service name, not loopback', () => {
    // libs/apiserver registration.announce: the announced endpoint's host is KUBE_ADVERTISE_ADDRESS's, else
    // 127.0.0.1 for a server bound to 0.0.0.0, which in a container is unreachable for the aggregator.
    // Servers that register through the aggregator (KUBE_REGISTER_URL) do not announce.
    const announcing = API_SERVICES.filter((n) => n !== 'aggregator' && env(compose.services[n]).KUBE_NATS_URL && !env(compose.services[n]).KUBE_REGISTER_URL);
    expect(announcing).toEqual(expect.arrayContaining(['core-api', 'extensions']));
    for (const name of announcing) {
      const e = env(compose.services[name]);
      expect(e.KUBE_ADVERTISE_ADDRESS, name).toBe(`${name}:${e.KUBE_SECURE_PORT}`);
    }
  });

  it('uses the ports of `npm start` and points every URL at the right service and port', () => {
    const ports = Object.fromEntries(API_SERVICES.map((n) => [n, env(compose.services[n]).KUBE_SECURE_PORT]));
    // scripts/start.ts API_SERVICES: { name: 'core-api', …, defaultPort: 6444 }; a service npm start does not
    // run keeps the default port of its main.ts (`defaultPort: 6446` / `DEFAULT_PORT = 6446`).
    const started = new Map([...read('scripts/start.ts').matchAll(/name: '([\w-]+)',[^}]*defaultPort: (\d+)/g)].map((m) => [m[1], m[2]]));
    expect(started.size).toBeGreaterThanOrEqual(3);
    for (const name of API_SERVICES) {
      const expected = started.get(name) ?? /(?:defaultPort:|DEFAULT_PORT =)\s*(\d+)/.exec(read(`apps/${name}/src/main.ts`))?.[1];
      expect(ports[name], name).toBe(expected);
    }

    const backends = env(compose.services.aggregator).KUBE_AGGREGATOR_BACKENDS.split(',').map((entry) => entry.split('='));
    expect(backends.map(([name]) => name).sort()).toEqual(['core-api', 'extensions']);
    for (const [name, url] of backends) expect(url).toBe(`https://${name}:${ports[name]}`);
    expect(env(compose.services['sample-apiserver']).KUBE_REGISTER_URL).toBe(`https://aggregator:${ports.aggregator}`);
  });

  it('publishes only the aggregator, on its secure port, and the kubeconfig names that port', () => {
    for (const [name, s] of Object.entries(compose.services)) if (name !== 'aggregator') expect(s.ports, name).toBeUndefined();
    const published = compose.services.aggregator.ports ?? [];
    expect(published).toHaveLength(1);
    const [hostIp, hostPort, containerPort] = String(published[0]).split(':');
    expect(hostIp).toBe('127.0.0.1');
    expect(hostPort).toBe('6443');
    expect(containerPort).toBe(env(compose.services.aggregator).KUBE_SECURE_PORT);
    expect(compose.services.pki.command).toContain(`--server=https://127.0.0.1:${hostPort}`);
  });

  it('names in each service only /pki files of its own bundle, and bundles only files the pki one-shot writes', () => {
    const written = new Set(Object.values(pkiPaths('/pki')).filter((p) => p !== '/pki').map((p) => basename(p)));
    // The NATS client certificates ensurePki issues for the control plane, the serving certificates, and the pki service's nats.conf.
    for (const { name } of CONTROL_PLANE_REGISTRATION_IDENTITIES) for (const p of Object.values(natsClientPaths({ dir: '/pki' }, name))) written.add(basename(p));
    for (const name of pkiLists(compose.services.pki, 'serving').keys()) for (const p of Object.values(servingCertPaths({ dir: '/pki' }, name))) written.add(basename(p));
    for (const arg of compose.services.pki.command ?? []) if (arg.startsWith('--nats-config=/pki/')) written.add(basename(arg));
    // The aggregated servers' own client certificates, and their RBAC for core-api.
    for (const name of aggregatedIdentities(compose.services.pki)) for (const p of Object.values(clientCertPaths({ dir: '/pki' }, name))) written.add(basename(p));
    if (aggregatedIdentities(compose.services.pki).length) written.add('aggregated-apiservers.yaml');
    // etcd client certificates: root's, the control plane's and each aggregated server's; the aggregated servers' list for etcd-auth.
    for (const name of [ETCD_ROOT_CLIENT, ...CONTROL_PLANE_ETCD_CLIENTS, ...aggregatedIdentities(compose.services.pki)]) for (const p of Object.values(etcdClientPaths({ dir: '/pki' }, name))) written.add(basename(p));
    written.add(ETCD_AGGREGATED_FILE);
    if (compose.services.pki.command?.includes('--encryption-config')) written.add(ENCRYPTION_CONFIG_FILE);
    const bundles = pkiLists(compose.services.pki, 'bundle');
    for (const [service, files] of bundles) for (const file of files) expect(written.has(file), `${service}: ${file} is not a file the pki one-shot writes`).toBe(true);
    for (const [name, s] of Object.entries(compose.services)) {
      if (name === 'pki') continue;
      const text = JSON.stringify([s.environment, s.healthcheck, s.command]);
      const named = [...text.matchAll(/\/pki\/([\w.-]+)/g)].map((m) => m[1]);
      if (named.length) expect(volumeTargets(s).get('/pki'), `${name} mounts its PKI volume`).toBe(`pki-${name}`);
      for (const file of named) expect(bundles.get(name), `${name}: /pki/${file} is not in its bundle`).toContain(file);
    }
    // What a service is given and never uses is a privilege too: every key in a bundle is named by its service.
    for (const [name, files] of bundles) {
      const s = compose.services[name];
      const text = name === 'nats' ? read('libs/registration/src/registration.nats-auth.ts') + JSON.stringify(s.command) : JSON.stringify([s.environment, s.healthcheck, s.command]);
      for (const key of files.filter((f) => f.endsWith('.key'))) if (name !== 'nats') expect(text, `${name} holds ${key} without using it`).toContain(`/pki/${key}`);
    }
    // The one-shot writes the PKI and the bundles, read-write; the kubeconfig lands in a host folder.
    expect(compose.services.pki.volumes).toContain('pki:/pki');
    expect(volumeTargets(compose.services.pki).get('/out')).toBe('./.local/compose');
    expect(compose.services.pki.command).toContain('--kubeconfig=/out/kubeconfig');
    // Every named volume used is declared.
    const declared = new Set(Object.keys(compose.volumes ?? {}));
    for (const s of Object.values(compose.services)) {
      for (const source of volumeTargets(s).values()) if (!source.startsWith('.') && !source.startsWith('/')) expect(declared.has(source), source).toBe(true);
    }
  });

  it('encrypts Secrets at rest by default: the pki one-shot writes the key, core-api alone holds it and reads it', () => {
    expect(compose.services.pki.command).toContain('--encryption-config');
    const holders = [...pkiLists(compose.services.pki, 'bundle')].filter(([, files]) => files.includes(ENCRYPTION_CONFIG_FILE)).map(([service]) => service);
    expect(holders).toEqual(['core-api']);
    for (const [name, s] of Object.entries(compose.services)) {
      const path = env(s).KUBE_ENCRYPTION_PROVIDER_CONFIG;
      expect(path, name).toBe(name === 'core-api' ? `/pki/${ENCRYPTION_CONFIG_FILE}` : undefined);
    }
    expect(volumeTargets(compose.services['core-api']).get('/pki')).toBe('pki-core-api');
  });

  it('gives each service a serving certificate of its own, for every name the others reach it by', () => {
    const serving = pkiLists(compose.services.pki, 'serving');
    for (const name of [...API_SERVICES, 'controller-manager']) {
      const e = env(compose.services[name]);
      expect([e.KUBE_TLS_CERT_FILE, e.KUBE_TLS_PRIVATE_KEY_FILE], name).toEqual(Object.values(servingCertPaths({ dir: '/pki' }, name)));
      expect(serving.get(name), name).toContain(name);
    }
    const urls = [...API_SERVICES, 'controller-manager'].flatMap((n) => Object.values(env(compose.services[n]))).join(',');
    for (const m of urls.matchAll(/https:\/\/([\w.-]+):\d+/g)) {
      // etcd's serving certificate comes from the etcd CA, for the names of --etcd-san.
      if (m[1] === 'etcd') expect(compose.services.pki.command, 'etcd has a serving certificate for its name').toContain(`--etcd-san=${m[1]}`);
      else expect(serving.get(m[1]), `${m[1]} has a serving certificate for its name`).toContain(m[1]);
    }
    // The aggregator verifies an APIService's server as <service>.<namespace>.svc (the sample's is kube-system/wardle-server).
    expect(serving.get('sample-apiserver')).toContain('wardle-server.kube-system.svc');
    expect(serving.get('counts-apiserver')).toContain('counts-apiserver.kube-system.svc');
  });

  it('runs entry points that exist, from one image', () => {
    const images = new Set(Object.entries(compose.services).filter(([n]) => !(INFRA as readonly string[]).includes(n)).map(([, s]) => s.image));
    expect(images.size).toBe(1);
    for (const s of Object.values(compose.services)) {
      for (const arg of [...(s.command ?? []), ...(s.healthcheck?.test ?? [])].join(' ').matchAll(/dist\/([\w/.-]+)\.js/g)) {
        expect(existsSync(join(ROOT, `${arg[1]}.ts`)), `${arg[0]} is built from ${arg[1]}.ts`).toBe(true);
      }
    }
  });
});

describe('Dockerfile and .dockerignore', () => {
  const dockerfile = read('Dockerfile');
  const ignored = read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

  it('builds in one stage and runs from a slim one as a non-root user', () => {
    const stages = [...dockerfile.matchAll(/^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/gim)];
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runtime).toMatch(/^USER\s+(?!0\b|root\b)\S+/m);
    expect(runtime).toMatch(/^CMD \["node", "dist\/apps\/[\w-]+\/src\/main\.js"\]/m);
    expect(runtime).toMatch(/--omit=dev|prod-deps/);
    expect(dockerfile).toMatch(/npm ci[^\n]*\|\| npm install/);
    expect(dockerfile).toMatch(/RUN npm run build/);
  });

  it('installs with the npm_ca build secret, pulls no Dockerfile frontend, and runs on BASE_IMAGE with only node from NODE_IMAGE', () => {
    // A `# syntax=` line makes BuildKit pull the frontend image: impossible without a registry.
    expect(dockerfile).not.toMatch(/^#\s*syntax=/m);
    const installs = [...dockerfile.matchAll(/^RUN (--mount=\S+\s+)+[^\n]*\\\n[^\n]*\\\n[^\n]*npm (ci|install)/gm)];
    expect(installs).toHaveLength(2);
    for (const [run] of installs) expect(run).toMatch(/--mount=type=secret,id=npm_ca\b[\s\S]*NODE_EXTRA_CA_CERTS=\/run\/secrets\/npm_ca/);
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runtime).toMatch(/^\nFROM \$\{BASE_IMAGE\} AS runtime/);
    expect(runtime).toContain('COPY --from=build /usr/local/bin/node /usr/local/bin/node');
    expect(runtime).not.toMatch(/npm /);
  });

  it('copies only paths that exist and that .dockerignore lets through', () => {
    for (const m of dockerfile.matchAll(/^COPY\s+(?!--from)(?:--\S+\s+)*(.+)\s+\S+$/gm)) {
      for (const src of m[1].trim().split(/\s+/)) {
        expect(existsSync(join(ROOT, src)), `COPY ${src}`).toBe(true);
        expect(ignored.includes(src), `${src} is in .dockerignore`).toBe(false);
      }
    }
    for (const path of ['node_modules', 'dist', '.local', '.git']) expect(ignored).toContain(path);
  });
});
