import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
    categories: [all]
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
    additionalPrinterColumns:
    - name: Spec
      type: string
      jsonPath: .spec.cronSpec
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [cronSpec]
            properties:
              cronSpec:
                type: string
                pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'
              image:
                type: string
                default: busybox
              replicas:
                type: integer
                minimum: 1
                maximum: 10
            x-kubernetes-validations:
            - rule: "self.cronSpec != '0 0 * * *' || self.replicas <= 2"
              message: "nightly crontabs run at most 2 replicas"
          status:
            type: object
            properties:
              replicas:
                type: integer
`;

const CR = (name: string, replicas = 1): string => `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: ${name}
spec:
  cronSpec: "* * * * */5"
  replicas: ${replicas}
`;

describe.each(['1.27', '1.33'])('custom resources with kubectl %s through the aggregator', (version) => {
  let stack: StackHarness;
  const { k, ok, watch } = kubectlSession(version, () => stack.kubeconfig);

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('applies a CRD, waits for Established, and serves its custom resources at once', async () => {
    expect(await ok(['apply', '-f', '-'], CRD)).toContain('customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created');
    await ok(['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=20s']);
    expect(await ok(['apply', '-f', '-'], CR('first'))).toContain('crontab.stable.example.com/first created');
    const table = await ok(['get', 'crontabs']);
    expect(table).toMatch(/^NAME\s+SPEC\s+REPLICAS\s+AGE\n^first\s+\* \* \* \* \*\/5\s+1\s+\d+s$/m);
    expect(await ok(['get', 'ct', '-o', 'name'])).toBe('crontab.stable.example.com/first\n');
    expect(await ok(['get', 'crontab', 'first', '-o', 'jsonpath={.spec.image}'])).toBe('busybox');
    expect(await ok(['get', 'all', '-o', 'name'])).toContain('crontab.stable.example.com/first');
  });

  it('applies twice (unchanged), patches json and merge, and writes status only through --subresource=status', async () => {
    expect(await ok(['apply', '-f', '-'], CR('first'))).toContain('crontab.stable.example.com/first unchanged');
    await ok(['patch', 'crontab', 'first', '--type=json', '-p', '[{"op":"replace","path":"/spec/replicas","value":2}]']);
    expect(await ok(['get', 'crontab', 'first', '-o', 'jsonpath={.spec.replicas}'])).toBe('2');
    await ok(['patch', 'crontab', 'first', '--type=merge', '-p', '{"status":{"replicas":5}}']);
    expect(await ok(['get', 'crontab', 'first', '-o', 'jsonpath={.status.replicas}'])).toBe('');
    await ok(['patch', 'crontab', 'first', '--subresource=status', '--type=merge', '-p', '{"status":{"replicas":5}}']);
    expect(await ok(['get', 'crontab', 'first', '-o', 'jsonpath={.status.replicas}'])).toBe('5');
  });

  it('prunes unknown fields with --validate=false and reports CEL violations with their message', async () => {
    const extra = CR('pruned').replace('  replicas: 1\n', '  replicas: 1\n  bogus: true\n');
    await ok(['apply', '--validate=false', '-f', '-'], extra);
    expect(await ok(['get', 'crontab', 'pruned', '-o', 'jsonpath={.spec}'])).not.toContain('bogus');
    const nightly = CR('nightly', 3).replace('"* * * * */5"', '"0 0 * * *"');
    const r = await k(['apply', '-f', '-'], nightly);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('nightly crontabs run at most 2 replicas');
  });

  it('watches custom resources with get -w', async () => {
    const watching = watch(['get', 'crontabs', '-w', '-o', 'name'], (out) => out.includes('crontab.stable.example.com/watched'));
    await new Promise((r) => setTimeout(r, 1500));
    await ok(['apply', '-f', '-'], CR('watched'));
    const out = (await watching).stdout;
    expect(out).toContain('crontab.stable.example.com/first');
    expect(out).toContain('crontab.stable.example.com/watched');
  });

  it('validates custom resources against the schema with 422 causes', async () => {
    const r = await k(['apply', '-f', '-'], CR('bad', 11).replace('"* * * * */5"', '"not a cron"'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('spec.cronSpec');
    expect(r.stderr).toContain('spec.replicas');
  });

  it('scales through the scale subresource', async () => {
    await ok(['scale', 'crontab', 'first', '--replicas=3']);
    expect(await ok(['get', 'crontab', 'first', '-o', 'jsonpath={.spec.replicas}'])).toBe('3');
  });

  it('refuses strategic merge patches on custom resources (415) and takes merge patches', async () => {
    const smp = await k(['patch', 'crontab', 'first', '-p', '{"spec":{"image":"nginx"}}']);
    expect(smp.code).not.toBe(0);
    expect(smp.stderr).toMatch(/UnsupportedMediaType|415|application\/merge-patch\+json/);
    await ok(['patch', 'crontab', 'first', '--type=merge', '-p', '{"spec":{"image":"nginx"}}']);
    expect(await ok(['get', 'crontab', 'first', '-o', 'jsonpath={.spec.image}'])).toBe('nginx');
  });

  it('explains the custom resource from its schema', async () => {
    expect(await ok(['explain', 'crontabs.spec'])).toMatch(/cronSpec/);
  });

  it('applies defaults added to the schema later when reading stored objects', async () => {
    const patch = JSON.stringify([{ op: 'add', path: '/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/tier', value: { type: 'string', default: 'standard' } }]);
    await ok(['patch', 'crd', 'crontabs.stable.example.com', '--type=json', '-p', patch]);
    let tier = '';
    for (let i = 0; i < 50 && tier !== 'standard'; i++) {
      tier = await ok(['get', 'crontab', 'first', '-o', 'jsonpath={.spec.tier}']);
      if (tier !== 'standard') await new Promise((r) => setTimeout(r, 100));
    }
    expect(tier).toBe('standard');
  });

  it('registers an automanaged APIService for the CRD group and removes it with the CRD', async () => {
    expect(await ok(['get', 'apiservices', 'v1.stable.example.com'])).toMatch(/^v1\.stable\.example\.com\s+Local\s+True\s+/m);
    expect(await ok(['get', 'apiservices'])).toMatch(/^v1\.\s+Local\s+True/m);
    expect(await ok(['delete', 'crd', 'crontabs.stable.example.com', '--timeout=30s'])).toContain('deleted');
    const gone = await k(['get', 'crontabs']);
    expect(gone.code).not.toBe(0);
    const raw = await stack.extensions.request('GET', '/apis/stable.example.com/v1/namespaces/default/crontabs');
    expect(raw.status).toBe(404);
    const etcd = new Etcd3({ hosts: stack.etcd.endpoint.replace('http://', '') });
    try {
      expect(await etcd.getAll().prefix('/registry/stable.example.com/crontabs/').count()).toBe(0);
    } finally {
      etcd.close();
    }
  });
});
