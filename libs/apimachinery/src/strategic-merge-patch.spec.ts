/**
 * Expected results were cross-checked against `kubectl patch --local --type strategic` (k8s.io/apimachinery
 * strategicpatch with the real Pod/Service/Deployment types).
 */
import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps, SchemaComponents } from './openapi.types';
import { StatusError } from './status.errors';
import { applyStrategicMergePatch } from './strategic-merge-patch';

// ---- a small schema set carrying kube's patch extensions ----

const ref = (name: string): JSONSchemaProps => ({ $ref: `#/components/schemas/${name}` });
const str: JSONSchemaProps = { type: 'string' };
const int: JSONSchemaProps = { type: 'integer' };
const list = (items: JSONSchemaProps, ext: Partial<JSONSchemaProps> = {}): JSONSchemaProps => ({ type: 'array', items, ...ext });
const mergeBy = (key?: string): Partial<JSONSchemaProps> =>
  key ? { 'x-kubernetes-patch-merge-key': key, 'x-kubernetes-patch-strategy': 'merge' } : { 'x-kubernetes-patch-strategy': 'merge' };
const obj = (properties: Record<string, JSONSchemaProps>): JSONSchemaProps => ({ type: 'object', properties });
const stringMap: JSONSchemaProps = { type: 'object', additionalProperties: str };

const components: SchemaComponents = {
  ObjectMeta: obj({
    name: str,
    labels: stringMap,
    annotations: stringMap,
    finalizers: list(str, mergeBy()),
    ownerReferences: list({ allOf: [ref('OwnerReference')] }, mergeBy('uid')),
  }),
  OwnerReference: obj({ apiVersion: str, kind: str, name: str, uid: str, controller: { type: 'boolean' } }),
  Pod: obj({ apiVersion: str, kind: str, metadata: { allOf: [ref('ObjectMeta')], default: {} }, spec: { allOf: [ref('PodSpec')] } }),
  PodTemplateSpec: obj({ metadata: { allOf: [ref('ObjectMeta')] }, spec: { allOf: [ref('PodSpec')] } }),
  PodSpec: obj({
    containers: list({ allOf: [ref('Container')] }, mergeBy('name')),
    volumes: list({ allOf: [ref('Volume')] }, { 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge,retainKeys' }),
    tolerations: list(obj({ key: str, operator: str, effect: str })),
    nodeSelector: stringMap,
  }),
  Container: obj({
    name: str,
    image: str,
    args: list(str),
    ports: list({ allOf: [ref('ContainerPort')] }, mergeBy('containerPort')),
    env: list({ allOf: [ref('EnvVar')] }, mergeBy('name')),
  }),
  ContainerPort: obj({ containerPort: int, name: str, protocol: str }),
  EnvVar: obj({ name: str, value: str, valueFrom: obj({ fieldRef: obj({ fieldPath: str }) }) }),
  Volume: obj({ name: str, emptyDir: obj({ medium: str }), hostPath: obj({ path: str }), configMap: obj({ name: str }) }),
  Service: obj({ metadata: { allOf: [ref('ObjectMeta')] }, spec: { allOf: [ref('ServiceSpec')] } }),
  ServiceSpec: obj({ selector: stringMap, ports: list({ allOf: [ref('ServicePort')] }, mergeBy('port')) }),
  ServicePort: obj({ name: str, port: int, targetPort: { 'x-kubernetes-int-or-string': true }, protocol: str }),
  Deployment: obj({ metadata: { allOf: [ref('ObjectMeta')] }, spec: { allOf: [ref('DeploymentSpec')] } }),
  DeploymentSpec: obj({
    replicas: int,
    template: { allOf: [ref('PodTemplateSpec')] },
    strategy: { allOf: [ref('DeploymentStrategy')], 'x-kubernetes-patch-strategy': 'retainKeys' },
  }),
  DeploymentStrategy: obj({ type: str, rollingUpdate: obj({ maxSurge: { 'x-kubernetes-int-or-string': true } }) }),
};

type Obj = Record<string, unknown>;
const smp = (kind: string, original: object, patch: object): Obj => applyStrategicMergePatch(original, patch, ref(kind), components) as Obj;

function failure(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('expected a StatusError');
}

// ---- fixtures ----

const app = () => ({
  name: 'app',
  image: 'nginx:1',
  args: ['-a', '-b'],
  ports: [
    { containerPort: 80, protocol: 'TCP' },
    { containerPort: 443, protocol: 'TCP' },
  ],
  env: [
    { name: 'A', value: '1' },
    { name: 'B', value: '2' },
  ],
});
const sidecar = () => ({ name: 'sidecar', image: 'busybox' });
const pod = () => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'p',
    labels: { app: 'a', tier: 'web' },
    finalizers: ['a.io/x', 'b.io/y'],
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1' }],
  },
  spec: {
    containers: [app(), sidecar()],
    volumes: [
      { name: 'data', emptyDir: {} },
      { name: 'cfg', configMap: { name: 'cm' } },
    ],
    tolerations: [{ key: 'k', operator: 'Exists' }],
    nodeSelector: { disk: 'ssd' },
  },
});
type PodT = ReturnType<typeof pod>;
interface Container {
  name: string;
  image?: string;
  args?: string[];
  ports?: unknown[];
  env?: unknown[];
}
type PodSpecT = Omit<PodT['spec'], 'containers'> & { containers: Container[] };
const specOf = (o: Obj): PodSpecT => o.spec as PodSpecT;
const metaOf = (o: Obj): PodT['metadata'] => o.metadata as PodT['metadata'];
const names = (o: Obj): string[] => specOf(o).containers.map((c) => c.name);

