/**
 * `npm run new-apiserver -- --group <group> --version <version> --kind <Kind> [--cluster]`: scaffolds an
 * aggregated API server on the SDK, apps/<first label of group>-apiserver/, with one working resource (OpenAPI
 * schema with a `spec`, validation, printer columns), its spec test, a module and a main that registers the
 * APIService through the aggregator when KUBE_REGISTER_URL is set, and an e2e test (kubectl through a whole
 * stack). Wires it into `npm start`, docker-compose.yml and the Helm values (new-apiserver.wiring.ts). Refuses
 * bad names and existing apps, and writes nothing unless it can write everything.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { isDNS1035Label, isDNS1123Subdomain } from '@kube/apimachinery';
import { applyWiring, launcherRow, nextPort, planWiring, WIRING_FILES, type WiredServer } from './new-apiserver.wiring';

export interface ScaffoldRequest {
  group: string;
  version: string;
  kind: string;
  /** Cluster-scoped kind (default: namespaced). */
  cluster: boolean;
}

export interface ScaffoldLocations {
  /** Where apps/<name>/ is created. */
  root: string;
}

/** Names derived once from the request; every template reads them from here. */
export interface ScaffoldNames {
  app: string;
  moduleClass: string;
  kind: string;
  /** kube's guess from the kind (UnsafeGuessKindToResource): widgets, policies, buses. */
  plural: string;
  singular: string;
  /** Identifier of the resource definition: widgetsResource. */
  resourceConst: string;
  /** Identifier prefix for the kind's own exports: widget → validateWidget, WIDGET_SCHEMA. */
  upperSnake: string;
}

export interface ScaffoldResult {
  appDir: string;
  files: string[];
  names: ScaffoldNames;
  /** Its default port: the first after those the launcher already uses. */
  port: number;
  /** The launcher, compose and Helm files that now run it (those present under the root). */
  wired: string[];
}

export class ScaffoldError extends Error {}

/** The lowest port a scaffolded server gets; each new one takes the next after the launcher's highest. */
export const DEFAULT_PORT = 6447;
const RESERVED_GROUP_SUFFIXES = ['k8s.io', 'kubernetes.io'];
const KIND_PATTERN = /^[A-Z][A-Za-z0-9]*$/;
const KIND_MAX_LENGTH = 63;
const ROOT = resolve(__dirname, '..', '..');
const USAGE = 'usage: npm run new-apiserver -- --group <group> --version <version> --kind <Kind> [--cluster]';

// ---------------------------------------------------------------------------------------------------------
// Validation and names

export function validateRequest(req: ScaffoldRequest): string[] {
  const errors: string[] = [];
  const groupErrors = isDNS1123Subdomain(req.group);
  if (groupErrors.length) errors.push(...groupErrors.map((e) => `--group ${JSON.stringify(req.group)}: ${e}`));
  else if (!req.group.includes('.')) errors.push(`--group ${JSON.stringify(req.group)}: must contain at least one dot (e.g. widgets.example.com); groups without a dot are Kubernetes' own`);
  else if (RESERVED_GROUP_SUFFIXES.some((s) => req.group === s || req.group.endsWith(`.${s}`))) {
    errors.push(`--group ${JSON.stringify(req.group)}: groups under ${RESERVED_GROUP_SUFFIXES.join(' and ')} are reserved for Kubernetes`);
  }
  errors.push(...isDNS1035Label(req.version).map((e) => `--version ${JSON.stringify(req.version)}: ${e}`));
  if (!KIND_PATTERN.test(req.kind) || req.kind.length > KIND_MAX_LENGTH) {
    errors.push(`--kind ${JSON.stringify(req.kind)}: must be UpperCamelCase, a capital letter then letters and digits, at most ${KIND_MAX_LENGTH} characters (e.g. 'Widget', 'BackupPolicy')`);
  }
  return errors;
}

/** k8s.io/apimachinery meta.UnsafeGuessKindToResource on an already lower-cased first letter. */
function guessPlural(singular: string): string {
  if (singular.endsWith('s')) return `${singular}es`;
  if (singular.endsWith('y')) return `${singular.slice(0, -1)}ies`;
  return `${singular}s`;
}

function pascal(kebab: string): string {
  return kebab
    .split('-')
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}

