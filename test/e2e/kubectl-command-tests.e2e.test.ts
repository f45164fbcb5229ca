/**
 * What kubectl's own command tests (`npm run test:cmd`, Kubernetes' test/cmd/*.sh) found, each checked here with
 * real kubectl against core-api in a few seconds (the full suite runs for minutes).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlSession } from '../support/kubectl.session';
import { until } from '../support/until';
import { startCoreApi, startStack, type CoreApiHarness, type StackHarness } from '../support/core-api.harness';

describe('kubectl command-test behaviours', () => {
  let api: CoreApiHarness;
  const { k, ok } = kubectlSession('1.33', () => api.kubeconfig);

  beforeAll(async () => {
    api = await startCoreApi({ controllerManager: false });
    await ok(['create', 'namespace', 'cmd']);
  });

  afterAll(async () => {
    await api?.stop();
  });

  it('kubectl debug adds an ephemeral container through pods/ephemeralcontainers (debug.sh)', async () => {
    await ok(['-n', 'cmd', 'run', 'target', '--image=registry.k8s.io/nginx:1.7.9']);
    await ok(['-n', 'cmd', 'debug', 'target', '-it', '--image=busybox', '--attach=false', '--profile=general', '-c', 'debug-container']);
    const pod = JSON.parse(await ok(['-n', 'cmd', 'get', 'pod', 'target', '-o', 'json'])) as { spec: { ephemeralContainers: Array<Record<string, unknown>> } };
    // Defaulted as a container (SetDefaults_EphemeralContainer).
    expect(pod.spec.ephemeralContainers).toEqual([
      expect.objectContaining({ name: 'debug-container', image: 'busybox', imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', stdin: true, tty: true }),
    ]);
    const discovery = JSON.parse(await ok(['get', '--raw', '/api/v1'])) as { resources: Array<{ name: string; kind: string; verbs: string[] }> };
    expect(discovery.resources.find((r) => r.name === 'pods/ephemeralcontainers')).toMatchObject({ kind: 'Pod', verbs: ['get', 'patch', 'update'] });
    // Only spec.ephemeralContainers is taken from a write there; an existing one may not change or go.
    const patch = (body: unknown): Promise<{ code: number; stderr: string; stdout: string }> =>
      k(['-n', 'cmd', 'patch', 'pod', 'target', '--subresource=ephemeralcontainers', '--type=merge', '-p', JSON.stringify(body)]);
    const changed = await patch({ spec: { ephemeralContainers: [{ name: 'debug-container', image: 'alpine' }] } });
    expect(changed.code).not.toBe(0);
    expect(changed.stderr).toContain('spec.ephemeralContainers: Forbidden: existing ephemeral containers "debug-container" may not be changed');
    const removed = await patch({ spec: { ephemeralContainers: [] } });
    expect(removed.stderr).toContain('spec.ephemeralContainers: Forbidden: existing ephemeral containers "debug-container" may not be removed');
    const withPorts = await patch({ spec: { ephemeralContainers: [pod.spec.ephemeralContainers[0], { name: 'second', image: 'busybox', ports: [{ containerPort: 80 }], targetContainerName: 'nope' }] } });
    expect(withPorts.stderr).toContain('spec.ephemeralContainers[1].ports: Forbidden: cannot be set for an Ephemeral Container');
    expect(withPorts.stderr).toContain('spec.ephemeralContainers[1].targetContainerName: Not found: "nope"');
    const other = await patch({ metadata: { labels: { added: 'yes' } }, spec: { containers: [{ name: 'target', image: 'changed' }] } });
    expect(other.code, other.stderr).toBe(0);
    const after = JSON.parse(await ok(['-n', 'cmd', 'get', 'pod', 'target', '-o', 'json'])) as { metadata: { labels?: Record<string, string> }; spec: { containers: Array<{ image: string }> } };
    expect(after.metadata.labels?.added).toBeUndefined();
    expect(after.spec.containers[0].image).toBe('registry.k8s.io/nginx:1.7.9');
    // And a pod's own update may not add one.
    const direct = await k(['-n', 'cmd', 'create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'eph' }, spec: { containers: [{ name: 'c', image: 'busybox' }], ephemeralContainers: [{ name: 'e', image: 'busybox' }] } }));
    expect(direct.stderr).toContain('spec.ephemeralContainers: Forbidden: cannot be set on create');
  });

  it("defaults a fieldRef's apiVersion to v1 and a volume without a source to emptyDir (core.sh, apply.sh)", async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'env-test-pod' },
      spec: {
        containers: [{ name: 'c', image: 'busybox', env: [{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }], volumeMounts: [{ name: 'scratch', mountPath: '/s' }] }],
        volumes: [{ name: 'scratch' }],
      },
    };
    await ok(['-n', 'cmd', 'create', '-f', '-'], JSON.stringify(pod));
    expect(await ok(['-n', 'cmd', 'describe', 'pod', 'env-test-pod'])).toMatch(/POD_NAME:\s+env-test-pod \(v1:metadata\.name\)/);
    const stored = JSON.parse(await ok(['-n', 'cmd', 'get', 'pod', 'env-test-pod', '-o', 'json'])) as { spec: { volumes: unknown[] } };
    expect(stored.spec.volumes).toEqual([{ name: 'scratch', emptyDir: {} }]);
    // Templates too: a Deployment's pod template is defaulted the same way.
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: pod.spec } } };
    await ok(['-n', 'cmd', 'create', '-f', '-'], JSON.stringify(deployment));
    expect(await ok(['-n', 'cmd', 'get', 'deployment', 'd', '-o', 'jsonpath={.spec.template.spec.volumes[0].emptyDir}|{.spec.template.spec.containers[0].env[0].valueFrom.fieldRef.apiVersion}'])).toBe('{}|v1');
  });

  it('a watch ends on timeoutSeconds only, not on the timeout parameter (request-timeout.sh)', async () => {
    await ok(['-n', 'cmd', 'create', 'configmap', 'watched']);
    // kubectl --request-timeout=1 --watch sends ?timeout=1s: the server keeps the watch open and the client gives up
    // reading the body (a server-closed stream would end with EOF, logged as nothing). test-cmd's older script expects
    // the words of the Go of its day, "Timeout exceeded while reading body".
    const client = await k(['-n', 'cmd', 'get', 'configmap', 'watched', '--request-timeout=1', '--watch', '-v=6'], undefined, 30_000);
    expect(client.stdout).toMatch(/^watched\s+0\s+/m);
    expect(client.stderr).toMatch(/Unable to decode an event from the watch stream" err="(context deadline exceeded|net\/http: request canceled)/);
    // timeoutSeconds ends it on the server: the stream closes cleanly.
    const started = Date.now();
    const server = await k(['get', '--raw', '/api/v1/namespaces/cmd/configmaps?watch=true&timeoutSeconds=1'], undefined, 60_000);
    expect(server.code, server.stderr).toBe(0);
    // Well short of any other end (kube's watch timeout is 30 to 60 min; k kills at 60 s), with room for kubectl's
    // start and discovery on a loaded machine.
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 150_000);

  it("a body that is no JSON at a kind's path is kube's unrecognized object (create.sh)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cmd-'));
    const file = join(dir, 'valid-pod.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: valid-pod\nspec:\n  containers:\n  - name: c\n    image: busybox\n');
    // --raw posts the file's bytes as they are, with the client's JSON content type.
    const r = await k(['create', '--raw', '/api/v1/namespaces', '-f', file]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("the object provided is unrecognized (must be of type Namespace): couldn't get version/kind; json parse error: invalid character 'a' looking for beginning of value");
  });

  it("a strategic merge patch whose result has the wrong type is the unstructured converter's 422 (core.sh)", async () => {
    await ok(['-n', 'cmd', 'create', 'configmap', 'patched']);
    const r = await k(['-n', 'cmd', 'patch', 'configmap', 'patched', '-p', '{"metadata":{"labels":"invalid"}}']);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe('The request is invalid: patch: Invalid value: "map[metadata:map[labels:invalid]]": cannot restore map from string');
    // A JSON merge patch's result is decoded from JSON instead: the decoder's words, on the patched object.
    const merge = await k(['-n', 'cmd', 'patch', 'configmap', 'patched', '--type=merge', '-p', '{"metadata":{"labels":"invalid"}}']);
    expect(merge.stderr).toContain('json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string');
  });

  it('a patch that changes nothing is no write: kubectl says "patched (no change)" (core.sh)', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'valid-pod', labels: { name: 'valid-pod' } }, spec: { containers: [{ name: 'c', image: 'busybox', resources: { limits: { cpu: '1', memory: '512Mi' } } }] } };
    await ok(['-n', 'cmd', 'create', '-f', '-'], JSON.stringify(pod));
    const before = await ok(['-n', 'cmd', 'get', 'pod', 'valid-pod', '-o', 'jsonpath={.metadata.resourceVersion}']);
    expect((await ok(['-n', 'cmd', 'patch', 'pod', 'valid-pod', '-p', '{"metadata":{"labels":{"name":"valid-pod"}}}'])).trim()).toBe('pod/valid-pod patched (no change)');
    expect(await ok(['-n', 'cmd', 'get', 'pod', 'valid-pod', '-o', 'jsonpath={.metadata.resourceVersion}'])).toBe(before);
  });

  it('an update with resourceVersion "0" is unconditional where the kind allows one (core.sh)', async () => {
    await ok(['create', '-f', '-'], JSON.stringify({ kind: 'Node', apiVersion: 'v1', metadata: { name: 'node-v1-test' } }));
    const replace = (dryRun: boolean): Promise<string> =>
      ok(['replace', ...(dryRun ? ['--dry-run=server'] : []), '-f', '-'], JSON.stringify({ kind: 'Node', apiVersion: 'v1', metadata: { name: 'node-v1-test', annotations: { a: 'b' }, resourceVersion: '0' } }));
    expect(await replace(true)).toContain('node/node-v1-test replaced (server dry run)');
    expect(await replace(false)).toContain('node/node-v1-test replaced');
    expect(await ok(['get', 'node', 'node-v1-test', '-o', 'jsonpath={.metadata.annotations.a}'])).toBe('b');
  });
});

describe('kubectl command-test behaviours through the front door', () => {
  let stack: StackHarness;
  const { k, ok } = kubectlSession('1.33', () => stack.kubeconfig);

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('carries impersonated groups to the backend as sent, commas and all (authorization.sh: --as-group=,,,chameleon)', async () => {
    const review = JSON.parse(await ok(['auth', 'whoami', '-o', 'json', '--as=user1', '--as-group=group2', '--as-group=group1', '--as-group=,,,chameleon'])) as { status: { userInfo: { username: string; groups: string[] } } };
    expect(review.status.userInfo).toMatchObject({ username: 'user1', groups: ['group2', 'group1', ',,,chameleon', 'system:authenticated'] });
  });

  it("applies a List of custom resources that keep unknown fields, twice (crd.sh: kubectl validated against our v2 schema and sent a strategic merge patch)", async () => {
    const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'foos.company.com' }, spec: { group: 'company.com', scope: 'Namespaced', names: { plural: 'foos', kind: 'Foo' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] } };
    await ok(['create', '-f', '-'], JSON.stringify(crd));
    await ok(['wait', '--for=condition=Established', 'crd/foos.company.com', '--timeout=60s']);
    const list = (someField: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'company.com/v1', kind: 'Foo', metadata: { name: 'test-list', namespace: 'default' }, someField, otherField: 'field2' }] });
    // kubectl finds the new kind in discovery and OpenAPI when they have caught up.
    expect(await until(async () => (await k(['apply', '-f', '-'], list('field1'))).code === 0, 30_000)).toBe(true);
    const again = await k(['apply', '-f', '-'], list('modifiedField'));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('warning');
    expect(await ok(['get', 'foos', 'test-list', '-n', 'default', '-o', 'jsonpath={.someField}'])).toBe('modifiedField');
  });

  it('indents JSON for curl, Wget and browsers or ?pretty=true, as kube-apiserver does; /version always (authorization.sh greps `"allowed": true`)', async () => {
    const curl = { 'User-Agent': 'curl/8.5.0' };
    expect((await stack.request('GET', '/version')).body).toMatch(/^\{\n  "major": "1",\n/);
    for (const path of ['/api', '/apis', '/apis/apps', '/api/v1/namespaces/default', '/api/v1/namespaces/default/configmaps/none']) {
      const pretty = await stack.request('GET', path, { headers: curl });
      expect(pretty.body, path).toMatch(/^\{\n  "/);
      expect(JSON.parse(pretty.body), path).toEqual((await stack.request('GET', path)).json());
      expect((await stack.request('GET', path)).body, path).toMatch(/^\{"/);
    }
    expect((await stack.request('GET', '/api/v1/namespaces/default?pretty=true')).body).toMatch(/^\{\n  "/);
    expect((await stack.request('GET', '/api/v1/namespaces/default?pretty=false', { headers: curl })).body).toMatch(/^\{"/);
    const sar = await stack.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      headers: { ...curl, 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'bob', resourceAttributes: { verb: 'get', resource: 'pods' } } }),
    });
    expect(sar.body).toContain('"allowed": false');
  });
});
