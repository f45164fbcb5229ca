/**
 * Wires a scaffolded aggregated API server into the places that run it: the `npm start` launcher
 * (scripts/start.ts) and the local stacks' access table (scripts/local-aggregated-servers.ts: its own user's
 * RBAC), docker-compose.yml (its own serving certificate, PKI volume and service) and the
 * Helm chart's values (deploy/helm/kube-ts/values.yaml, `aggregatedApiservers`). Each file has a marker line
 * the new text goes above; edits are planned in memory first so that nothing is written when one cannot be made.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What the wiring needs to know about the new server. */
export interface WiredServer {
  app: string;
  group: string;
  version: string;
  port: number;
}

export interface FileEdit {
  path: string;
  original: string;
  content: string;
}

export const WIRING_FILES = {
  launcher: join('scripts', 'start.ts'),
  access: join('scripts', 'local-aggregated-servers.ts'),
  compose: 'docker-compose.yml',
  helmValues: join('deploy', 'helm', 'kube-ts', 'values.yaml'),
} as const;

export const MARKERS = {
  launcher: '// new-apiserver: rows of scaffolded servers go above this line.',
  access: '// new-apiserver: access rows of scaffolded servers go above this line.',
  composeIdentities: '# new-apiserver: identities of scaffolded servers go above this line.',
  composeServing: '# new-apiserver: serving certificates of scaffolded servers go above this line.',
  composeBundles: '# new-apiserver: bundles of scaffolded servers go above this line.',
  composePkiMounts: '# new-apiserver: volumes of scaffolded servers go above this line.',
  composeVolumes: "# new-apiserver: volumes of scaffolded servers' PKI go above this line.",
  composeServices: '# new-apiserver: services of scaffolded servers go above this line.',
  helmValues: '# new-apiserver: entries of scaffolded servers go above this line.',
} as const;

/** The first port after every port the launcher already gives out (6447 when it gives out none). */
export function nextPort(launcherSource: string | undefined, minimum: number): number {
  const taken = [...(launcherSource ?? '').matchAll(/defaultPort:\s*(\d+)/g)].map((m) => Number(m[1]));
  return Math.max(minimum, ...taken.map((p) => p + 1));
}

export function portEnvOf(app: string): string {
  return `KUBE_${app.toUpperCase().replace(/\W/g, '_')}_PORT`;
}

export function launcherRow(s: WiredServer): string {
  return `{ name: '${s.app}', main: 'dist/apps/${s.app}/src/main.js', portEnv: '${portEnvOf(s.app)}', defaultPort: ${s.port}, aggregated: true },`;
}

function composeService(s: WiredServer): string {
  return `  ${s.app}:
    <<: *kube-ts
    volumes:
      - pki-${s.app}:/pki:ro
    # Scaffolded by \`npm run new-apiserver\`: registers its APIService (${s.version}.${s.group}), Service and
    # Endpoints through the aggregator at start, with the container's own address.
    command:
      - sh
      - -c
      - export KUBE_REGISTER_ADDRESS="$$(hostname -i | cut -d' ' -f1)" && exec node dist/apps/${s.app}/src/main.js
    environment:
      <<: *api-env
      KUBE_SECURE_PORT: "${s.port}"
      KUBE_TLS_CERT_FILE: /pki/serving-${s.app}.crt
      KUBE_TLS_PRIVATE_KEY_FILE: /pki/serving-${s.app}.key
      KUBE_ETCD_CERTFILE: /pki/etcd-client-${s.app}.crt
      KUBE_ETCD_KEYFILE: /pki/etcd-client-${s.app}.key
      KUBE_SERVING_CA_FILE: /pki/ca.crt
      KUBE_REGISTER_URL: https://aggregator:6443
      KUBE_REGISTER_CERT_FILE: /pki/client-${s.app}.crt
      KUBE_REGISTER_KEY_FILE: /pki/client-${s.app}.key
      KUBE_REGISTER_CA_FILE: /pki/ca.crt
    healthcheck:
      <<: *healthcheck-timing
      test: ["CMD", "node", "dist/scripts/healthcheck.js", "--ca=/pki/ca.crt", "https://127.0.0.1:${s.port}/readyz"]
    depends_on:
      etcd: {condition: service_healthy}
      etcd-auth: {condition: service_completed_successfully}
      nats: {condition: service_healthy}
      pki: {condition: service_completed_successfully}
      aggregator: {condition: service_healthy}

`;
}

