/**
 * Issue 26 items 4 and 10, and docs/security.md kept true: which process holds which credential (private keys and
 * tokens) in each deployment — the launcher's environments (scripts/start.ts), docker-compose.yml's volumes, the
 * rendered Helm chart's mounted Secrets — is exactly the doc's table, and the rules the doc states hold: the static
 * token file only at the front door, no aggregated server with an admin credential or a control-plane key, CA keys
 * only where they sign, serving certificates that are not client certificates, NATS monitoring out of reach.
 */
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { clientCertPaths, ensurePki, pkiPaths, servingCertPaths } from '@kube/pki';
import { CONTROL_PLANE_REGISTRATION_IDENTITIES } from '@kube/registration';
import { locateHelm, tempDir } from '@kube/testing';
import { launcherEnvironments, natsConfigFor, prepareLocalDir } from '../../scripts/start';
import { CHART, ROOT, read } from './deploy.helpers';

const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';

/** process → credential → how it is given (env variable, file), as docs/security.md's table of a deployment says. */
type Holdings = Map<string, Map<string, string>>;

function hold(h: Holdings, process: string, credential: string, how: string): void {
  const own = h.get(process) ?? new Map<string, string>();
  own.set(credential, own.has(credential) && own.get(credential) !== how ? `${own.get(credential)}, ${how}` : how);
  h.set(process, own);
}

function pairs(h: Holdings, only?: ReadonlySet<string>): string[] {
  return [...h].filter(([p]) => !only || only.has(p)).flatMap(([p, creds]) => [...creds.keys()].map((c) => `${p}: ${c}`)).sort();
}