export function scaffoldNames(req: ScaffoldRequest): ScaffoldNames {
  const label = req.group.split('.')[0];
  const app = `${label}-apiserver`;
  // A DNS label may start with a digit, an identifier may not.
  const classBase = /^[0-9]/.test(label) ? `Group${pascal(label)}` : pascal(label);
  const camel = req.kind[0].toLowerCase() + req.kind.slice(1);
  return {
    app,
    moduleClass: `${classBase}ApiServerModule`,
    kind: req.kind,
    plural: guessPlural(req.kind.toLowerCase()),
    singular: req.kind.toLowerCase(),
    resourceConst: `${guessPlural(camel)}Resource`,
    upperSnake: req.kind.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase(),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Templates

interface TemplateContext {
  req: ScaffoldRequest;
  names: ScaffoldNames;
  /** Import specifier of the aggregated-server helpers, relative to the app's src/. */
  aggregated: string;
  port: number;
}

function resourceTemplate({ req, names }: TemplateContext): string {
  const { kind, plural, singular, resourceConst, upperSnake } = names;
  return `/** ${req.group}/${req.version} ${kind}: its OpenAPI schema, validation and printed columns. Generated by \`npm run new-apiserver\`. */
import { FieldError, type JSONSchemaProps, type KubeObject, type SchemaComponents } from '@kube/apimachinery';
import { definitionPrefix, metaV1Components, type ResourceDefinition, type ResourceStrategy } from '@kube/apiserver';

export const GROUP = '${req.group}';
export const VERSION = '${req.version}';

export interface ${kind}Spec {
  /** A free-form description, printed by \`kubectl get\`. */
  description?: string;
  /** How many are wanted; not negative. */
  replicas?: number;
}

export interface ${kind} extends KubeObject {
  spec?: ${kind}Spec;
}

const PREFIX = \`\${definitionPrefix({ group: GROUP, version: VERSION })}.\`;
export const ${upperSnake}_SCHEMA = \`\${PREFIX}${kind}\`;

const ref = (name: string): JSONSchemaProps => ({ $ref: \`#/components/schemas/\${name}\` });

/** OpenAPI v3 of the kind; the descriptions are what \`kubectl explain ${plural}.spec\` prints. */
export const ${singular}Components: SchemaComponents = {
  ...metaV1Components,
  [${upperSnake}_SCHEMA]: {
    description: '${kind} is served by the ${names.app} aggregated API server.',
    type: 'object',
    properties: {
      apiVersion: { description: 'APIVersion defines the versioned schema of this representation of an object.', type: 'string' },
      kind: { description: 'Kind is a string value representing the REST resource this object represents.', type: 'string' },
      metadata: { allOf: [ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta')], default: {}, description: "Standard object's metadata." },
      spec: { allOf: [ref(\`\${PREFIX}${kind}Spec\`)], default: {}, description: 'spec is the desired state of the ${kind}.' },
    },
    'x-kubernetes-group-version-kind': [{ group: GROUP, kind: '${kind}', version: VERSION }],
  },
  [\`\${PREFIX}${kind}Spec\`]: {
    description: '${kind}Spec is the desired state of a ${kind}.',
    type: 'object',
    properties: {
      description: { description: 'A free-form description, printed by \`kubectl get\`.', type: 'string' },
      replicas: { description: 'How many are wanted; not negative.', type: 'integer', format: 'int32' },
    },
  },
};

export function validate${kind}(obj: ${kind}): FieldError[] {
  const replicas = obj.spec?.replicas;
  if (replicas === undefined || (Number.isInteger(replicas) && replicas >= 0)) return [];
  return [FieldError.invalid('spec.replicas', replicas, 'must be a whole number greater than or equal to 0')];
}

export const ${singular}Strategy: ResourceStrategy = {
  validate: (obj: KubeObject) => validate${kind}(obj as ${kind}),
  validateUpdate: (obj: KubeObject) => validate${kind}(obj as ${kind}),
};

export const ${resourceConst}: ResourceDefinition = {
  group: GROUP,
  version: VERSION,
  kind: '${kind}',
  plural: '${plural}',
  singular: '${singular}',
  namespaced: ${!req.cluster},
  schema: { name: ${upperSnake}_SCHEMA, components: ${singular}Components },
  strategy: ${singular}Strategy,
  tableColumns: [
    { name: 'Replicas', type: 'integer', description: 'How many are wanted.', cell: (obj: KubeObject) => (obj as ${kind}).spec?.replicas ?? 0 },
    { name: 'Description', type: 'string', description: 'A free-form description.', cell: (obj: KubeObject) => (obj as ${kind}).spec?.description ?? '' },
  ],
};
`;
}

function resourceSpecTemplate({ req, names }: TemplateContext): string {
  const { kind, plural, resourceConst } = names;
  const metadata = req.cluster ? `{ name: 'example' }` : `{ name: 'example', namespace: 'default' }`;
  return `import { describe, expect, it } from 'vitest';
import type { RequestContext } from '@kube/apiserver';
import { ${resourceConst}, type ${kind} } from './${plural}.resource';

const ctx: RequestContext = { user: { name: 'tester', groups: [] }, dryRun: false, warnings: [] };
const ${names.singular} = (spec: ${kind}['spec']): ${kind} => ({ metadata: ${metadata}, spec });
const errors = (obj: ${kind}): string[] => (${resourceConst}.strategy?.validate?.(obj, ctx) ?? []).map((e) => e.toString());

describe('${plural}', () => {
  it('is served as ${req.group}/${req.version} ${kind}', () => {
    expect(${resourceConst}).toMatchObject({ group: '${req.group}', version: '${req.version}', kind: '${kind}', plural: '${plural}', namespaced: ${!req.cluster} });
  });

  it('accepts a valid spec and refuses negative replicas', () => {
    expect(errors(${names.singular}({ replicas: 3, description: 'three' }))).toEqual([]);
    expect(errors(${names.singular}({ replicas: -1 }))).toEqual(['spec.replicas: Invalid value: -1: must be a whole number greater than or equal to 0']);
  });

  it('prints replicas and description', () => {
    const cells = (${resourceConst}.tableColumns ?? []).map((c) => c.cell(${names.singular}({ replicas: 2, description: 'two' })));
    expect(cells).toEqual([2, 'two']);
  });
});
`;
}

function moduleTemplate({ req, names, aggregated }: TemplateContext): string {
  const admission = req.cluster
    ? ''
    : `\n          // Like kube's NamespaceLifecycle: no ${names.plural} in missing or terminating namespaces (read through the\n          // control plane's API: its etcd role reaches only its own keys).\n          admission: (_storage, controlPlane) => (controlPlane ? [new NamespaceLifecycleAdmission(controlPlane.namespaces)] : []),`;
  const sdkImports = req.cluster ? 'AGGREGATED_SERVICE_NAMESPACE, AggregatedApiServerModule' : 'AGGREGATED_SERVICE_NAMESPACE, AggregatedApiServerModule, NamespaceLifecycleAdmission';
  return `import { Module, type DynamicModule } from '@nestjs/common';
import { ${sdkImports}, type AggregatedServerOptions, type ApiServiceIdentity } from '${aggregated}';
import { GROUP, VERSION, ${names.resourceConst} } from './resources/${names.plural}.resource';

/** The APIService that routes ${req.group}/${req.version} to this server (through Service kube-system/${names.app}). */
export const API_SERVICE: ApiServiceIdentity = {
  group: GROUP,
  version: VERSION,
  serviceNamespace: AGGREGATED_SERVICE_NAMESPACE,
  serviceName: '${names.app}',
  groupPriorityMinimum: 1000,
  versionPriority: 15,
};

/** ${names.app}: the generic API server with its resources on etcd, registered as an APIService when given registration options. */
@Module({})
export class ${names.moduleClass} {
  static forRoot(options: AggregatedServerOptions): DynamicModule {
    return {
      module: ${names.moduleClass},
      imports: [
        AggregatedApiServerModule.forRoot({
          ...options,
          apiService: API_SERVICE,
          resources: [${names.resourceConst}],${admission}
        }),
      ],
    };
  }
}
`;
}

function mainTemplate({ names, aggregated, port }: TemplateContext): string {
  return `/**
 * ${names.app}. Reads the KUBE_* variables of every API server (docs/configuration.md) and:
 * - KUBE_TLS_CERT_FILE / KUBE_TLS_PRIVATE_KEY_FILE (+ KUBE_SERVING_CA_FILE for the caBundle), or
 *   KUBE_SIGNING_CA_CERT_FILE / KUBE_SIGNING_CA_KEY_FILE to issue a serving certificate at start;
 * - KUBE_REGISTER_URL with KUBE_REGISTER_CERT_FILE, KUBE_REGISTER_KEY_FILE, KUBE_REGISTER_CA_FILE to register
 *   its Service, Endpoints (KUBE_REGISTER_ADDRESS, default the bind address) and APIService through the aggregator.
 */
import { runAggregatedServer } from '${aggregated}';
import { API_SERVICE, ${names.moduleClass} } from './${names.app}.module';

runAggregatedServer({
  component: '${names.app}',
  defaultPort: ${port},
  apiService: API_SERVICE,
  module: (options) => ${names.moduleClass}.forRoot(options),
});
`;
}

function e2eTemplate({ req, names }: TemplateContext): string {
  const { kind, plural, singular } = names;
  const metadata = req.cluster ? `{ name }` : `{ name, namespace: 'default' }`;
  const scope = req.cluster ? '' : `, '-n', 'default'`;
  return `/**
 * ${names.app} end to end: a whole stack in this process (etcd, core API, extensions, the aggregator), this
 * server registered through the aggregator as it is in \`npm start\`, and the real kubectl. Generated by
 * \`npm run new-apiserver\`; extend it as the kind grows.
 */
import type { INestApplicationContext } from '@nestjs/common';
import type { KubernetesObject } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '@kube/apiserver';
import { adminTarget, bootAggregatedServer, kubectlSession, startStack, until, type StackHarness } from '@test/support';
import { API_SERVICE, ${names.moduleClass} } from '../src/${names.app}.module';

const apiService = \`\${API_SERVICE.version}.\${API_SERVICE.group}\`;
const ${singular} = (name: string, spec: Record<string, unknown>): string =>
  JSON.stringify({ apiVersion: \`\${API_SERVICE.group}/\${API_SERVICE.version}\`, kind: '${kind}', metadata: ${metadata}, spec });

describe('${names.app} through the aggregator with kubectl', () => {
  let stack: StackHarness;
  let server: INestApplicationContext;
  const { k, ok } = kubectlSession(undefined, () => stack.kubeconfig);

  beforeAll(async () => {
    stack = await startStack();
    server = await bootAggregatedServer(stack, {
      component: '${names.app}',
      serviceDnsName: \`\${API_SERVICE.serviceName}.\${API_SERVICE.serviceNamespace}.svc\`,
      module: (options) => ${names.moduleClass}.forRoot(options),
    });
  });

  afterAll(async () => {
    await server?.close();
    await stack?.stop();
  });

  it('registers its APIService, which becomes Available', async () => {
    expect(await until(async () => /\\sTrue\\s/.test((await k(['get', 'apiservice', apiService])).stdout))).toBe(true);
  });

  it('creates, prints, lists and deletes a ${kind}', async () => {
    await ok(['create', '-f', '-'], ${singular}('first', { replicas: 2, description: 'made by kubectl' }));
    const table = await ok(['get', '${plural}', 'first'${scope}]);
    expect(table).toMatch(/^NAME\\s+REPLICAS\\s+DESCRIPTION\\s+AGE$/m);
    expect(table).toMatch(/^first\\s+2\\s+made by kubectl\\s+\\d+s$/m);
    const listed = JSON.parse(await ok(['get', '${plural}'${scope}, '-o', 'json']));
    expect(listed.items.map((o: { metadata: { name: string } }) => o.metadata.name)).toEqual(['first']);
    await ok(['delete', '${plural}', 'first'${scope}]);
    expect((await k(['get', '${plural}', 'first'${scope}])).stderr).toContain('NotFound');
  });

  it('serves @kubernetes/client-node, the SDK client: create, read and list a ${kind}, refusals as Status', async () => {
    // ApiClient is client-node set up for the front door; its kubeConfig also makes typed clients and informers.
    const client = new ApiClient(adminTarget(stack));
    try {
      const apiVersion = \`\${API_SERVICE.group}/\${API_SERVICE.version}\`;
      await client.call('create', ({ objects }) => objects.create(JSON.parse(${singular}('by-client', { replicas: 1 }))));
      const read = await client.read<KubernetesObject & { spec?: { replicas?: number } }>(apiVersion, '${kind}', 'by-client'${req.cluster ? '' : ", 'default'"});
      expect(read.spec?.replicas).toBe(1);
      expect((await client.list(apiVersion, '${kind}')).items.map((o) => o.metadata?.name)).toContain('by-client');
      await expect(client.read(apiVersion, '${kind}', 'missing'${req.cluster ? '' : ", 'default'"})).rejects.toMatchObject({ status: { code: 404, reason: 'NotFound' } });
    } finally {
      client.close();
    }
  });

  it('refuses an invalid ${kind} with the field that is wrong', async () => {
    const refused = await k(['create', '-f', '-'], ${singular}('negative', { replicas: -1 }));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('spec.replicas: Invalid value: -1: must be a whole number greater than or equal to 0');
  });
});
`;
}

/** File path (relative to the app directory) → content. */
export function renderApp(req: ScaffoldRequest, names: ScaffoldNames, aggregated: string, port = DEFAULT_PORT): Map<string, string> {
  const ctx: TemplateContext = { req, names, aggregated, port };
  return new Map([
    [join('src', 'main.ts'), mainTemplate(ctx)],
    [join('src', `${names.app}.module.ts`), moduleTemplate(ctx)],
    [join('src', 'resources', `${names.plural}.resource.ts`), resourceTemplate(ctx)],
    [join('src', 'resources', `${names.plural}.resource.spec.ts`), resourceSpecTemplate(ctx)],
    [join('test', `${names.app}.e2e.spec.ts`), e2eTemplate(ctx)],
  ]);
}

// ---------------------------------------------------------------------------------------------------------
// Writing


/** Validates, renders every file and plans the wiring, then writes it all; on any failure nothing is left behind. */
export async function scaffoldApiServer(req: ScaffoldRequest, locations: ScaffoldLocations): Promise<ScaffoldResult> {
  const errors = validateRequest(req);
  if (errors.length) throw new ScaffoldError(errors.join('\n'));
  const names = scaffoldNames(req);
  const appDir = join(locations.root, 'apps', names.app);
  if (existsSync(appDir)) throw new ScaffoldError(`${appDir} already exists: choose another group, or remove it first`);
  const launcher = join(locations.root, WIRING_FILES.launcher);
  const port = nextPort(existsSync(launcher) ? await readFile(launcher, 'utf8') : undefined, DEFAULT_PORT);
  const server: WiredServer = { app: names.app, group: req.group, version: req.version, port };
  let wiring;
  try {
    wiring = await planWiring(locations.root, server);
  } catch (err) {
    throw new ScaffoldError((err as Error).message);
  }
  // The aggregated-server helpers are part of the SDK.
  const files = renderApp(req, names, '@kube/apiserver', port);
  try {
    for (const [path, content] of files) {
      await mkdir(dirname(join(appDir, path)), { recursive: true });
      await writeFile(join(appDir, path), content, { flag: 'wx' });
    }
    await applyWiring(wiring);
  } catch (err) {
    await rm(appDir, { recursive: true, force: true });
    throw err;
  }
  return { appDir, files: [...files.keys()].map((path) => join(appDir, path)), names, port, wired: wiring.map((e) => e.path) };
}

export function nextSteps(result: ScaffoldResult, req: ScaffoldRequest, root: string): string {
  const { names } = result;
  const app = relative(root, result.appDir) || result.appDir;
  const namespaceFlag = req.cluster ? '' : ' -A';
  const wired = result.wired.length ? result.wired.map((file) => `  ${relative(root, file)}`) : ['  (none found under this root)'];
  return [
    `Created ${app}/:`,
    ...result.files.map((file) => `  ${relative(root, file)}`),
    `Wired in (port ${result.port}):`,
    ...wired,
    '',
    'Next steps:',
    `  1. Shape ${names.kind} in ${app}/src/resources/${names.plural}.resource.ts: schema, validation, columns.`,
    `  2. Test it:  npx vitest run ${app}`,
    `  3. Run it with the local stack: npm start  (its row in scripts/start.ts: ${launcherRow({ app: names.app, group: req.group, version: req.version, port: result.port })})`,
    '     It gets a serving certificate from the local CA and registers its APIService itself.',
    `  4. kubectl --kubeconfig .local/kubeconfig get apiservice ${req.version}.${req.group}`,
    `     kubectl --kubeconfig .local/kubeconfig get ${names.plural}${namespaceFlag}`,
    '  Guide: docs/aggregated-api-server.md',
  ].join('\n');
}

export function parseRequest(argv: readonly string[]): ScaffoldRequest {
  let values: { group?: string; version?: string; kind?: string; cluster?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { group: { type: 'string' }, version: { type: 'string' }, kind: { type: 'string' }, cluster: { type: 'boolean', default: false } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new ScaffoldError(`${(err as Error).message}\n${USAGE}`);
  }
  const missing = (['group', 'version', 'kind'] as const).filter((name) => !values[name]);
  if (missing.length) throw new ScaffoldError(`missing ${missing.map((m) => `--${m}`).join(', ')}\n${USAGE}`);
  return { group: values.group as string, version: values.version as string, kind: values.kind as string, cluster: values.cluster ?? false };
}

export async function main(argv: readonly string[], root = ROOT): Promise<number> {
  try {
    const req = parseRequest(argv);
    const result = await scaffoldApiServer(req, { root });
    console.log(nextSteps(result, req, root));
    return 0;
  } catch (err) {
    if (!(err instanceof ScaffoldError)) throw err;
    console.error(`new-apiserver: ${err.message}`);
    return 2;
  }
}

// Run as a program (node dist/scripts/new-apiserver.js), not when imported by its spec.
if (typeof require !== 'undefined' && typeof module !== 'undefined' && require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