describe('maps', () => {
  it('merges recursively and deletes keys set to null', () => {
    const out = smp('Pod', pod(), { metadata: { labels: { tier: null, new: 'v' } }, spec: { nodeSelector: { zone: 'z1' } } });
    expect(metaOf(out).labels).toEqual({ app: 'a', new: 'v' });
    expect(specOf(out).nodeSelector).toEqual({ disk: 'ssd', zone: 'z1' });
  });

  it('honours $patch: replace and $patch: delete', () => {
    expect(metaOf(smp('Pod', pod(), { metadata: { labels: { $patch: 'replace', only: 'one' } } })).labels).toEqual({ only: 'one' });
    expect(specOf(smp('Pod', pod(), { spec: { nodeSelector: { $patch: 'delete' } } })).nodeSelector).toEqual({});
    expect(specOf(smp('Pod', pod(), { spec: { $patch: 'replace', containers: [{ name: 'z', image: 'z' }] } }))).toEqual({ containers: [{ name: 'z', image: 'z' }] });
  });

  it('drops nulls and directives from values the object did not have', () => {
    const out = smp('Pod', { metadata: { name: 'p' } }, { spec: { containers: [{ name: 'i', image: 'x', ports: [{ containerPort: 1, $patch: 'delete' }, { containerPort: 2 }], args: null }] } });
    expect(out.spec).toEqual({ containers: [{ name: 'i', image: 'x', ports: [{ containerPort: 2 }] }] });
  });

  it('replaces a value whose type changed', () => {
    expect(specOf(smp('Pod', pod(), { spec: { containers: { name: 'x' } } })).containers).toEqual({ name: 'x' });
  });
});