/** The table under `### Who holds which credential: <deployment>` in docs/security.md. */
function documented(deployment: string): Holdings {
  const lines = read('docs/security.md').split('\n');
  const start = lines.findIndex((l) => l.trim() === `### Who holds which credential: ${deployment}`);
  expect(start, `docs/security.md has "### Who holds which credential: ${deployment}"`).toBeGreaterThanOrEqual(0);
  const rows = [];
  let i = start + 1;
  while (i < lines.length && !lines[i].startsWith('|')) i++;
  for (; i < lines.length && lines[i].startsWith('|'); i++) rows.push(lines[i]);
  const cells = (row: string): string[] => row.slice(1, row.lastIndexOf('|')).split('|').map((c) => c.trim().replace(/`/g, ''));
  expect(cells(rows[0]).slice(0, 3)).toEqual(['process', 'credential', 'given as']);
  const h: Holdings = new Map();
  for (const row of rows.slice(2)) {
    const [process, credential, how] = cells(row);
    if (credential && credential !== '—') hold(h, process, credential, how);
    else h.set(process, h.get(process) ?? new Map());
  }
  return h;
}

// ---- npm start ---------------------------------------------------------------------------------------------

const LOCAL = '/nonexistent/.local';
const LOCAL_PKI = pkiPaths(join(LOCAL, 'pki'));
const isSecret = (file: string): boolean => /\.key$|tokens\.csv$|encryption-config\.yaml$/.test(file);

/** What the launcher hands each process: secret files named in its environment, nats-server's in nats.conf. */
function launcherHoldings(): Holdings {
  const h: Holdings = new Map();
  for (const [process, env] of Object.entries(launcherEnvironments(LOCAL_PKI))) {
    h.set(process, new Map());
    for (const [name, value] of Object.entries(env)) if (value.startsWith(`${LOCAL}/`) && isSecret(value)) hold(h, process, basename(value), name);
  }
  const nats = JSON.parse(natsConfigFor({ nats: 4222 }, LOCAL_PKI, LOCAL)) as { tls: { key_file: string } };
  hold(h, 'nats', basename(nats.tls.key_file), 'nats.conf');
  return h;
}

// ---- docker-compose ----------------------------------------------------------------------------------------

interface ComposeService {
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
}

/** What each container mounts: its pki-<bundle> volume, whose files the pki one-shot's --bundle lists. */
function composeHoldings(): Holdings {
  const compose = parse(read('docker-compose.yml')) as { services: Record<string, ComposeService> };
  const pki = compose.services.pki.command ?? [];
  const bundles = new Map(pki.filter((a) => a.startsWith('--bundle=')).map((a) => {
    const [bundle, files] = a.slice('--bundle='.length).split('=');
    return [bundle, files.split(',')] as const;
  }));
  const h: Holdings = new Map();
  for (const [name, service] of Object.entries(compose.services)) {
    if (name === 'pki') continue; // the one-shot that creates the PKI holds all of it, and exits
    h.set(name, new Map());
    for (const volume of service.volumes ?? []) {
      const [source, target] = volume.split(':');
      if (!source.startsWith('pki-')) continue;
      for (const file of bundles.get(source.slice('pki-'.length)) ?? []) {
        if (!isSecret(file)) continue;
        const env = Object.entries(service.environment ?? {}).filter(([, v]) => v === `${target}/${file}`).map(([k]) => k);
        hold(h, name, file, env.join(', ') || 'volume');
      }
    }
  }
  return h;
}

// ---- Helm ----------------------------------------------------------------------------------------------------

type Obj = { kind: string; metadata: { name: string }; spec?: any; data?: Record<string, string> };
const located = locateHelm(join(ROOT, '.local', 'tools'));
const PREFIX = 'kts-kube-ts-';

function render(...args: string[]): Obj[] {
  const rendered = spawnSync(located.path as string, ['template', 'kts', CHART, '-n', 'kube-ts', ...args], { encoding: 'utf8' });
  expect(rendered.status, rendered.stderr).toBe(0);
  return parseAllDocuments(rendered.stdout).map((d) => d.toJS() as Obj | null).filter((d): d is Obj => d !== null);
}

const workloads = (docs: Obj[]): Obj[] => docs.filter((d) => d.kind === 'Deployment' || d.kind === 'StatefulSet');
const short = (name: string): string => name.replace(PREFIX, '');
const isSecretKey = (key: string): boolean => /(^|\.)key$|tokens\.csv$|-token$|^encryption-config\.yaml$/.test(key);
type Container = { env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>; volumeMounts?: Array<{ name: string; mountPath: string }> };

/** Each workload's secret keys: those of the Secret volumes it mounts (the items listed, else all) and secretKeyRefs. */
function helmHoldings(docs: Obj[]): Holdings {
  const secrets = new Map(docs.filter((d) => d.kind === 'Secret').map((d) => [d.metadata.name, Object.keys(d.data ?? {})]));
  const h: Holdings = new Map();
  for (const w of workloads(docs)) {
    const process = short(w.metadata.name);
    h.set(process, new Map());
    const pod = w.spec.template.spec as { containers: Container[]; volumes?: Array<{ name: string; secret?: { secretName: string; items?: Array<{ key: string; path: string }> } }> };
    for (const container of pod.containers) {
      const env = container.env ?? [];
      for (const v of pod.volumes ?? []) {
        if (!v.secret) continue;
        const mount = container.volumeMounts?.find((m) => m.name === v.name)?.mountPath;
        if (!mount) continue;
        const keys = v.secret.items?.map((i) => [i.key, i.path] as const) ?? (secrets.get(v.secret.secretName) ?? []).map((k) => [k, k] as const);
        for (const [key, path] of keys) {
          if (!isSecretKey(key)) continue;
          const named = env.filter((e) => e.value === `${mount}/${path}`).map((e) => e.name);
          hold(h, process, `${short(v.secret.secretName)}/${key}`, named.join(', ') || 'volume');
        }
      }
      for (const e of env) if (e.valueFrom?.secretKeyRef) hold(h, process, `${short(e.valueFrom.secretKeyRef.name)}/${e.valueFrom.secretKeyRef.key}`, e.name);
    }
  }
  return h;
}

// ---- the checks --------------------------------------------------------------------------------------------

const AGGREGATED = ['sample-apiserver', 'counts-apiserver'];

/**
 * An aggregated server (third-party code) holds its own serving and client keys and its own etcd identity
 * (etcd-client-<server>…, whose etcd role covers only its prefixes), nothing else.
 */
function expectOnlyOwnKeys(h: Holdings, own: (server: string) => string[]): void {
  for (const server of AGGREGATED) {
    expect(h.has(server), server).toBe(true);
    for (const credential of h.get(server)?.keys() ?? []) {
      if (credential.startsWith(`etcd-client-${server}.`) || credential.startsWith(`etcd-client-${server}/`)) continue;
      expect(own(server), `${server} holds ${credential}`).toContain(credential);
    }
  }
}

describe('docs/security.md: npm start', () => {
  it('lists exactly the credentials the launcher gives each process', () => {
    const actual = launcherHoldings();
    expect(pairs(documented('npm start'), new Set(actual.keys()))).toEqual(pairs(actual));
    for (const [process, creds] of actual) for (const [credential, how] of creds) expect(documented('npm start').get(process)?.get(credential), `${process} ${credential}`).toBe(how);
  });

  it('gives no aggregated server an admin credential, a CA key or another process\'s key', () => {
    expectOnlyOwnKeys(launcherHoldings(), (s) => [basename(servingCertPaths(LOCAL_PKI, s).key), basename(clientCertPaths(LOCAL_PKI, s).key)]);
    const caKeys = [...launcherHoldings()].filter(([, c]) => [...c.keys()].some((k) => /ca\.key$/.test(k))).map(([p]) => p);
    expect(caKeys).toEqual(['controller-manager']);
  });

  it('issues serving certificates for server auth only and client certificates for client auth only', async () => {
    const dir = join(tempDir('credentials-pki'), 'pki');
    const pki = await ensurePki(dir, { servingCertificates: { 'core-api': [], 'sample-apiserver': ['wardle-server.kube-system.svc'] }, clientCertificates: { 'sample-apiserver': { user: 'system:kube-ts:sample-apiserver' } } });
    const usages = (path: string): string[] => new X509Certificate(readFileSync(path)).keyUsage ?? [];
    for (const serving of [pki.apiserverCert, servingCertPaths(pki, 'core-api').cert, servingCertPaths(pki, 'sample-apiserver').cert]) expect(usages(serving), serving).toEqual([SERVER_AUTH]);
    for (const client of [pki.adminCert, pki.controllerManagerCert, pki.frontProxyClientCert, clientCertPaths(pki, 'sample-apiserver').cert]) expect(usages(client), client).toEqual([CLIENT_AUTH]);
    // And no process presents a serving certificate as its client certificate.
    for (const [process, env] of Object.entries(launcherEnvironments(LOCAL_PKI))) {
      for (const [name, value] of Object.entries(env)) if (/CLIENT_CERT_FILE$|REGISTER_CERT_FILE$|NATS_CERT_FILE$/.test(name)) expect(basename(value), `${process} ${name}`).not.toMatch(/^serving-|^apiserver\.crt$/);
    }
  });

  it('runs nats-server without its monitoring listener (it asks for no credentials and loopback is every local process\'s)', () => {
    const config = JSON.parse(natsConfigFor({ nats: 4222 }, LOCAL_PKI, LOCAL)) as Record<string, unknown>;
    for (const key of ['http', 'https', 'http_port', 'https_port', 'monitor_port']) expect(config, key).not.toHaveProperty(key);
  });

  it('keeps .local owner-only (0700), also when an older version created it 0755', async () => {
    const { chmodSync, mkdirSync, statSync } = await import('node:fs');
    const dir = join(tempDir('local-mode'), '.local');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    await prepareLocalDir(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const fresh = join(tempDir('local-mode'), 'fresh', '.local');
    await prepareLocalDir(fresh);
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
  });
});

describe('docs/security.md: docker-compose', () => {
  it('lists exactly the credentials each container mounts', () => {
    const actual = composeHoldings();
    const doc = documented('docker-compose');
    expect(pairs(doc, new Set(actual.keys()))).toEqual(pairs(actual));
    for (const [process, creds] of actual) for (const [credential, how] of creds) expect(doc.get(process)?.get(credential), `${process} ${credential}`).toBe(how);
  });

  it('gives no aggregated server an admin credential, a CA key or another container\'s key', () => {
    expectOnlyOwnKeys(composeHoldings(), (s) => [`serving-${s}.key`, `client-${s}.key`]);
  });

  it('keeps NATS monitoring on the nats container\'s loopback', () => {
    const compose = parse(read('docker-compose.yml')) as { services: Record<string, ComposeService> };
    expect(compose.services.pki.command).toContain('--nats-monitor=127.0.0.1:8222');
    expect((compose.services.nats.command ?? []).join(' ')).not.toMatch(/(^| )(-m|-ms|--http_port|--https_port)( |=|$)/);
  });
});

describe.skipIf(!located.path)(`docs/security.md: Helm (the rendered chart) ${located.reason ?? ''}`, () => {
  let docs: Obj[];
  beforeAll(() => {
    docs = render('--set', 'pki.mode=generate', '--set', 'metrics.serviceMonitor.enabled=true');
  });

  it('lists exactly the credentials each workload mounts (default values, metrics.serviceMonitor.enabled=true)', () => {
    const actual = helmHoldings(docs);
    const doc = documented('Helm');
    expect(pairs(doc, new Set(actual.keys()))).toEqual(pairs(actual));
    for (const [process, creds] of actual) for (const [credential, how] of creds) expect(doc.get(process)?.get(credential), `${process} ${credential}`).toBe(how);
  });

  it('mounts the static token file (the admin token) only at the front door, and no token at an aggregated server', () => {
    for (const values of [[], ['--set', 'metrics.serviceMonitor.enabled=true']]) {
      const h = helmHoldings(render(...values));
      const tokens = [...h].filter(([, c]) => c.has('tokens/tokens.csv')).map(([p]) => p);
      expect(tokens).toEqual(['aggregator']);
      expectOnlyOwnKeys(h, (s) => [`${s}-serving/tls.key`, `${s}-client/tls.key`]);
    }
  });

  it('gives CA keys to the controller-manager only, the service-account signing key to core-api only', () => {
    const h = helmHoldings(docs);
    const holders = (credential: RegExp): string[] => [...h].filter(([, c]) => [...c.keys()].some((k) => credential.test(k))).map(([p]) => p).sort();
    expect(holders(/(^|-)ca\/tls\.key$/)).toEqual(['controller-manager']);
    expect(holders(/^service-account-key\/sa\.key$/)).toEqual(['core-api']);
  });

  it('issues serving certificates from a CA no server accepts client certificates of, and client certificates from the client CA', () => {
    const secret = (name: string): Record<string, string> => Object.fromEntries(Object.entries(docs.find((d) => d.kind === 'Secret' && d.metadata.name === `${PREFIX}${name}`)?.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));
    const cert = (name: string): X509Certificate => new X509Certificate(secret(name)['tls.crt']);
    const [ca, clientCa] = [cert('ca'), cert('client-ca')];
    expect(ca.fingerprint256).not.toBe(clientCa.fingerprint256);
    const servingSecrets = docs.filter((d) => d.kind === 'Secret' && d.metadata.name.endsWith('-serving')).map((d) => short(d.metadata.name));
    expect(servingSecrets.sort()).toEqual(['aggregator-serving', 'controller-manager-serving', 'core-api-serving', 'counts-apiserver-serving', 'extensions-serving', 'sample-apiserver-serving']);
    for (const name of servingSecrets) expect(cert(name).checkIssued(ca), name).toBe(true);
    for (const name of ['controller-manager-client', 'sample-apiserver-client', 'counts-apiserver-client']) expect(cert(name).checkIssued(clientCa), name).toBe(true);
    // Every API server accepts client certificates of the client CA only; nobody presents its serving certificate.
    for (const w of workloads(docs)) {
      const container = w.spec.template.spec.containers[0] as Container;
      const env = Object.fromEntries((container.env ?? []).map((e) => [e.name, e.value ?? '']));
      const mountOf = (path: string): string | undefined => container.volumeMounts?.find((m) => path.startsWith(`${m.mountPath}/`))?.name;
      const volume = (name?: string): string | undefined => (w.spec.template.spec.volumes as Array<{ name: string; secret?: { secretName: string } }>).find((v) => v.name === name)?.secret?.secretName;
      if (env.KUBE_REQUESTHEADER_CLIENT_CA_FILE) expect(volume(mountOf(env.KUBE_CLIENT_CA_FILE)), w.metadata.name).toBe(`${PREFIX}client-ca`);
      for (const name of ['KUBE_REGISTER_CERT_FILE', 'KUBE_CLIENT_CERT_FILE', 'KUBE_PROXY_CLIENT_CERT_FILE']) {
        if (env[name]) expect(volume(mountOf(env[name])), `${w.metadata.name} ${name}`).not.toMatch(/-serving$/);
      }
    }
  });

  it('with cert-manager: serving Certificates for server auth only, client Certificates for client auth only', () => {
    const certificates = render('--set', 'pki.mode=certManager').filter((d) => d.kind === 'Certificate' && !d.spec.isCA);
    expect(certificates.length).toBeGreaterThan(8);
    for (const c of certificates) {
      const usages = c.spec.usages as string[];
      // Both only where a server is its peers' client too: NATS routes, etcd members.
      const peer = /-(nats|etcd)-(server|peer)$/.test(c.metadata.name);
      if (!peer) expect(usages.includes('server auth') && usages.includes('client auth'), `${c.metadata.name}: ${usages.join(', ')}`).toBe(false);
      if (c.metadata.name.endsWith('-serving')) expect(usages, c.metadata.name).not.toContain('client auth');
      if (c.metadata.name.endsWith('-client')) expect(usages, c.metadata.name).not.toContain('server auth');
    }
  });

  it('keeps NATS monitoring on the pod\'s loopback: not a container port, a Service port or a NetworkPolicy port', () => {
    const config = JSON.parse(docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === `${PREFIX}nats-config`)?.data?.['nats.conf'] ?? '{}') as Record<string, unknown>;
    expect(config.http).toBe('127.0.0.1:8222');
    const nats = workloads(docs).find((w) => w.metadata.name === `${PREFIX}nats`);
    expect(JSON.stringify(nats?.spec.template.spec.containers[0].ports)).not.toContain('8222');
    expect(JSON.stringify(nats?.spec.template.spec.containers[0].args)).not.toMatch(/http_port|https_port/);
    expect(JSON.stringify(docs.find((d) => d.kind === 'Service' && d.metadata.name === `${PREFIX}nats`)?.spec.ports)).not.toContain('8222');
    expect(JSON.stringify(docs.filter((d) => d.kind === 'NetworkPolicy'))).not.toContain('8222');
  });
});

// The NATS identities the doc's tables name are the control plane's.
it('names the control plane\'s NATS identities', () => {
  for (const { name } of CONTROL_PLANE_REGISTRATION_IDENTITIES) expect(read('docs/security.md')).toContain(`nats-client-${name}`);
});
