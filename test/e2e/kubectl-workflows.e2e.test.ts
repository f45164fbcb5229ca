/**
 * What platform teams' kubectl workflows show that a real 1.33 kube-apiserver and kube-controller-manager show too,
 * with the oldest and the newest kubectl, on one stack: the deprecation warning of v1 Endpoints, the event source
 * and counts of `kubectl describe`, the uid precondition of `kubectl replace`.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RestClient } from '@kube/client';
import { EventRecorder } from '../../apps/controller-manager/src/event.recorder';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { until } from '../support/until';

type Json = Record<string, any>;

const ENDPOINTS_WARNING = 'Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice';

let stack: StackHarness;
let client: RestClient;

beforeAll(async () => {
  stack = await startStack();
  const pem = (path: string): string => readFileSync(path, 'utf8');
  client = new RestClient({ url: stack.url, caPem: pem(stack.pki.caCert), certPem: pem(stack.pki.adminCert), keyPem: pem(stack.pki.adminKey) });
});

afterAll(async () => {
  await stack?.stop();
});

describe.each(['1.27', '1.33'])('kubectl %s workflows', (version) => {
  const ns = `wf-${version.replace('.', '-')}`;
  const { k, ok, watch } = kubectlSession(version, () => stack.kubeconfig);

  beforeAll(async () => {
    await ok(['create', 'namespace', ns]);
  });

  it('warns that v1 Endpoints are deprecated on a get, a list and a watch, not on EndpointSlices', async () => {
    const get = await k(['get', 'endpoints', 'kubernetes', '-n', 'default']);
    expect(get.code).toBe(0);
    expect(get.stderr).toContain(ENDPOINTS_WARNING);
    const list = await k(['get', 'ep', '-A']);
    expect(list.stderr).toContain(ENDPOINTS_WARNING);
    const watched = await watch(['get', 'ep', 'kubernetes', '-n', 'default', '-w'], (out) => out.includes('kubernetes'));
    expect(watched.stderr).toContain(ENDPOINTS_WARNING);
    const slices = await k(['get', 'endpointslices', '-n', 'default']);
    expect(slices.code).toBe(0);
    expect(slices.stderr).not.toContain('deprecated');
  });

  it('describes a Deployment with its controller as the events\' source', async () => {
    await ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=1', '-n', ns]);
    let described = '';
    const seen = await until(async () => {
      described = (await k(['describe', 'deployment', 'web', '-n', ns])).stdout;
      return described.includes('ScalingReplicaSet');
    }, 60_000);
    expect(seen, described).toBe(true);
    expect(described).toMatch(/Normal\s+ScalingReplicaSet\s+\S+\s+deployment-controller\s+Scaled up replica set web-/);
    const rs = JSON.parse(await ok(['get', 'rs', '-n', ns, '-l', 'app=web', '-o', 'json'])) as Json;
    const rsName = rs.items[0].metadata.name as string;
    await until(async () => (await k(['describe', 'rs', rsName, '-n', ns])).stdout.includes('SuccessfulCreate'), 60_000);
    expect((await ok(['describe', 'rs', rsName, '-n', ns]))).toMatch(/Normal\s+SuccessfulCreate\s+\S+\s+replicaset-controller\s+Created pod: web-/);
  });

  it('counts an event seen again instead of writing another, and combines the 10th distinct message on the same reason', async () => {
    const cm = JSON.parse(await ok(['create', 'configmap', 'evented', '-n', ns, '-o', 'json'])) as Json;
    const recorder = new EventRecorder(client, 'test-controller');
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'evented', namespace: ns, uid: cm.metadata.uid as string };
    for (let i = 0; i < 3; i++) recorder.warning(ref, 'Unhappy', 'the same thing again');
    await recorder.flush();
    const events = async (): Promise<Json[]> => (JSON.parse(await ok(['get', 'events', '-n', ns, '--field-selector', 'involvedObject.name=evented', '-o', 'json'])) as Json).items as Json[];
    const once = await events();
    expect(once.map((e) => [e.reason, e.count, e.source.component, e.message])).toEqual([['Unhappy', 3, 'test-controller', 'the same thing again']]);
    expect(await ok(['describe', 'configmap', 'evented', '-n', ns])).toMatch(/Warning\s+Unhappy\s+\S+ \(x3 over \S+\)\s+test-controller\s+the same thing again/);
    // client-go's aggregator: 10 distinct messages about one object and reason within 10 minutes, then one combined event counted on.
    for (let i = 1; i <= 11; i++) recorder.normal(ref, 'Changed', `change ${i}`);
    await recorder.flush();
    const changed = (await events()).filter((e) => e.reason === 'Changed');
    const combined = changed.filter((e) => (e.message as string).startsWith('(combined from similar events): '));
    expect(changed.length - combined.length).toBe(9);
    expect(combined.map((e) => [e.count, e.message])).toEqual([[2, '(combined from similar events): change 11']]);
  });

  it('selects by the fields kube converts for each kind, and refuses the others with kube\'s message', async () => {
    await ok(['create', 'configmap', 'selected', '-n', ns]);
    const recorder = new EventRecorder(client, 'test-controller');
    recorder.normal({ apiVersion: 'v1', kind: 'ConfigMap', name: 'selected', namespace: ns, uid: 'u-selected' }, 'Selected', 'by regarding');
    await recorder.flush();
    // events.k8s.io/v1 names the involved object `regarding` (client-go's and controller-runtime's EventsV1 clients).
    const v1 = JSON.parse(await ok(['get', 'events.v1.events.k8s.io', '-n', ns, '--field-selector', 'regarding.kind=ConfigMap,regarding.name=selected,reportingController=test-controller', '-o', 'json'])) as Json;
    expect((v1.items as Json[]).map((e) => e.note)).toEqual(['by regarding']);
    const legacyName = await k(['get', 'events.v1.events.k8s.io', '-n', ns, '--field-selector', 'involvedObject.name=selected']);
    expect(legacyName.stderr).toContain('field label not supported: involvedObject.name');
    for (const [resource, selector] of [['nodes', 'spec.unschedulable=false'], ['replicationcontrollers', 'status.replicas=0'], ['certificatesigningrequests', 'spec.signerName=kubernetes.io/kube-apiserver-client']]) {
      const r = await k(['get', resource, '-A', '--field-selector', selector]);
      expect(r.code, `${resource}: ${r.stderr}`).toBe(0);
    }
    const pods = await k(['get', 'pods', '-n', ns, '--field-selector', 'spec.nodename=x']);
    expect(pods.stderr).toContain(`Error from server (BadRequest): Unable to find "/v1, Resource=pods" that match label selector "", field selector "spec.nodename=x": field label not supported: spec.nodename`);
    const jobs = await k(['get', 'jobs', '-n', ns, '--field-selector', 'status.succeeded=1']);
    expect(jobs.stderr).toContain('field label "status.succeeded" not supported for batchv1.Job');
    const configmaps = await k(['get', 'configmaps', '-n', ns, '--field-selector', 'data.a=1']);
    expect(configmaps.stderr).toContain('"data.a" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });

  it('drops the omitempty zeros of built-in kinds as kube\'s Go types do, from clients and controllers alike', async () => {
    const manifest = `apiVersion: apps/v1
kind: Deployment
metadata: {name: zeros, labels: {}, annotations: {}}
spec:
  replicas: 0
  paused: false
  minReadySeconds: 0
  selector: {matchLabels: {app: zeros}}
  template:
    metadata: {labels: {app: zeros}}
    spec:
      hostNetwork: false
      imagePullSecrets: []
      containers: [{name: c, image: nginx, args: [], imagePullPolicy: "", ports: [{containerPort: 80, hostPort: 0}]}]
`;
    const created = JSON.parse(await ok(['apply', '-n', ns, '-f', '-', '-o', 'json'], manifest)) as Json;
    expect(Object.keys(created.metadata)).not.toContain('labels');
    expect(created.spec.replicas).toBe(0);
    for (const field of ['paused', 'minReadySeconds']) expect(Object.keys(created.spec)).not.toContain(field);
    const pod = created.spec.template.spec as Json;
    expect(Object.keys(pod)).not.toContain('hostNetwork');
    expect(Object.keys(pod)).not.toContain('imagePullSecrets');
    expect(pod.containers[0]).toMatchObject({ imagePullPolicy: 'Always', ports: [{ containerPort: 80, protocol: 'TCP' }] });
    expect(Object.keys(pod.containers[0])).not.toContain('args');
    expect(Object.keys(pod.containers[0].ports[0])).not.toContain('hostPort');
    // Server-side apply merges, then converts to the Go type too.
    const applied = JSON.parse(await ok(['apply', '--server-side', '--field-manager=zeros', '-n', ns, '-f', '-', '-o', 'json'], manifest.replace('name: zeros,', 'name: zeros-ssa,'))) as Json;
    expect(Object.keys(applied.spec)).not.toContain('paused');
    expect(Object.keys(applied.spec.template.spec)).not.toContain('hostNetwork');
    // The deployment controller's status of a Deployment with nothing available: the zero counts are not written.
    let status: Json = {};
    expect(await until(async () => {
      status = (JSON.parse(await ok(['get', 'deployment', 'zeros', '-n', ns, '-o', 'json'])) as Json).status as Json;
      return status.observedGeneration === 1;
    }, 60_000)).toBe(true);
    expect(Object.keys(status).sort()).toEqual(['conditions', 'observedGeneration']);
  });

  it('refuses unknown fields in kube\'s words: a body cannot be handled as its kind, a patch is invalid', async () => {
    const manifest = `apiVersion: v1
kind: ConfigMap
metadata: {name: strict, namespace: ${ns}}
spec: {foo: 1}
data: {a: "1"}
`;
    const created = await k(['apply', '-f', '-'], manifest);
    expect(created.code).toBe(1);
    expect(created.stderr).toContain('Error from server (BadRequest): error when creating "STDIN": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "spec"');
    await ok(['create', 'configmap', 'strict', '-n', ns]);
    // kubectl patch sends no fieldValidation (the server warns); a client asking for Strict gets the patchers' 422.
    const warned = await k(['patch', 'configmap', 'strict', '-n', ns, '-p', '{"spec":{"foo":1}}']);
    expect(warned.stderr).toContain('Warning: unknown field "spec"');
    const patched = await stack.request('PATCH', `/api/v1/namespaces/${ns}/configmaps/strict?fieldValidation=Strict`, { body: '{"spec":{"foo":1}}', headers: { 'Content-Type': 'application/strategic-merge-patch+json' } });
    expect(patched.status).toBe(422);
    // GroupKind{} prints as nothing: kube's message starts with a space.
    expect(patched.json<Json>().message).toBe(' "" is invalid: patch: Invalid value: "map[spec:map[foo:1]]": strict decoding error: unknown field "spec"');
  });

  it('refuses to replace an object that was deleted and recreated since the manifest was read (uid precondition)', async () => {
    const old = await ok(['create', 'configmap', 'swapped', '--from-literal=a=1', '-n', ns, '-o', 'yaml']);
    await ok(['delete', 'configmap', 'swapped', '-n', ns]);
    const recreated = JSON.parse(await ok(['create', 'configmap', 'swapped', '--from-literal=a=2', '-n', ns, '-o', 'json'])) as Json;
    const stale = old.replace(/^ {2}resourceVersion: .*\n/m, '').replace('a: "1"', 'a: "3"');
    const oldUid = /^ {2}uid: (\S+)$/m.exec(old)?.[1] as string;
    const r = await k(['replace', '-f', '-'], stale);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `Error from server (Conflict): error when replacing "STDIN": Operation cannot be fulfilled on configmaps "swapped": StorageError: invalid object, Code: 4, Key: /registry/configmaps/${ns}/swapped, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${oldUid}, UID in object meta: ${recreated.metadata.uid as string}`,
    );
    expect(await ok(['get', 'configmap', 'swapped', '-n', ns, '-o', 'jsonpath={.data.a}'])).toBe('2');
  });
});
