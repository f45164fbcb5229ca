import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamicModule } from '@nestjs/common';
import type { ResourceDefinition, ServerConfig } from '@kube/apiserver';
import { main, parseRequest, scaffoldApiServer, scaffoldNames, ScaffoldError, validateRequest, type ScaffoldRequest } from './new-apiserver';
import { MARKERS, WIRING_FILES } from './new-apiserver.wiring';

const REPO = resolve(__dirname, '..');
const widgets: ScaffoldRequest = { group: 'widgets.acme.io', version: 'v1', kind: 'Widget', cluster: false };
const policies: ScaffoldRequest = { group: 'policies.acme.io', version: 'v1beta1', kind: 'BackupPolicy', cluster: true };

/** Runs a node script to its end; resolves with its exit code and output. */
function run(args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    child.once('error', reject);
    child.once('close', (code) => resolvePromise({ code: code ?? 1, output: Buffer.concat(chunks).toString() }));
  });
}

describe('new-apiserver argument checks', () => {
  it('accepts DNS-1123 groups with a dot, DNS-1035 versions and UpperCamel kinds', () => {
    expect(validateRequest(widgets)).toEqual([]);
    expect(validateRequest(policies)).toEqual([]);
  });

  it('explains what is wrong with each argument', () => {
    expect(validateRequest({ group: 'widgets', version: 'V1', kind: 'widget', cluster: false })).toEqual([
      `--group "widgets": must contain at least one dot (e.g. widgets.example.com); groups without a dot are Kubernetes' own`,
      `--version "V1": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      `--kind "widget": must be UpperCamelCase, a capital letter then letters and digits, at most 63 characters (e.g. 'Widget', 'BackupPolicy')`,
    ]);
    expect(validateRequest({ ...widgets, group: 'Widgets.Acme.io' })[0]).toMatch(/^--group "Widgets.Acme.io": a lowercase RFC 1123 subdomain must consist of/);
    expect(validateRequest({ ...widgets, group: 'metrics.k8s.io' })).toEqual(['--group "metrics.k8s.io": groups under k8s.io and kubernetes.io are reserved for Kubernetes']);
    expect(validateRequest({ ...widgets, version: '1alpha1', kind: 'My-Kind' })).toHaveLength(2);
  });

  it('parses the command line and names what is missing or unknown', () => {
    expect(parseRequest(['--group', 'widgets.acme.io', '--version', 'v1', '--kind', 'Widget'])).toEqual(widgets);
    expect(parseRequest(['--group=policies.acme.io', '--version=v1beta1', '--kind=BackupPolicy', '--cluster'])).toEqual(policies);
    expect(() => parseRequest(['--group', 'widgets.acme.io'])).toThrow('missing --version, --kind');
    expect(() => parseRequest(['--group', 'a.b', '--version', 'v1', '--kind', 'A', '--scope', 'x'])).toThrow(/Unknown option '--scope'/);
  });

  it('derives the names kube would (plural guess) and valid identifiers', () => {
    expect(scaffoldNames(widgets)).toEqual({
      app: 'widgets-apiserver',
      moduleClass: 'WidgetsApiServerModule',
      kind: 'Widget',
      plural: 'widgets',
      singular: 'widget',
      resourceConst: 'widgetsResource',
      upperSnake: 'WIDGET',
    });
    expect(scaffoldNames(policies)).toMatchObject({ plural: 'backuppolicies', resourceConst: 'backupPoliciesResource', upperSnake: 'BACKUP_POLICY' });
    expect(scaffoldNames({ ...widgets, kind: 'Bus' }).plural).toBe('buses');
    expect(scaffoldNames({ ...widgets, group: 'my-team.example.com' }).moduleClass).toBe('MyTeamApiServerModule');
    expect(scaffoldNames({ ...widgets, group: '1password.example.com' }).moduleClass).toBe('Group1passwordApiServerModule');
  });
});

describe('new-apiserver output', () => {
  // Inside the repository (under the git-ignored .local/) so generated code resolves node_modules and the SDK.
  let root: string;

  beforeAll(async () => {
    const base = join(REPO, '.local', 'tmp');
    mkdirSync(base, { recursive: true });
    root = mkdtempSync(join(base, 'new-apiserver-'));
    // The real launcher, compose file and Helm values, so the wiring edits are made on what we ship.
    for (const file of Object.values(WIRING_FILES)) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      copyFileSync(join(REPO, file), join(root, file));
    }
    await scaffoldApiServer(widgets, { root });
    await scaffoldApiServer(policies, { root });
  });

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('writes the app files', () => {
    expect(readdirSync(join(root, 'apps')).sort()).toEqual(['policies-apiserver', 'widgets-apiserver']);
    expect(readdirSync(join(root, 'apps', 'widgets-apiserver'), { recursive: true }).map(String).sort()).toEqual([
      'src',
      'src/main.ts',
      'src/resources',
      'src/resources/widgets.resource.spec.ts',
      'src/resources/widgets.resource.ts',
      'src/widgets-apiserver.module.ts',
      'test',
      'test/widgets-apiserver.e2e.spec.ts',
    ]);
  });

  it('wires each app into npm start, docker-compose and the Helm values, each on its own port', () => {
    const launcher = readFileSync(join(root, WIRING_FILES.launcher), 'utf8');
    const shipped = readFileSync(join(REPO, WIRING_FILES.launcher), 'utf8');
    const highest = Math.max(...[...shipped.matchAll(/defaultPort:\s*(\d+)/g)].map((m) => Number(m[1])));
    expect(launcher).toContain(`{ name: 'widgets-apiserver', main: 'dist/apps/widgets-apiserver/src/main.js', portEnv: 'KUBE_WIDGETS_APISERVER_PORT', defaultPort: ${highest + 1}, aggregated: true },`);
    expect(launcher).toContain(`{ name: 'policies-apiserver', main: 'dist/apps/policies-apiserver/src/main.js', portEnv: 'KUBE_POLICIES_APISERVER_PORT', defaultPort: ${highest + 2}, aggregated: true },`);
    expect(launcher.indexOf('policies-apiserver')).toBeLessThan(launcher.indexOf(MARKERS.launcher));
    // Its own user's RBAC in the local stacks: a row of the access table, above the marker.
    const access = readFileSync(join(root, WIRING_FILES.access), 'utf8');
    expect(access).toContain("{ component: 'widgets-apiserver', service: 'widgets-apiserver', apiService: 'v1.widgets.acme.io' },");
    expect(access.indexOf('widgets-apiserver')).toBeLessThan(access.indexOf(MARKERS.access));
    expect(readFileSync(join(root, 'apps', 'widgets-apiserver', 'src', 'main.ts'), 'utf8')).toContain(`defaultPort: ${highest + 1},`);

    const compose = parse(readFileSync(join(root, WIRING_FILES.compose), 'utf8'), { merge: true });
    const widgetsService = compose.services['widgets-apiserver'];
    expect(widgetsService.environment).toMatchObject({ KUBE_SECURE_PORT: String(highest + 1), KUBE_REGISTER_URL: 'https://aggregator:6443', KUBE_ETCD_ENDPOINTS: 'https://etcd:2379', KUBE_ETCD_CERTFILE: '/pki/etcd-client-widgets-apiserver.crt' });
    expect(widgetsService.command.join(' ')).toContain('node dist/apps/widgets-apiserver/src/main.js');
    expect(widgetsService.healthcheck.test.at(-1)).toBe(`https://127.0.0.1:${highest + 1}/readyz`);
    expect(compose.services.pki.command).toEqual(expect.arrayContaining(['--serving=widgets-apiserver=widgets-apiserver,widgets-apiserver.kube-system.svc', '--serving=policies-apiserver=policies-apiserver,policies-apiserver.kube-system.svc']));
    // Its own PKI volume, written by the pki one-shot, with its own serving key and no CA key.
    expect(widgetsService.volumes).toEqual(['pki-widgets-apiserver:/pki:ro']);
    expect(widgetsService.environment).toMatchObject({ KUBE_TLS_CERT_FILE: '/pki/serving-widgets-apiserver.crt', KUBE_TLS_PRIVATE_KEY_FILE: '/pki/serving-widgets-apiserver.key' });
    expect(compose.services.pki.volumes).toContain('pki-widgets-apiserver:/bundles/widgets-apiserver');
    const bundle = (compose.services.pki.command as string[]).find((a) => a.startsWith('--bundle=widgets-apiserver='));
    expect(bundle).toContain('serving-widgets-apiserver.key');
    expect(bundle).not.toContain('ca.key');
    // Its own client identity, not the admin's.
    expect(bundle).toContain('client-widgets-apiserver.key');
    expect(bundle).not.toContain('admin.key');
    expect(compose.services.pki.command).toContain('--aggregated=widgets-apiserver');
    expect(widgetsService.environment).toMatchObject({ KUBE_REGISTER_CERT_FILE: '/pki/client-widgets-apiserver.crt', KUBE_REGISTER_KEY_FILE: '/pki/client-widgets-apiserver.key' });
    expect(Object.keys(compose.volumes)).toContain('pki-widgets-apiserver');
    expect(Object.keys(compose.services).slice(-2)).toEqual(['widgets-apiserver', 'policies-apiserver']);

    const values = parse(readFileSync(join(root, WIRING_FILES.helmValues), 'utf8'));
    expect(values.aggregatedApiservers.slice(-2)).toEqual([
      { name: 'widgets-apiserver', main: 'dist/apps/widgets-apiserver/src/main.js', port: highest + 1, group: 'widgets.acme.io', version: 'v1' },
      { name: 'policies-apiserver', main: 'dist/apps/policies-apiserver/src/main.js', port: highest + 2, group: 'policies.acme.io', version: 'v1beta1' },
    ]);
  });

  it('writes nothing when a wiring file lost its marker', async () => {
    const compose = join(root, WIRING_FILES.compose);
    const launcher = join(root, WIRING_FILES.launcher);
    const [composeBefore, launcherBefore] = [readFileSync(compose, 'utf8'), readFileSync(launcher, 'utf8')];
    writeFileSync(compose, composeBefore.replace(MARKERS.composeServices, ''));
    try {
      await expect(scaffoldApiServer({ group: 'gizmos.acme.io', version: 'v1', kind: 'Gizmo', cluster: false }, { root })).rejects.toThrow(`the line "${MARKERS.composeServices}" is missing`);
      expect(existsSync(join(root, 'apps', 'gizmos-apiserver'))).toBe(false);
      expect(readFileSync(launcher, 'utf8')).toBe(launcherBefore);
    } finally {
      writeFileSync(compose, composeBefore);
    }
  });

  it('refuses to overwrite an existing app, and writes nothing for bad arguments', async () => {
    const resource = join(root, 'apps', 'widgets-apiserver', 'src', 'resources', 'widgets.resource.ts');
    const before = readFileSync(resource, 'utf8');
    await expect(scaffoldApiServer({ ...widgets, kind: 'Gadget' }, { root })).rejects.toThrow(ScaffoldError);
    await expect(scaffoldApiServer({ ...widgets, kind: 'Gadget' }, { root })).rejects.toThrow('widgets-apiserver already exists');
    expect(readFileSync(resource, 'utf8')).toBe(before);
    const error = console.error;
    const errors: string[] = [];
    console.error = (line: string) => errors.push(line);
    try {
      expect(await main(['--group', 'bad', '--version', 'v1', '--kind', 'Thing'], root)).toBe(2);
    } finally {
      console.error = error;
    }
    expect(errors).toEqual([`new-apiserver: --group "bad": must contain at least one dot (e.g. widgets.example.com); groups without a dot are Kubernetes' own`]);
    expect(existsSync(join(root, 'apps', 'bad-apiserver'))).toBe(false);
  });

  it('prints the next steps with the launcher row', async () => {
    const logs: string[] = [];
    const log = console.log;
    console.log = (line: string) => logs.push(line);
    try {
      expect(await main(['--group', 'gadgets.acme.io', '--version', 'v2', '--kind', 'Gadget'], root)).toBe(0);
    } finally {
      console.log = log;
    }
    expect(logs.join('\n')).toMatch(/^Wired in \(port \d+\):\n  scripts\/start.ts\n  scripts\/local-aggregated-servers.ts\n  docker-compose.yml\n  deploy\/helm\/kube-ts\/values.yaml$/m);
    expect(logs.join('\n')).toContain("{ name: 'gadgets-apiserver', main: 'dist/apps/gadgets-apiserver/src/main.js', portEnv: 'KUBE_GADGETS_APISERVER_PORT'");
    expect(logs.join('\n')).toContain('kubectl --kubeconfig .local/kubeconfig get gadgets -A');
    rmSync(join(root, 'apps', 'gadgets-apiserver'), { recursive: true });
  });

  it('generates a working resource and module', async () => {
    const resources = (await import(join(root, 'apps', 'widgets-apiserver', 'src', 'resources', 'widgets.resource.ts'))) as Record<string, ResourceDefinition>;
    const def = resources.widgetsResource;
    expect(def).toMatchObject({ group: 'widgets.acme.io', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });
    expect(def.schema?.name).toBe('io.acme.widgets.v1.Widget');
    expect(def.schema?.components['io.acme.widgets.v1.WidgetSpec'].properties).toHaveProperty('replicas');
    expect(def.tableColumns?.map((c) => c.name)).toEqual(['Replicas', 'Description']);
    const mod = (await import(join(root, 'apps', 'policies-apiserver', 'src', 'policies-apiserver.module.ts'))) as Record<string, { forRoot(o: { config: ServerConfig }): DynamicModule }>;
    const dynamic = mod.PoliciesApiServerModule.forRoot({ config: { etcdEndpoints: [], server: { component: 'x', bindAddress: '127.0.0.1', port: 0, tls: { certPem: '', keyPem: '' }, authentication: {} } } });
    // One AggregatedApiServerModule, holding the generic server only: no registration was asked for.
    expect(dynamic.imports).toHaveLength(1);
    expect((dynamic.imports?.[0] as DynamicModule).imports).toHaveLength(1);
  });

  it('type-checks with the repository settings', async () => {
    writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ extends: join(REPO, 'tsconfig.json'), compilerOptions: { noEmit: true }, include: ['apps'] }));
    const result = await run([join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.json')], REPO);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 240_000);

  it('generates spec tests that pass', async () => {
    writeFileSync(join(root, 'vitest.config.mts'), `import { mergeConfig } from 'vitest/config';\nimport base from ${JSON.stringify(join(REPO, 'vitest.config.mts'))};\nexport default mergeConfig(base, { root: ${JSON.stringify(root)} });\n`);
    const result = await run([join(REPO, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', join(root, 'vitest.config.mts')], REPO);
    // 3 unit tests and 4 e2e tests (kubectl, client-node) per generated app.
    expect(result.output).toMatch(/Tests\s+.*14 passed/);
    expect(result.code, result.output).toBe(0);
    // A whole vitest run of the generated apps (their e2e stacks included): 55 s seen on a loaded CI machine.
  }, 240_000);
});
