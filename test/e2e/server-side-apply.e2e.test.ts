import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';

const CM = (name: string, data: Record<string, string>): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n${Object.entries(data)
    .map(([k, v]) => `  ${k}: "${v}"`)
    .join('\n')}\n`;

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: pools.ssa.example.com
spec:
  group: ssa.example.com
  scope: Namespaced
  names: { plural: pools, singular: pool, kind: Pool }
  versions:
  - name: v1
    served: true
    storage: true
    subresources: { status: {} }
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              members:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: { type: string }
                    weight: { type: integer }
          status:
            type: object
            properties:
              ready: { type: boolean }
`;

const POOL = (members: Array<{ name: string; weight?: number }>): string =>
  `apiVersion: ssa.example.com/v1\nkind: Pool\nmetadata:\n  name: p\nspec:\n  members:\n${members.map((m) => `  - name: ${m.name}${m.weight !== undefined ? `\n    weight: ${m.weight}` : ''}`).join('\n')}\n`;

interface Entry {
  manager: string;
  operation: string;
  subresource?: string;
  fieldsV1: Record<string, unknown>;
}

describe.each(['1.27', '1.33'])('server-side apply with kubectl %s', (version) => {
  let stack: StackHarness;
  const { k, ok } = kubectlSession(version, () => stack.kubeconfig);
  const ns = `ssa-${version.replace('.', '-')}`;
  const managed = async (args: string[]): Promise<Entry[]> => JSON.parse(await ok([...args, '-n', ns, '-o', 'jsonpath={.metadata.managedFields}'])) as Entry[];

  beforeAll(async () => {
    stack = await startStack();
    await ok(['create', 'namespace', ns]);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('creates, applies unchanged (no write), updates, and removes a field left out', async () => {
    expect(await ok(['apply', '--server-side', '-n', ns, '-f', '-'], CM('one', { a: '1', b: '2' }))).toContain('configmap/one serverside-applied');
    const entries = await managed(['get', 'configmap', 'one']);
    expect(entries).toEqual([expect.objectContaining({ manager: 'kubectl', operation: 'Apply', fieldsV1: { 'f:data': { 'f:a': {}, 'f:b': {} } } })]);
    const rv = await ok(['get', 'configmap', 'one', '-n', ns, '-o', 'jsonpath={.metadata.resourceVersion}']);
    await ok(['apply', '--server-side', '-n', ns, '-f', '-'], CM('one', { a: '1', b: '2' }));
    expect(await ok(['get', 'configmap', 'one', '-n', ns, '-o', 'jsonpath={.metadata.resourceVersion}'])).toBe(rv);
    await ok(['apply', '--server-side', '-n', ns, '-f', '-'], CM('one', { a: '10' }));
    expect(JSON.parse(await ok(['get', 'configmap', 'one', '-n', ns, '-o', 'jsonpath={.data}']))).toEqual({ a: '10' });
  });

  it('reports conflicts as kube does and takes fields over with --force-conflicts', async () => {
    const r = await k(['apply', '--server-side', '--field-manager=other', '-n', ns, '-f', '-'], CM('one', { a: '20' }));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .data.a');
    await ok(['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-n', ns, '-f', '-'], CM('one', { a: '20' }));
    expect(await ok(['get', 'configmap', 'one', '-n', ns, '-o', 'jsonpath={.data.a}'])).toBe('20');
    const owners = (await managed(['get', 'configmap', 'one'])).map((e) => e.manager);
    expect(owners).toEqual(['other']);
  });

  it('migrates client-side apply to server-side apply; other managers conflict with kubectl-client-side-apply', async () => {
    await ok(['apply', '-n', ns, '-f', '-'], CM('csa', { key: 'v1' }));
    expect((await managed(['get', 'configmap', 'csa'])).map((e) => [e.manager, e.operation])).toEqual([['kubectl-client-side-apply', 'Update']]);
    const other = await k(['apply', '--server-side', '--field-manager=someone', '-n', ns, '-f', '-'], CM('csa', { key: 'v2' }));
    expect(other.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.key');
    await ok(['apply', '--server-side', '-n', ns, '-f', '-'], CM('csa', { key: 'v2' }));
    expect(await ok(['get', 'configmap', 'csa', '-n', ns, '-o', 'jsonpath={.data.key}'])).toBe('v2');
    const lastApplied = await ok(['get', 'configmap', 'csa', '-n', ns, '-o', "jsonpath={.metadata.annotations['kubectl\\.kubernetes\\.io/last-applied-configuration']}"]);
    expect(JSON.parse(lastApplied).data).toEqual({ key: 'v2' });
  });

  it('dry-runs server-side applies without writing', async () => {
    const out = await ok(['apply', '--server-side', '--dry-run=server', '-n', ns, '-o', 'jsonpath={.data.key}', '-f', '-'], CM('csa', { key: 'dry' }));
    expect(out).toBe('dry');
    expect(await ok(['get', 'configmap', 'csa', '-n', ns, '-o', 'jsonpath={.data.key}'])).toBe('v2');
  });

  it('merges list-type map items of a custom resource per key across managers', async () => {
    await ok(['apply', '--server-side', '-f', '-'], CRD);
    await ok(['wait', '--for=condition=Established', 'crd/pools.ssa.example.com', '--timeout=20s']);
    await ok(['apply', '--server-side', '--field-manager=a', '-n', ns, '-f', '-'], POOL([{ name: 'alpha', weight: 1 }]));
    await ok(['apply', '--server-side', '--field-manager=b', '-n', ns, '-f', '-'], POOL([{ name: 'beta', weight: 2 }]));
    expect(JSON.parse(await ok(['get', 'pool', 'p', '-n', ns, '-o', 'jsonpath={.spec.members}']))).toEqual([
      { name: 'alpha', weight: 1 },
      { name: 'beta', weight: 2 },
    ]);
    const b = (await managed(['get', 'pool', 'p'])).find((e) => e.manager === 'b');
    expect(b?.fieldsV1).toEqual({ 'f:spec': { 'f:members': { 'k:{"name":"beta"}': { '.': {}, 'f:name': {}, 'f:weight': {} } } } });
    const conflict = await k(['apply', '--server-side', '--field-manager=b', '-n', ns, '-f', '-'], POOL([{ name: 'alpha', weight: 5 }]));
    expect(conflict.stderr).toContain('conflict with "a": .spec.members[name="alpha"].weight');
    // b no longer applying beta removes it; a's item stays.
    await ok(['apply', '--server-side', '--field-manager=b', '-n', ns, '-f', '-'], POOL([]).replace('  members:\n', '  members: []\n'));
    expect(JSON.parse(await ok(['get', 'pool', 'p', '-n', ns, '-o', 'jsonpath={.spec.members}']))).toEqual([{ name: 'alpha', weight: 1 }]);
  });

  it('applies status through the status subresource with its own entry (as controllers do; kubectl apply has no --subresource)', async () => {
    const status = 'apiVersion: ssa.example.com/v1\nkind: Pool\nmetadata:\n  name: p\nspec:\n  members: []\nstatus:\n  ready: true\n';
    const r = await stack.request('PATCH', `/apis/ssa.example.com/v1/namespaces/${ns}/pools/p/status?fieldManager=ctl`, { body: status, headers: { 'Content-Type': 'application/apply-patch+yaml' } });
    expect(r.status).toBe(200);
    expect(await ok(['get', 'pool', 'p', '-n', ns, '-o', 'jsonpath={.status.ready}'])).toBe('true');
    // spec in a status apply is neither written nor owned.
    expect(JSON.parse(await ok(['get', 'pool', 'p', '-n', ns, '-o', 'jsonpath={.spec.members}']))).toEqual([{ name: 'alpha', weight: 1 }]);
    const entry = (await managed(['get', 'pool', 'p'])).find((e) => e.manager === 'ctl');
    expect(entry).toMatchObject({ operation: 'Apply', subresource: 'status', fieldsV1: { 'f:status': { 'f:ready': {} } } });
  });
});
