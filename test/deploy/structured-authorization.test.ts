/**
 * KUBE_AUTHORIZATION_CONFIG in the two deployments: the Helm chart (authorization.config / files / existingSecret)
 * renders one Secret mounted into the front door, core-api and extensions, its configuration one our loader
 * accepts; compose mounts KUBE_AUTHORIZATION_CONFIG_DIR and names the file in the same three services only.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { loadAuthorizationConfiguration } from '@kube/authorization';
import { locateHelm, tempDir } from '@kube/testing';
import { CHART, ROOT } from './deploy.helpers';

const CONTROL_PLANE = ['aggregator', 'core-api', 'extensions'];
const MOUNT = '/etc/kube-ts/authorization';

const VALUES = `authorization:
  config:
    authorizers:
    - type: Webhook
      name: opa
      webhook:
        timeout: 3s
        subjectAccessReviewVersion: v1
        matchConditionSubjectAccessReviewVersion: v1
        failurePolicy: NoOpinion
        connectionInfo:
          type: KubeConfigFile
          kubeConfigFile: ${MOUNT}/opa.kubeconfig
        matchConditions:
        - expression: "!request.user.startsWith('system:')"
    - type: RBAC
      name: rbac
  files:
    opa.kubeconfig: |
      apiVersion: v1
      kind: Config
      clusters:
      - name: opa
        cluster:
          server: https://opa.opa.svc:8443/v1/authorize
          certificate-authority: ${MOUNT}/opa-ca.crt
    opa-ca.crt: "not a real certificate"
`;

type Obj = { kind: string; metadata: { name: string }; spec?: { template: { spec: Pod } }; stringData?: Record<string, string> };
type Pod = { containers: Array<{ env?: Array<{ name: string; value?: string }>; volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean }> }>; volumes?: Array<{ name: string; secret?: { secretName: string } }> };

const located = locateHelm(join(ROOT, '.local', 'tools'));

describe('helm: authorization.config', () => {
  if (!located.path) {
    it.skip(`skipped: ${located.reason}`, () => undefined);
    return;
  }
  const helm = located.path;
  const render = (...args: string[]): { status: number | null; stderr: string; docs: Obj[] } => {
    const r = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', ...args], { encoding: 'utf8' });
    return { status: r.status, stderr: r.stderr, docs: r.status === 0 ? parseAllDocuments(r.stdout).map((d) => d.toJS() as Obj | null).filter((d): d is Obj => d !== null) : [] };
  };
  /** workload → [KUBE_AUTHORIZATION_CONFIG, the Secret mounted read-only where it points]. */
  const configured = (docs: Obj[]): Record<string, readonly [string | undefined, string | undefined]> =>
    Object.fromEntries(
      docs
        .filter((d) => ['Deployment', 'StatefulSet', 'Job'].includes(d.kind))
        .flatMap((d) => {
          const pod = d.spec!.template.spec;
          return pod.containers.map((c) => {
            const path = c.env?.find((e) => e.name === 'KUBE_AUTHORIZATION_CONFIG')?.value;
            const mount = c.volumeMounts?.find((m) => m.mountPath === MOUNT && m.readOnly);
            const secret = pod.volumes?.find((v) => v.name === mount?.name)?.secret?.secretName;
            return [d.metadata.name.replace('kts-kube-ts-', ''), [path, secret]] as const;
          });
        })
        .filter(([, [path, secret]]) => path !== undefined || secret !== undefined),
    );

  it('renders nothing by default (RBAC alone, as before)', () => {
    const { status, stderr, docs } = render();
    expect(status, stderr).toBe(0);
    expect(configured(docs)).toEqual({});
    expect(docs.find((d) => d.metadata.name === 'kts-kube-ts-authorization-config')).toBeUndefined();
  });

  it('mounts one Secret with the configuration and its files into the front door, core-api and extensions only; the file loads', () => {
    const values = join(tempDir('helm-authz'), 'values.yaml');
    writeFileSync(values, VALUES);
    const { status, stderr, docs } = render('-f', values);
    expect(status, stderr).toBe(0);
    expect(configured(docs)).toEqual(Object.fromEntries(CONTROL_PLANE.map((n) => [n, [`${MOUNT}/authorization-config.yaml`, 'kts-kube-ts-authorization-config']])));
    const secret = docs.find((d) => d.kind === 'Secret' && d.metadata.name === 'kts-kube-ts-authorization-config')!;
    expect(Object.keys(secret.stringData ?? {}).sort()).toEqual(['authorization-config.yaml', 'opa-ca.crt', 'opa.kubeconfig']);
    // Written out as the kubelet would project it (elsewhere than /etc), the configuration loads with kube's rules.
    const dir = tempDir('helm-authz-mount');
    mkdirSync(dir, { recursive: true });
    for (const [name, content] of Object.entries(secret.stringData ?? {})) writeFileSync(join(dir, name), content.split(MOUNT).join(dir));
    const config = loadAuthorizationConfiguration(secret.stringData!['authorization-config.yaml'].split(MOUNT).join(dir));
    expect(config.authorizers.map((a) => `${a.type}/${a.name}`)).toEqual(['Webhook/opa', 'RBAC/rbac']);
    expect(parse(secret.stringData!['authorization-config.yaml'])).toMatchObject({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AuthorizationConfiguration' });
  });

  it('mounts authorization.existingSecret instead, and refuses it beside an inline configuration', () => {
    const { status, stderr, docs } = render('--set', 'authorization.existingSecret=my-authz');
    expect(status, stderr).toBe(0);
    expect(configured(docs)).toEqual(Object.fromEntries(CONTROL_PLANE.map((n) => [n, [`${MOUNT}/authorization-config.yaml`, 'my-authz']])));
    expect(docs.find((d) => d.kind === 'Secret' && d.metadata.name.endsWith('authorization-config'))).toBeUndefined();
    const values = join(tempDir('helm-authz-both'), 'values.yaml');
    writeFileSync(values, VALUES);
    const both = render('-f', values, '--set', 'authorization.existingSecret=my-authz');
    expect(both.status).not.toBe(0);
    expect(both.stderr).toContain('authorization.existingSecret holds the configuration and its files');
  });
});

