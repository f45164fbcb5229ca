/**
 * Helm 4 against kube-ts with Helm's defaults (server-side apply): install, upgrade (a changed value and a removed
 * field), rollback and uninstall of a chart with a ConfigMap, a Secret, a Service, a CRD and an object of it.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateHelm, tempDir } from '@kube/testing';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';

const ROOT = join(__dirname, '..', '..');
const helm = locateHelm(join(ROOT, '.local', 'tools'));
const NS = 'helm-ssa';

const CHART: Record<string, string> = {
  'Chart.yaml': 'apiVersion: v2\nname: demo\nversion: 0.1.0\nappVersion: "1.0"\n',
  'values.yaml': 'greeting: hello\nextra: kept\nport: 80\nreplicas: 1\n',
  'crds/widgets.yaml': `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.helm.example.com
spec:
  group: helm.example.com
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget }
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: { type: integer }
              color: { type: string }
`,
  'templates/configmap.yaml': `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-config
  labels: { app.kubernetes.io/managed-by: {{ .Release.Service }} }
data:
  greeting: {{ .Values.greeting | quote }}
  {{- if .Values.extra }}
  extra: {{ .Values.extra | quote }}
  {{- end }}
`,
  'templates/secret.yaml': `apiVersion: v1
kind: Secret
metadata:
  name: {{ .Release.Name }}-secret
type: Opaque
stringData:
  password: {{ .Values.greeting | quote }}
`,
  'templates/service.yaml': `apiVersion: v1
kind: Service
metadata:
  name: {{ .Release.Name }}-svc
spec:
  selector: { app: demo }
  ports:
  - name: http
    port: {{ .Values.port }}
    targetPort: 8080
`,
  'templates/widget.yaml': `apiVersion: helm.example.com/v1
kind: Widget
metadata:
  name: {{ .Release.Name }}-widget
spec:
  size: {{ .Values.replicas }}
  {{- if .Values.extra }}
  color: {{ .Values.extra }}
  {{- end }}
`,
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe.skipIf(!helm.path)(`Helm 4 (server-side apply by default) ${helm.reason ?? ''}`, () => {
  let stack: StackHarness;
  let chart: string;
  const { ok } = kubectlSession('1.33', () => stack.kubeconfig);

  const run = (args: string[]): Promise<Run> =>
    new Promise((resolve) => {
      const child = spawn(helm.path as string, [...args, '--kubeconfig', stack.kubeconfig, '--namespace', NS], { env: { ...process.env, HELM_CACHE_HOME: join(chart, '..', 'cache'), HELM_CONFIG_HOME: join(chart, '..', 'config'), HELM_DATA_HOME: join(chart, '..', 'data') } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  const helmOk = async (args: string[]): Promise<string> => {
    const r = await run(args);
    expect(r.code, `helm ${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r.stdout;
  };
  const json = async (args: string[]): Promise<Record<string, any>> => JSON.parse(await ok([...args, '-n', NS, '-o', 'json'])) as Record<string, any>;

  beforeAll(async () => {
    stack = await startStack();
    const dir = tempDir('helm-chart');
    chart = join(dir, 'demo');
    for (const [file, text] of Object.entries(CHART)) {
      mkdirSync(join(chart, file, '..'), { recursive: true });
      writeFileSync(join(chart, file), text);
    }
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('installs the chart: CRD first, then every object, each applied by the "helm" field manager', async () => {
    await helmOk(['install', 'demo', chart, '--create-namespace']);
    const cm = await json(['get', 'configmap', 'demo-config', '--show-managed-fields']);
    expect(cm.data).toEqual({ greeting: 'hello', extra: 'kept' });
    const managers = (cm.metadata.managedFields as Array<{ manager: string; operation: string }>).map((m) => `${m.manager}/${m.operation}`);
    expect(managers).toContain('helm/Apply');
    expect((await json(['get', 'secret', 'demo-secret'])).data).toEqual({ password: Buffer.from('hello').toString('base64') });
    const svc = await json(['get', 'service', 'demo-svc']);
    expect(svc.spec.ports).toEqual([{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 }]);
    expect((await json(['get', 'widgets', 'demo-widget'])).spec).toEqual({ size: 1, color: 'kept' });
    expect(await helmOk(['status', 'demo'])).toMatch(/STATUS: deployed/);
  });

  it('upgrades: a changed value is applied and a field the chart no longer renders is removed', async () => {
    await helmOk(['upgrade', 'demo', chart, '--set', 'greeting=bonjour', '--set', 'extra=', '--set', 'port=8080', '--set', 'replicas=3']);
    const cm = await json(['get', 'configmap', 'demo-config']);
    expect(cm.data).toEqual({ greeting: 'bonjour' });
    expect((await json(['get', 'service', 'demo-svc'])).spec.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP', targetPort: 8080 }]);
    expect((await json(['get', 'widgets', 'demo-widget'])).spec).toEqual({ size: 3 });
    expect(await helmOk(['history', 'demo'])).toMatch(/2\s.*deployed/);
  });

  it('keeps a field another manager owns across an upgrade', async () => {
    await ok(['label', 'configmap', 'demo-config', '-n', NS, 'team=blue']);
    await helmOk(['upgrade', 'demo', chart, '--set', 'greeting=hola', '--set', 'extra=']);
    const cm = await json(['get', 'configmap', 'demo-config']);
    expect(cm.metadata.labels).toMatchObject({ team: 'blue', 'app.kubernetes.io/managed-by': 'Helm' });
    expect(cm.data).toEqual({ greeting: 'hola' });
  });

  it('rolls back to the first release', async () => {
    await helmOk(['rollback', 'demo', '1']);
    expect((await json(['get', 'configmap', 'demo-config'])).data).toEqual({ greeting: 'hello', extra: 'kept' });
    expect((await json(['get', 'service', 'demo-svc'])).spec.ports[0].port).toBe(80);
    expect((await json(['get', 'widgets', 'demo-widget'])).spec).toEqual({ size: 1, color: 'kept' });
  });

  it('uninstalls every templated object and keeps the CRD, as Helm does', async () => {
    await helmOk(['uninstall', 'demo', '--wait']);
    for (const [kind, name] of [
      ['configmap', 'demo-config'],
      ['secret', 'demo-secret'],
      ['service', 'demo-svc'],
      ['widgets', 'demo-widget'],
    ]) {
      const r = await kubectlSession('1.33', () => stack.kubeconfig).k(['get', kind, name, '-n', NS]);
      expect(r.stderr, `${kind}/${name}`).toMatch(/NotFound|not found/);
    }
    expect(await ok(['get', 'crd', 'widgets.helm.example.com', '-o', 'name'])).toContain('widgets.helm.example.com');
    expect((await run(['list', '-q'])).stdout.trim()).toBe('');
  });
});