describe('lists merged by key', () => {
  it('merges containers by name; patch elements come first in patch order, live-only ones keep their relative place', () => {
    const changed = smp('Pod', pod(), { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } });
    expect(specOf(changed).containers).toEqual([{ ...app(), image: 'nginx:2' }, sidecar()]);

    // kube puts a new element before the live-only ones unless kubectl sends $setElementOrder
    expect(names(smp('Pod', pod(), { spec: { containers: [{ name: 'new', image: 'x' }] } }))).toEqual(['new', 'app', 'sidecar']);
    expect(names(smp('Pod', pod(), { spec: { containers: [{ name: 'new', image: 'x' }, { name: 'app', image: 'y' }] } }))).toEqual(['new', 'app', 'sidecar']);
    expect(names(smp('Pod', pod(), { spec: { containers: [{ name: 'app', image: 'z' }, { name: 'c', image: 'q' }] } }))).toEqual(['app', 'c', 'sidecar']);
  });

  it('deletes elements with $patch: delete and replaces the list with $patch: replace', () => {
    expect(names(smp('Pod', pod(), { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } }))).toEqual(['app']);
    expect(specOf(smp('Pod', pod(), { spec: { containers: [{ name: 'only', image: 'z' }, { $patch: 'replace' }] } })).containers).toEqual([{ name: 'only', image: 'z' }]);
  });

  it('merges ports by containerPort and env by name inside a container', () => {
    const out = smp('Pod', pod(), {
      spec: {
        containers: [
          {
            name: 'app',
            ports: [{ containerPort: 8080 }, { containerPort: 80, $patch: 'delete' }],
            env: [
              { name: 'B', value: 'x' },
              { name: 'C', value: '3' },
              { name: 'A', value: null, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            ],
          },
        ],
      },
    });
    const c = specOf(out).containers[0];
    expect(c.ports).toEqual([{ containerPort: 8080 }, { containerPort: 443, protocol: 'TCP' }]);
    expect(c.env).toEqual([
      { name: 'B', value: 'x' },
      { name: 'C', value: '3' },
      { name: 'A', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    ]);
    expect(c.args).toEqual(['-a', '-b']);
  });

  it('merges Service ports by port', () => {
    const svc = {
      metadata: { name: 's' },
      spec: {
        selector: { app: 'a' },
        ports: [
          { name: 'http', port: 80, targetPort: 8080 },
          { name: 'https', port: 443, targetPort: 'https' },
        ],
      },
    };
    const out = smp('Service', svc, { spec: { ports: [{ port: 443, targetPort: 8443 }, { port: 9090, name: 'metrics' }] } });
    expect((out.spec as { ports: unknown[] }).ports).toEqual([
      { name: 'http', port: 80, targetPort: 8080 },
      { name: 'https', port: 443, targetPort: 8443 },
      { port: 9090, name: 'metrics' },
    ]);
  });

  it('merges ownerReferences by uid', () => {
    const out = smp('Pod', pod(), {
      metadata: {
        ownerReferences: [
          { uid: 'u1', controller: true },
          { uid: 'u2', apiVersion: 'v1', kind: 'X', name: 'x' },
        ],
      },
    });
    expect(metaOf(out).ownerReferences).toEqual([
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', controller: true },
      { uid: 'u2', apiVersion: 'v1', kind: 'X', name: 'x' },
    ]);
  });

  it('fails like kube when an element lacks its merge key', () => {
    const err = failure(() => smp('Pod', pod(), { spec: { containers: [{ image: 'nginx' }] } }));
    expect(err.status).toMatchObject({ code: 500, message: 'map: map[image:nginx] does not contain declared merge key: name' });
    expect(err.status.reason).toBeUndefined();
    expect(failure(() => smp('Pod', pod(), { spec: { containers: [{ $patch: 'delete' }] } })).message).toBe('map: map[$patch:delete] does not contain declared merge key: name');
  });
});

describe('lists of primitives and lists without a strategy', () => {
  it('unions finalizers (strategy merge), patch items first in patch order', () => {
    expect(metaOf(smp('Pod', pod(), { metadata: { finalizers: ['c.io/z', 'a.io/x'] } })).finalizers).toEqual(['c.io/z', 'a.io/x', 'b.io/y']);
    expect(metaOf(smp('Pod', pod(), { metadata: { finalizers: ['b.io/y', 'c.io/z'] } })).finalizers).toEqual(['a.io/x', 'b.io/y', 'c.io/z']);
  });

  it('removes primitives listed in $deleteFromPrimitiveList', () => {
    expect(metaOf(smp('Pod', pod(), { metadata: { '$deleteFromPrimitiveList/finalizers': ['a.io/x'] } })).finalizers).toEqual(['b.io/y']);
    expect(smp('Pod', pod(), { spec: { '$deleteFromPrimitiveList/missing': ['a'] } }).spec).toEqual(pod().spec);
  });

  it('replaces lists without a patch strategy', () => {
    const out = smp('Pod', pod(), { spec: { tolerations: [{ key: 'z', operator: 'Equal' }], containers: [{ name: 'app', args: ['-c'] }] } });
    expect(specOf(out).tolerations).toEqual([{ key: 'z', operator: 'Equal' }]);
    expect(specOf(out).containers[0].args).toEqual(['-c']);
  });

  it('deletes the whole list when set to null', () => {
    expect(metaOf(smp('Pod', pod(), { metadata: { finalizers: null } })).finalizers).toBeUndefined();
  });
});

