/**
 * The audit webhook and log rotation as compose and the Helm chart configure them: kube's variables reach the
 * front door alone, the webhook kubeconfig (kube's documented form) in a Secret only it mounts, and what they
 * render is what auditOptionsFromEnv and loadWebhookKubeconfig accept.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { auditOptionsFromEnv } from '@kube/apiserver';
import { pkiPaths } from '@kube/pki';
import { locateHelm, tempDir } from '@kube/testing';
import { launcherEnvironments } from '../../scripts/start';
import { loadWebhookKubeconfig } from '../../libs/apiserver/src/audit/webhook.kubeconfig';
import { CHART, ROOT } from './deploy.helpers';

type Env = Array<{ name: string; value?: string }>;
interface Obj {
  kind: string;
  metadata: { name: string };
  stringData?: Record<string, string>;
  spec?: { template: { spec: { containers: Array<{ env: Env; volumeMounts?: Array<{ name: string; mountPath: string }> }>; volumes?: Array<{ name: string; secret?: { secretName: string }; emptyDir?: object }> } } };
}

const KUBECONFIG = {
  clusters: [{ name: 'name-of-remote-audit-service', cluster: { 'certificate-authority-data': Buffer.from('ca').toString('base64'), server: 'https://audit.example.com/audit' } }],
  users: [{ name: 'name-of-api-server', user: { token: 's3cr3t' } }],
  'current-context': 'webhook',
  contexts: [{ context: { cluster: 'name-of-remote-audit-service', user: 'name-of-api-server' }, name: 'webhook' }],
};

const located = locateHelm(join(ROOT, '.local', 'tools'));

describe('the chart: aggregator.audit', () => {
  if (!located.path) {
    it.skip(`skipped: ${located.reason}`, () => undefined);
    return;
  }
  const helm = located.path;
  const render = (values: object): Obj[] => {
    const file = join(tempDir('audit-values'), 'values.yaml');
    writeFileSync(file, JSON.stringify(values));
    const r = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', '-f', file], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return parseAllDocuments(r.stdout).map((d) => d.toJS() as Obj | null).filter((d): d is Obj => d !== null);
  };
  const deployment = (docs: Obj[], name: string): NonNullable<Obj['spec']>['template']['spec'] => docs.find((d) => d.kind === 'Deployment' && d.metadata.name === `kts-kube-ts-${name}`)!.spec!.template.spec;
  const envOf = (docs: Obj[], name: string): Record<string, string> => Object.fromEntries(deployment(docs, name).containers[0].env.map((e) => [e.name, e.value ?? '']));

  it('renders no audit webhook and no rotation settings by default', () => {
    const docs = render({});
    expect(Object.keys(envOf(docs, 'aggregator')).filter((k) => k.startsWith('KUBE_AUDIT_'))).toEqual(['KUBE_AUDIT_LOG_PATH']);
    expect(docs.some((d) => d.metadata.name.endsWith('-audit-webhook'))).toBe(false);
  });

  it("puts kube's documented kubeconfig in a Secret only the front door mounts, with the rotation and batch settings as kube's variables", () => {
    const docs = render({
      aggregator: {
        auditLogPath: '/var/log/kube-ts/audit.log',
        audit: { log: { maxSize: 10, maxAge: 7, maxBackup: 3, format: 'legacy' }, webhook: { kubeconfig: KUBECONFIG, mode: 'blocking', batchMaxWait: '5s', truncateEnabled: true } },
      },
    });
    const secret = docs.find((d) => d.kind === 'Secret' && d.metadata.name === 'kts-kube-ts-aggregator-audit-webhook')!;
    const dir = tempDir('audit-secret');
    writeFileSync(join(dir, 'kubeconfig'), secret.stringData!.kubeconfig);
    expect(loadWebhookKubeconfig(join(dir, 'kubeconfig'))).toMatchObject({ url: new URL('https://audit.example.com/audit'), authorization: 'Bearer s3cr3t' });
    const env = envOf(docs, 'aggregator');
    expect(env).toMatchObject({ KUBE_AUDIT_WEBHOOK_CONFIG_FILE: '/etc/kube-ts/audit-webhook/kubeconfig', KUBE_AUDIT_LOG_MAXSIZE: '10', KUBE_AUDIT_LOG_MAXAGE: '7', KUBE_AUDIT_LOG_MAXBACKUP: '3', KUBE_AUDIT_LOG_FORMAT: 'legacy', KUBE_AUDIT_WEBHOOK_MODE: 'blocking' });
    const options = auditOptionsFromEnv(env);
    expect(options.log).toMatchObject({ path: '/var/log/kube-ts/audit.log', maxSize: 10, maxAge: 7, maxBackups: 3, format: 'legacy' });
    expect(options.webhook).toMatchObject({ batch: { mode: 'blocking', batch: { maxBatchWaitMs: 5_000 } }, truncate: { enabled: true } });
    const pod = deployment(docs, 'aggregator');
    expect(pod.volumes).toEqual(expect.arrayContaining([{ name: 'audit-webhook', secret: { secretName: 'kts-kube-ts-aggregator-audit-webhook', defaultMode: 0o440 } }, { name: 'audit-log', emptyDir: {} }]));
    expect(pod.containers[0].volumeMounts).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'audit-log', mountPath: '/var/log/kube-ts' })]));
    for (const other of ['core-api', 'extensions']) {
      expect(Object.keys(envOf(docs, other)).filter((k) => k.startsWith('KUBE_AUDIT_')), other).toEqual([]);
      expect(JSON.stringify(deployment(docs, other).volumes), other).not.toContain('audit-webhook');
    }
  });

  it('mounts an existing Secret instead of rendering one', () => {
    const docs = render({ aggregator: { audit: { webhook: { existingSecret: 'my-audit-sink' } } } });
    expect(docs.some((d) => d.kind === 'Secret' && d.metadata.name.endsWith('-audit-webhook'))).toBe(false);
    expect(deployment(docs, 'aggregator').volumes).toEqual(expect.arrayContaining([{ name: 'audit-webhook', secret: { secretName: 'my-audit-sink', defaultMode: 0o440 } }]));
    expect(envOf(docs, 'aggregator').KUBE_AUDIT_WEBHOOK_CONFIG_FILE).toBe('/etc/kube-ts/audit-webhook/kubeconfig');
  });
});

describe('compose: the audit variables', () => {
  const config = (env: Record<string, string>): { services: Record<string, { environment?: Record<string, string>; volumes?: Array<string | { source: string; target: string; read_only?: boolean }> }> } => {
    const r = spawnSync('docker-compose', ['-f', join(ROOT, 'docker-compose.yml'), 'config'], { cwd: ROOT, encoding: 'utf8', timeout: 15_000, env: { ...process.env, ...env } });
    expect(r.status, r.stderr).toBe(0);
    return parse(r.stdout) as ReturnType<typeof config>;
  };
  const hasCompose = spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0;

  it.skipIf(!hasCompose)('reach the aggregator alone, the config directory mounted read-only at its path', () => {
    const dir = join(tempDir('compose-audit'), 'audit');
    mkdirSync(dir);
    const rendered = config({ KUBE_AUDIT_CONFIG_DIR: dir, KUBE_AUDIT_WEBHOOK_CONFIG_FILE: join(dir, 'kubeconfig'), KUBE_AUDIT_POLICY_FILE: join(dir, 'policy.yaml'), KUBE_AUDIT_WEBHOOK_MODE: 'blocking', KUBE_AUDIT_WEBHOOK_BATCH_MAX_WAIT: '5s' });
    const agg = rendered.services.aggregator;
    expect(agg.environment).toMatchObject({ KUBE_AUDIT_LOG_PATH: '-', KUBE_AUDIT_WEBHOOK_CONFIG_FILE: join(dir, 'kubeconfig'), KUBE_AUDIT_POLICY_FILE: join(dir, 'policy.yaml'), KUBE_AUDIT_WEBHOOK_MODE: 'blocking' });
    expect((agg.volumes ?? []).map((v) => (typeof v === 'string' ? v : `${v.source}:${v.target}:${v.read_only ? 'ro' : 'rw'}`))).toContain(`${dir}:${dir}:ro`);
    expect(auditOptionsFromEnv(agg.environment).webhook.batch).toMatchObject({ mode: 'blocking', batch: { maxBatchWaitMs: 5_000 } });
    for (const [name, s] of Object.entries(rendered.services)) {
      if (name === 'aggregator') continue;
      expect(Object.keys(s.environment ?? {}).filter((k) => k.startsWith('KUBE_AUDIT_')), name).toEqual([]);
    }
    // Unset: every variable empty (kube's defaults), the log on standard output.
    const defaults = config({}).services.aggregator.environment!;
    expect(auditOptionsFromEnv(defaults).webhook.configFile).toBeUndefined();
    expect(defaults.KUBE_AUDIT_LOG_PATH).toBe('-');
  });
});

describe('npm start: the audit variables', () => {
  it('hands the webhook kubeconfig (absolute) to the front door alone and keeps the caller\'s log path', () => {
    const saved = { config: process.env.KUBE_AUDIT_WEBHOOK_CONFIG_FILE, log: process.env.KUBE_AUDIT_LOG_PATH };
    process.env.KUBE_AUDIT_WEBHOOK_CONFIG_FILE = 'audit/webhook.kubeconfig';
    process.env.KUBE_AUDIT_LOG_PATH = '/var/log/kube-ts/audit.log';
    try {
      const envs = launcherEnvironments(pkiPaths(join(tempDir('start-audit'), 'pki')));
      for (const [name, env] of Object.entries(envs)) {
        if (name === 'aggregator') {
          expect(env).toMatchObject({ KUBE_AUDIT_WEBHOOK_CONFIG_FILE: join(process.cwd(), 'audit/webhook.kubeconfig'), KUBE_AUDIT_LOG_PATH: '/var/log/kube-ts/audit.log' });
        } else {
          // Blanked, so that the value every child inherits from npm start's environment names nothing there.
          expect([undefined, ''], name).toContain(env.KUBE_AUDIT_WEBHOOK_CONFIG_FILE);
          expect(env.KUBE_AUDIT_LOG_PATH, name).toBeUndefined();
        }
      }
    } finally {
      for (const [k, v] of [['KUBE_AUDIT_WEBHOOK_CONFIG_FILE', saved.config], ['KUBE_AUDIT_LOG_PATH', saved.log]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});