/** Its row in the local stacks' access table: it registers its own Service (named like the app) and APIService. */
export function accessRow(s: WiredServer): string {
  return `{ component: '${s.app}', service: '${s.app}', apiService: '${s.version}.${s.group}' },`;
}

function helmEntry(s: WiredServer): string {
  return `  - name: ${s.app}
    main: dist/apps/${s.app}/src/main.js
    port: ${s.port}
    group: ${s.group}
    version: ${s.version}
`;
}

/** Inserts `text` (whole lines) right above the line holding `marker`, indented like nothing: text carries its own. */
export function insertAbove(source: string, marker: string, text: string, file: string): string {
  const at = source.indexOf(marker);
  if (at < 0) throw new Error(`${file}: the line "${marker}" is missing, so ${file} cannot be updated; put it back where new entries belong`);
  const lineStart = source.lastIndexOf('\n', at) + 1;
  return source.slice(0, lineStart) + text + source.slice(lineStart);
}

async function readIfExists(path: string): Promise<string | undefined> {
  return existsSync(path) ? readFile(path, 'utf8') : undefined;
}

/** The edits to make; files that do not exist (a bare checkout of apps/ only) are left out. */
export async function planWiring(root: string, s: WiredServer): Promise<FileEdit[]> {
  const edits: FileEdit[] = [];
  const edit = async (file: string, change: (source: string) => string): Promise<void> => {
    const path = join(root, file);
    const original = await readIfExists(path);
    if (original !== undefined) edits.push({ path, original, content: change(original) });
  };
  await edit(WIRING_FILES.launcher, (src) => insertAbove(src, MARKERS.launcher, `  ${launcherRow(s)}\n`, WIRING_FILES.launcher));
  await edit(WIRING_FILES.access, (src) => insertAbove(src, MARKERS.access, `  ${accessRow(s)}\n`, WIRING_FILES.access));
  await edit(WIRING_FILES.compose, (src) => {
    // Its own serving certificate and PKI volume, holding only what it needs (docker-compose.yml, least privilege).
    // Its etcd user's certificate (etcd-auth confines it to /registry/<group>/: generate-pki lists it for etcd-auth).
    const files = ['ca.crt', 'front-proxy-ca.crt', `serving-${s.app}.crt`, `serving-${s.app}.key`, 'nats-ca.crt', `client-${s.app}.crt`, `client-${s.app}.key`, 'etcd-ca.crt', `etcd-client-${s.app}.crt`, `etcd-client-${s.app}.key`];
    const inserts: Array<[string, string]> = [
      [MARKERS.composeServing, `      - --serving=${s.app}=${s.app},${s.app}.kube-system.svc\n`],
      [MARKERS.composeIdentities, `      - --aggregated=${s.app}\n`],
      [MARKERS.composeBundles, `      - --bundle=${s.app}=${files.join(',')}\n`],
      [MARKERS.composePkiMounts, `      - pki-${s.app}:/bundles/${s.app}\n`],
      [MARKERS.composeVolumes, `  pki-${s.app}:\n`],
      [MARKERS.composeServices, composeService(s)],
    ];
    return inserts.reduce((text, [marker, line]) => insertAbove(text, marker, line, WIRING_FILES.compose), src);
  });
  await edit(WIRING_FILES.helmValues, (src) => insertAbove(src, MARKERS.helmValues, helmEntry(s), WIRING_FILES.helmValues));
  return edits;
}

/** Writes every edit; if one fails, the files already written get their original content back. */
export async function applyWiring(edits: readonly FileEdit[]): Promise<void> {
  const done: FileEdit[] = [];
  try {
    for (const e of edits) {
      await writeFile(e.path, e.content);
      done.push(e);
    }
  } catch (err) {
    await revertWiring(done);
    throw err;
  }
}

export async function revertWiring(edits: readonly FileEdit[]): Promise<void> {
  for (const e of edits) await writeFile(e.path, e.original);
}