describe('$setElementOrder (kubectl apply)', () => {
  it('reorders containers as the directive says', () => {
    const out = smp('Pod', pod(), { spec: { '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'app' }], containers: [{ name: 'app', image: 'v3' }] } });
    expect(specOf(out).containers).toEqual([sidecar(), { ...app(), image: 'v3' }]);
  });

  it('places new elements where the directive puts them', () => {
    const out = smp('Pod', pod(), { spec: { '$setElementOrder/containers': [{ name: 'app' }, { name: 'n' }, { name: 'sidecar' }], containers: [{ name: 'n', image: 'v3' }] } });
    expect(names(out)).toEqual(['app', 'n', 'sidecar']);
  });

  it('works with deletions, primitive lists and parallel deletion lists together', () => {
    expect(names(smp('Pod', pod(), { spec: { '$setElementOrder/containers': [{ name: 'app' }], containers: [{ name: 'sidecar', $patch: 'delete' }] } }))).toEqual(['app']);
    const meta = metaOf(
      smp('Pod', pod(), {
        metadata: { '$setElementOrder/finalizers': ['b.io/y', 'n.io/n'], finalizers: ['n.io/n'], '$deleteFromPrimitiveList/finalizers': ['a.io/x'] },
      }),
    );
    expect(meta.finalizers).toEqual(['b.io/y', 'n.io/n']);
  });

  it('applies a 3-way patch as kubectl apply sends it for a Deployment', () => {
    const dep = {
      metadata: { name: 'd', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' } },
      spec: {
        replicas: 2,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } },
        template: {
          metadata: { labels: { app: 'a' } },
          spec: { containers: [{ name: 'app', image: 'nginx:1', env: [{ name: 'X', value: '1' }], ports: [{ containerPort: 80 }] }, { name: 'log', image: 'fluent' }] },
        },
      },
    };
    const out = smp('Deployment', dep, {
      metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"new":true}\n' } },
      spec: {
        strategy: { $retainKeys: ['type'], type: 'Recreate' },
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'app' }],
            containers: [
              { name: 'app', image: 'nginx:2', '$setElementOrder/env': [{ name: 'Y' }, { name: 'X' }], env: [{ name: 'Y', value: '2' }], ports: null },
              { name: 'log', $patch: 'delete' },
            ],
          },
        },
      },
    });
    expect(out).toEqual({
      metadata: { name: 'd', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"new":true}\n' } },
      spec: {
        replicas: 2,
        strategy: { type: 'Recreate' },
        template: {
          metadata: { labels: { app: 'a' } },
          spec: {
            containers: [
              {
                name: 'app',
                image: 'nginx:2',
                env: [
                  { name: 'Y', value: '2' },
                  { name: 'X', value: '1' },
                ],
              },
            ],
          },
        },
      },
    });
  });

  it('rejects a patch list whose order contradicts the directive', () => {
    const err = failure(() => smp('Pod', pod(), { spec: { '$setElementOrder/containers': [{ name: 'app' }], containers: [{ name: 'x', image: 'y' }] } }));
    expect(err.code).toBe(500);
    expect(err.message).toBe('The order in patch list:\n[map[image:y name:x]]\n doesn\'t match $setElementOrder list:\n[map[name:app]]\n');
  });
});

