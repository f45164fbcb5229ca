import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlSession } from '../support/kubectl.session';
import { startCoreApi, startStack, type CoreApiHarness } from '../support/core-api.harness';

/**
 * The oldest and the newest kubectl we support, each against core-api directly and through the aggregator
 * (the front door users get from `npm start`): kubectl must not tell the difference.
 */
const TARGETS: Array<[string, 'core-api' | 'aggregator']> = [
  ['1.27', 'core-api'],
  ['1.33', 'core-api'],
  ['1.27', 'aggregator'],
  ['1.33', 'aggregator'],
];

describe.each(TARGETS)('kubectl %s against %s', (version, target) => {
  let api: CoreApiHarness;
  const { k, ok, watch } = kubectlSession(version, () => api.kubeconfig);

  beforeAll(async () => {
    api = target === 'core-api' ? await startCoreApi() : await startStack();
  });

  afterAll(async () => {
    await api?.stop();
  });

  it('reports a version and lists api-resources with short names and verbs', async () => {
    expect(await ok(['version', '-o', 'json'])).toContain('"gitVersion": "v1.33.0"');
    const resources = await ok(['api-resources', '-o', 'wide']);
    expect(resources).toMatch(/^configmaps\s+cm\s+v1\s+true\s+ConfigMap\s+create,delete,deletecollection,get,list,patch,update,watch/m);
    expect(resources).toMatch(/^leases\s+coordination\.k8s\.io\/v1\s+true\s+Lease/m);
    expect(resources).toMatch(/^namespaces\s+ns\s+v1\s+false\s+Namespace/m);
  });

  it('bootstraps the system namespaces and the kubernetes service', async () => {
    const ns = await ok(['get', 'namespaces']);
    for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) expect(ns).toMatch(new RegExp(`^${name}\\s+Active\\s+`, 'm'));
    expect(await ok(['get', 'svc', 'kubernetes', '-n', 'default'])).toMatch(/^kubernetes\s+ClusterIP\s+10\.96\.0\.1\s+<none>\s+443\/TCP\s+/m);
  });

  it('creates from a file (201) and refuses a duplicate with AlreadyExists', async () => {
    const manifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: created\n  namespace: default\ndata:\n  a: "1"\n';
    expect(await ok(['create', '-f', '-'], manifest)).toContain('configmap/created created');
    const dup = await k(['create', '-f', '-'], manifest);
    expect(dup.code).not.toBe(0);
    expect(dup.stderr).toContain('Error from server (AlreadyExists): error when creating "STDIN": configmaps "created" already exists');
  });

  it('gets as a table, as yaml and as json', async () => {
    await ok(['create', 'configmap', 'shown', '--from-literal=x=1', '--from-literal=y=2']);
    expect(await ok(['get', 'configmap', 'shown'])).toMatch(/^NAME\s+DATA\s+AGE\n^shown\s+2\s+\d+s\n$/m);
    const yaml = await ok(['get', 'cm', 'shown', '-o', 'yaml']);
    expect(yaml).toContain('kind: ConfigMap');
    expect(yaml).toMatch(/resourceVersion: "\d+"/);
    expect(yaml).toMatch(/uid: [0-9a-f-]{36}/);
    const json = JSON.parse(await ok(['get', 'cm', 'shown', '-o', 'json']));
    expect(json.data).toEqual({ x: '1', y: '2' });
  });

  it('applies: created, unchanged, configured', async () => {
    const v1 = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  a: "1"\n';
    expect(await ok(['apply', '-f', '-'], v1)).toContain('configmap/applied created');
    expect(await ok(['apply', '-f', '-'], v1)).toContain('configmap/applied unchanged');
    expect(await ok(['apply', '-f', '-'], v1.replace('"1"', '"2"'))).toContain('configmap/applied configured');
    expect(await ok(['get', 'cm', 'applied', '-o', 'jsonpath={.data.a}'])).toBe('2');
  });

  it('patches with strategic, merge and json patches', async () => {
    await ok(['create', 'configmap', 'patched', '--from-literal=a=1']);
    await ok(['patch', 'cm', 'patched', '-p', '{"data":{"b":"2"}}']);
    await ok(['patch', 'cm', 'patched', '--type=merge', '-p', '{"data":{"a":null}}']);
    await ok(['patch', 'cm', 'patched', '--type=json', '-p', '[{"op":"add","path":"/data/c","value":"3"}]']);
    expect(JSON.parse(await ok(['get', 'cm', 'patched', '-o', 'jsonpath={.data}']))).toEqual({ b: '2', c: '3' });
    const bad = await k(['patch', 'cm', 'patched', '--type=json', '-p', '[{"op":"test","path":"/data/b","value":"nope"}]']);
    expect(bad.code).not.toBe(0);
  });

  it('merges pod containers by name with a strategic patch', async () => {
    const pod = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: app\n    image: nginx:1.25\n  - name: side\n    image: busybox:1.36\n';
    await ok(['create', '-f', '-'], pod);
    await ok(['patch', 'pod', 'web', '-p', '{"spec":{"containers":[{"name":"side","image":"busybox:1.37"}]}}']);
    const images = await ok(['get', 'pod', 'web', '-o', 'jsonpath={.spec.containers[*].image}']);
    expect(images).toBe('nginx:1.25 busybox:1.37');
    expect(await ok(['get', 'pods'])).toMatch(/^web\s+0\/2\s+Pending\s+0\s+\d+s$/m);
  });

  it('refuses replace with a stale resourceVersion (409 Conflict)', async () => {
    await ok(['create', 'configmap', 'replaced', '--from-literal=a=1']);
    const stale = JSON.parse(await ok(['get', 'cm', 'replaced', '-o', 'json']));
    await ok(['patch', 'cm', 'replaced', '-p', '{"data":{"a":"2"}}']);
    stale.data.a = '3';
    const r = await k(['replace', '-f', '-'], JSON.stringify(stale));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Operation cannot be fulfilled on configmaps "replaced": the object has been modified; please apply your changes to the latest version and try again');
    delete stale.metadata.resourceVersion;
    expect(await ok(['replace', '-f', '-'], JSON.stringify(stale))).toContain('configmap/replaced replaced');
  });

  it('labels and annotates, then selects by label and field', async () => {
    await ok(['create', 'configmap', 'sel-a']);
    await ok(['create', 'configmap', 'sel-b']);
    await ok(['label', 'cm', 'sel-a', 'tier=web']);
    await ok(['annotate', 'cm', 'sel-a', 'owner=team-x']);
    expect(await ok(['get', 'cm', 'sel-a', '-o', 'jsonpath={.metadata.annotations.owner}'])).toBe('team-x');
    expect(await ok(['get', 'cm', '-l', 'tier=web', '-o', 'name'])).toBe('configmap/sel-a\n');
    expect(await ok(['get', 'cm', '-l', 'tier!=web,!nothing', '--field-selector', 'metadata.name=sel-b', '-o', 'name'])).toBe('configmap/sel-b\n');
    const bad = await k(['get', 'cm', '--field-selector', 'spec.nope=1']);
    expect(bad.stderr).toContain('"spec.nope" is not a known field selector');
  });

  it('pages with --chunk-size', async () => {
    await ok(['create', 'namespace', 'chunks']);
    for (let i = 0; i < 7; i++) await ok(['create', 'configmap', `c${i}`, '-n', 'chunks']);
    // kube-root-ca.crt, which the controller-manager publishes in every namespace, is in the list too (once it exists).
    const ours = (lines: string): string[] => lines.trim().split('\n').filter((l) => !l.includes('kube-root-ca.crt'));
    const names = await ok(['get', 'cm', '-n', 'chunks', '--chunk-size=2', '-o', 'name']);
    expect(ours(names)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6'].map((n) => `configmap/${n}`));
    const table = await ok(['get', 'cm', '-n', 'chunks', '--chunk-size=3']);
    expect(ours(table)).toHaveLength(8);
  });

  it('describes an object', async () => {
    await ok(['create', 'configmap', 'described', '--from-literal=key=value']);
    const out = await ok(['describe', 'cm', 'described']);
    expect(out).toMatch(/^Name:\s+described$/m);
    expect(out).toMatch(/^Namespace:\s+default$/m);
    expect(out).toContain('key');
  });

  it('explains types from OpenAPI', async () => {
    expect(await ok(['explain', 'configmaps'])).toMatch(/KIND:\s+ConfigMap/);
    const containers = await ok(['explain', 'pods.spec.containers']);
    expect(containers).toMatch(/FIELD:\s+containers/);
    expect(containers).toContain('image');
  });

  it('watches with get -w (synthetic ADDED, then changes)', async () => {
    await ok(['create', 'configmap', 'watched']);
    // Read until it has shown the later create (kubectl's start may take seconds on a loaded machine).
    const watching = watch(['get', 'cm', '-w'], (out) => /^watched-later\s+0\s+/m.test(out));
    await new Promise((r) => setTimeout(r, 2000));
    await ok(['create', 'configmap', 'watched-later']);
    const r = await watching;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^watched\s+0\s+/m);
    expect(r.stdout).toMatch(/^watched-later\s+0\s+/m);
    const single = await watch(['get', 'cm', 'watched', '-w', '-o', 'name'], (out) => out.includes('configmap/watched'));
    expect(single.stdout).toContain('configmap/watched');
  });

  it('deletes and waits until gone', async () => {
    await ok(['create', 'configmap', 'doomed']);
    expect(await ok(['delete', 'cm', 'doomed'])).toContain('configmap "doomed" deleted');
    const gone = await k(['get', 'cm', 'doomed']);
    expect(gone.stderr).toContain('Error from server (NotFound): configmaps "doomed" not found');
  });

  it('empties a namespace when it is deleted', async () => {
    await ok(['create', 'namespace', 'tmp']);
    await ok(['create', 'configmap', 'inside', '-n', 'tmp']);
    await ok(['create', 'secret', 'generic', 'inside', '-n', 'tmp', '--from-literal=a=b']);
    expect(await ok(['delete', 'namespace', 'tmp', '--timeout=30s'])).toContain('namespace "tmp" deleted');
    const gone = await k(['get', 'namespace', 'tmp']);
    expect(gone.stderr).toContain('namespaces "tmp" not found');
    const raw = await api.request('GET', '/api/v1/namespaces/tmp/configmaps');
    expect(raw.json<{ items: unknown[] }>().items).toEqual([]);
    const refused = await k(['create', 'configmap', 'x', '-n', 'tmp']);
    expect(refused.stderr).toContain('namespaces "tmp" not found');
  });

  it('allocates service cluster IPs and node ports without duplicates', async () => {
    await ok(['create', 'service', 'clusterip', 'svc-a', '--tcp=80:8080']);
    await ok(['create', 'service', 'nodeport', 'svc-b', '--tcp=81:8081']);
    const a = await ok(['get', 'svc', 'svc-a', '-o', 'jsonpath={.spec.clusterIP}']);
    const b = await ok(['get', 'svc', 'svc-b', '-o', 'jsonpath={.spec.clusterIP}']);
    expect(a).toMatch(/^10\.(9[6-9]|10\d|11[01])\.\d+\.\d+$/);
    expect(b).not.toBe(a);
    const nodePort = Number(await ok(['get', 'svc', 'svc-b', '-o', 'jsonpath={.spec.ports[0].nodePort}']));
    expect(nodePort).toBeGreaterThanOrEqual(30000);
    expect(nodePort).toBeLessThanOrEqual(32767);
    expect(await ok(['get', 'svc', 'svc-b'])).toMatch(new RegExp(`^svc-b\\s+NodePort\\s+${b.replace(/\./g, '\\.')}\\s+<none>\\s+81:${nodePort}/TCP\\s+`, 'm'));
    const taken = await k(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc-c' }, spec: { clusterIP: a, ports: [{ port: 80 }] } }));
    expect(taken.stderr).toContain('provided IP is already allocated');
    await ok(['delete', 'svc', 'svc-a']);
    await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc-c' }, spec: { clusterIP: a, ports: [{ port: 80 }] } }));
  });
});