describe('compose: KUBE_AUTHORIZATION_CONFIG', () => {
  const hasDockerCompose = spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0;
  if (!hasDockerCompose) {
    it.skip('skipped: the docker-compose binary is missing (apt-get install docker-compose)', () => undefined);
    return;
  }
  type Service = { environment?: Record<string, string>; volumes?: Array<string | { source: string; target: string; read_only?: boolean }> };
  const config = (env: Record<string, string>): Record<string, Service> => {
    const r = spawnSync('docker-compose', ['-f', join(ROOT, 'docker-compose.yml'), 'config'], { cwd: ROOT, encoding: 'utf8', timeout: 15_000, env: { ...process.env, ...env } });
    expect(r.status, r.stderr).toBe(0);
    return (parse(r.stdout) as { services: Record<string, Service> }).services;
  };

  it('names the file in the front door, core-api and extensions, its directory mounted read-only at the same path', () => {
    const dir = tempDir('compose-authz');
    const path = join(dir, 'authorization-config.yaml');
    for (const [name, s] of Object.entries(config({ KUBE_AUTHORIZATION_CONFIG_DIR: dir, KUBE_AUTHORIZATION_CONFIG: path }))) {
      const wanted = CONTROL_PLANE.includes(name);
      expect(s.environment?.KUBE_AUTHORIZATION_CONFIG, name).toBe(wanted ? path : undefined);
      const mount = (s.volumes ?? []).map((v) => (typeof v === 'string' ? v : `${v.source}:${v.target}:${v.read_only ? 'ro' : 'rw'}`)).find((v) => v.startsWith(`${dir}:`));
      expect(mount, name).toBe(wanted ? `${dir}:${dir}:ro` : undefined);
    }
    // Unset: an empty value, RBAC alone.
    expect(config({}).aggregator.environment?.KUBE_AUTHORIZATION_CONFIG).toBe('');
  });
});