describe('$retainKeys', () => {
  it('clears volume source keys not retained', () => {
    const out = smp('Pod', pod(), { spec: { volumes: [{ name: 'data', hostPath: { path: '/x' }, $retainKeys: ['hostPath', 'name'] }] } });
    expect(specOf(out).volumes).toEqual([
      { name: 'data', hostPath: { path: '/x' } },
      { name: 'cfg', configMap: { name: 'cm' } },
    ]);
  });

  it('rejects patches that set keys not listed (400)', () => {
    for (const volume of [
      { name: 'data', hostPath: { path: '/x' }, $retainKeys: ['name'] },
      { name: 'data', $retainKeys: 'name' },
    ]) {
      expect(failure(() => smp('Pod', pod(), { spec: { volumes: [volume] } })).status).toMatchObject({ code: 400, reason: 'BadRequest', message: 'invalid patch format of retainKeys' });
    }
  });
});

describe('errors mapped like interpretStrategicMergePatchError', () => {
  it.each([
    [{ metadata: { $deleteFromPrimitiveListfinalizers: ['a'] } }, 'invalid patch format of primitive list'],
    [{ metadata: { $setElementOrderfinalizers: ['a'] } }, 'invalid patch format of setElementOrder list'],
  ])('400 for %j', (patch, message) => {
    expect(failure(() => smp('Pod', pod(), patch)).status).toMatchObject({ code: 400, reason: 'BadRequest', message });
  });

  it('422 for lists of lists', () => {
    expect(failure(() => smp('Pod', { metadata: { finalizers: [] } }, { metadata: { finalizers: [['a']] } })).status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'the server rejected our request due to an error in our request',
    });
  });

  it('500 with the library message for other problems, as kube answers', () => {
    expect(failure(() => smp('Pod', pod(), { spec: { containers: [{ $patch: 'merge' }] } })).message).toBe('merging lists cannot yet be specified in the patch');
    expect(failure(() => smp('Pod', pod(), { spec: { nodeSelector: { $patch: 'merge' } } })).message).toBe('unknown patch type: merge in map: map[$patch:merge]');
    expect(failure(() => smp('Pod', pod(), { metadata: { finalizers: ['x', 1] } })).message).toBe('list element types are not identical: [[a.io/x b.io/y] [x 1]]');
  });

  it('400 when the patch is not an object', () => {
    expect(failure(() => applyStrategicMergePatch(pod(), [] as unknown as object, ref('Pod'), components)).message).toBe(
      'json: cannot unmarshal array into Go value of type map[string]interface {}',
    );
  });
});

describe('without a schema', () => {
  it('behaves like a JSON merge patch but honours directives', () => {
    const cr = { spec: { items: [{ name: 'a' }, { name: 'b' }], tags: ['x', 'y'], conf: { a: 1, b: 2 } } };
    const out = applyStrategicMergePatch(cr, { spec: { items: [{ name: 'c' }], conf: { b: null, c: 3 }, '$deleteFromPrimitiveList/tags': ['x'] } }, undefined, {});
    expect(out).toEqual({ spec: { items: [{ name: 'c' }], tags: ['y'], conf: { a: 1, c: 3 } } });
    expect(applyStrategicMergePatch(cr, { spec: { conf: { $patch: 'replace', z: 1 } } }, undefined, {})).toEqual({ spec: { ...cr.spec, conf: { z: 1 } } });
  });

  it('ignores fields the schema does not know', () => {
    const out = smp('Pod', { metadata: { name: 'p' }, extra: { list: [1, 2] } }, { extra: { list: [3] } });
    expect(out.extra).toEqual({ list: [3] });
  });
});

describe('inputs', () => {
  it('are never mutated', () => {
    const original = pod();
    const patch = { metadata: { labels: { tier: null } }, spec: { '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'app' }], containers: [{ name: 'app', image: 'v2' }] } };
    const patchCopy = structuredClone(patch);
    smp('Pod', original, patch);
    expect(original).toEqual(pod());
    expect(patch).toEqual(patchCopy);
  });

  it('handles large merge lists without quadratic blow-up', () => {
    const big = (n: number, offset = 0) => Array.from({ length: n }, (_, i) => ({ name: `c${i + offset}`, image: 'x' }));
    const start = Date.now();
    const out = smp('Pod', { spec: { containers: big(20000) } }, { spec: { containers: big(20000, 10000) } });
    expect(specOf(out).containers).toHaveLength(30000);
    expect(Date.now() - start).toBeLessThan(5000);
  });
});
