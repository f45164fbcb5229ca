import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKubectl, tempDir, type KubectlResult } from '@kube/testing';
import { kubeProtobufBody, pb } from '../../libs/apimachinery/src/protobuf/protobuf.testing';
import { startCoreApi, type CoreApiHarness } from '../support/core-api.harness';
import { protobufClient } from '../support/protobuf.client';

/**
 * kubectl's typed clients (create configmap/secret/namespace/service/serviceaccount) send
 * application/vnd.kubernetes.protobuf from 1.32 on and JSON before; both must store the same objects.
 * (run and delete go through the JSON resource helper in every version.)
 */
const VERSIONS = [
  { version: '1.33', contentType: 'application/vnd.kubernetes.protobuf' },
  { version: '1.30', contentType: 'application/json' },
];

type Json = Record<string, any>;

/** Not valid UTF-8, so kubectl puts the file under binaryData. */
const BLOB = Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80, 0x7f, 0xc3, 0x28]);

const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64');

/** What `kubectl run p --image=nginx --port=80 --env=A=B` stores once the server has defaulted it. */
const RUN_POD_SPEC = {
  containers: [
    {
      name: 'p',
      image: 'nginx',
      ports: [{ containerPort: 80, protocol: 'TCP' }],
      env: [{ name: 'A', value: 'B' }],
      resources: {},
      imagePullPolicy: 'Always',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
    },
  ],
  dnsPolicy: 'ClusterFirst',
  enableServiceLinks: true,
  restartPolicy: 'Always',
  schedulerName: 'default-scheduler',
  securityContext: {},
  terminationGracePeriodSeconds: 30,
};

/** Drops what the server assigns on create, leaving what the client sent (plus defaults we assert on). */
function clientFields(obj: Json): Json {
  const { uid, resourceVersion, creationTimestamp, generation, managedFields: _managedFields, ...metadata } = obj.metadata;
  expect(uid).toMatch(/^[0-9a-f-]{36}$/);
  expect(resourceVersion).toMatch(/^\d+$/);
  expect(creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  // kube sets metadata.generation only where a strategy tracks it: pods here, not ConfigMaps, Secrets, Services…
  expect(generation).toBe(obj.kind === 'Pod' ? 1 : undefined);
  return { ...obj, metadata };
}

describe.each(VERSIONS)('kubectl $version typed clients against core-api', ({ version, contentType }) => {
  let api: CoreApiHarness;
  const dir = tempDir(`kubectl-protobuf-${version}`);
  const k = (args: string[]): Promise<KubectlResult> => runKubectl(args, { kubeconfig: api.kubeconfig, version });
  const ok = async (args: string[]): Promise<string> => {
    const r = await k(args);
    expect(r.stderr.replace(/^(Warning|WARNING):.*\n?/gm, ''), `kubectl ${args.join(' ')}`).toBe('');
    expect(r.code, `kubectl ${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r.stdout;
  };
  const getJson = async (...args: string[]): Promise<Json> => JSON.parse(await ok(['get', ...args, '-o', 'json'])) as Json;

  beforeAll(async () => {
    api = await startCoreApi();
    writeFileSync(join(dir, 'blob.bin'), BLOB);
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'tls.key'), '-out', join(dir, 'tls.crt'), '-days', '1', '-subj', '/CN=protobuf.test'], { stdio: 'ignore' });
  });

  afterAll(async () => {
    await api?.stop();
  });

  it(`sends typed create bodies as ${contentType}`, async () => {
    const r = await k(['create', 'configmap', 'probe', '-v=8']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`Content-Type: ${contentType.replace(/\./g, '\\.')}\\s`));
    // Its Accept prefers protobuf too: the created object comes back in protobuf, and kubectl reads it.
    // 1.33 logs `"Response" status=… headers=<`, 1.30 `Response Headers:`; the Content-Type after either is the answer's.
    const answered = /Response[" ][\s\S]*?Content-Type: (\S+)/.exec(r.stderr)?.[1];
    expect(answered).toBe(contentType);
    expect(r.stdout).toContain('configmap/probe created');
  });

  it('creates a configmap with data and binaryData', async () => {
    await ok(['create', 'configmap', 'x', '--from-literal=a=1', `--from-file=${join(dir, 'blob.bin')}`]);
    expect(clientFields(await getJson('configmap', 'x'))).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x', namespace: 'default' },
      data: { a: '1' },
      binaryData: { 'blob.bin': b64(BLOB) },
    });
  });

  it('creates generic, tls and docker-registry secrets', async () => {
    await ok(['create', 'secret', 'generic', 's', '--from-literal=p=q']);
    expect(clientFields(await getJson('secret', 's'))).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', namespace: 'default' },
      data: { p: b64('q') },
      type: 'Opaque',
    });

    await ok(['create', 'secret', 'tls', 't', `--cert=${join(dir, 'tls.crt')}`, `--key=${join(dir, 'tls.key')}`]);
    expect(clientFields(await getJson('secret', 't'))).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 't', namespace: 'default' },
      data: { 'tls.crt': b64(readFileSync(join(dir, 'tls.crt'))), 'tls.key': b64(readFileSync(join(dir, 'tls.key'))) },
      type: 'kubernetes.io/tls',
    });

    await ok(['create', 'secret', 'docker-registry', 'd', '--docker-server=registry.test', '--docker-username=u', '--docker-password=p']);
    const docker = clientFields(await getJson('secret', 'd'));
    expect(docker.type).toBe('kubernetes.io/dockerconfigjson');
    expect(Object.keys(docker.data)).toEqual(['.dockerconfigjson']);
    expect(JSON.parse(Buffer.from(docker.data['.dockerconfigjson'], 'base64').toString())).toEqual({
      auths: { 'registry.test': { username: 'u', password: 'p', auth: b64('u:p') } },
    });
  });

  it('creates a namespace', async () => {
    await ok(['create', 'namespace', 'n']);
    const ns = clientFields(await getJson('namespace', 'n'));
    expect(ns).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'n', labels: { 'kubernetes.io/metadata.name': 'n' } },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  });

  it('creates clusterip and nodeport services with targetPorts', async () => {
    await ok(['create', 'service', 'clusterip', 's1', '--tcp=80:8080']);
    const s1 = clientFields(await getJson('service', 's1'));
    expect(s1.metadata).toEqual({ name: 's1', namespace: 'default', labels: { app: 's1' } });
    expect(s1.spec.ports).toEqual([{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }]);
    expect(s1.spec.selector).toEqual({ app: 's1' });
    expect(s1.spec.type).toBe('ClusterIP');
    expect(s1.spec.clusterIP).toMatch(/^10\.(9[6-9]|1[01]\d)\.\d+\.\d+$/);

    await ok(['create', 'service', 'nodeport', 's2', '--tcp=81:8081']);
    const s2 = clientFields(await getJson('service', 's2'));
    expect(s2.spec.type).toBe('NodePort');
    expect(s2.spec.ports).toEqual([{ name: '81-8081', protocol: 'TCP', port: 81, targetPort: 8081, nodePort: expect.any(Number) }]);
    expect(s2.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
    expect(s2.spec.ports[0].nodePort).toBeLessThan(32768);
  });

  it('creates a serviceaccount', async () => {
    await ok(['create', 'serviceaccount', 'sa']);
    expect(clientFields(await getJson('serviceaccount', 'sa'))).toEqual({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'sa', namespace: 'default' },
    });
  });

  it('runs a pod with labels, a port and env', async () => {
    await ok(['run', 'p', '--image=nginx', '--labels=app=x', '--port=80', '--env=A=B']);
    const pod = clientFields(await getJson('pod', 'p'));
    expect(pod.metadata).toEqual({ name: 'p', namespace: 'default', labels: { app: 'x' } });
    expect(pod.spec).toEqual(RUN_POD_SPEC);
  });

  it('deletes what it created', async () => {
    expect(await ok(['delete', 'configmap', 'x'])).toContain('configmap "x" deleted');
    expect(await ok(['delete', 'pod', 'p', '--grace-period=0', '--force'])).toContain('pod "p" force deleted');
  });
});

/** Bodies client-go typed clients send that kubectl itself does not (kubectl run and delete use JSON). */
describe('typed-client protobuf bodies against core-api', () => {
  let api: CoreApiHarness;
  const headers = { 'Content-Type': 'application/vnd.kubernetes.protobuf', Accept: 'application/vnd.kubernetes.protobuf,application/json' };
  const send = (method: string, path: string, body: Buffer) => api.request(method, path, { body, headers });

  beforeAll(async () => {
    api = await startCoreApi();
  });

  afterAll(async () => {
    await api?.stop();
  });

  it('creates a pod from protobuf exactly as from kubectl run', async () => {
    const container = pb.msg(
      2,
      pb.str(1, 'p'),
      pb.str(2, 'nginx'),
      pb.str(5, ''),
      pb.msg(6, pb.str(1, ''), pb.varint(2, 0), pb.varint(3, 80), pb.str(4, ''), pb.str(5, '')),
      pb.msg(7, pb.str(1, 'A'), pb.str(2, 'B')),
      pb.msg(8),
      pb.str(13, ''),
      pb.str(14, ''),
      pb.varint(16, false),
      pb.varint(17, false),
      pb.varint(18, false),
      pb.str(20, ''),
    );
    const spec = pb.msg(2, container, pb.str(3, 'Always'), pb.str(6, 'ClusterFirst'), pb.str(8, ''), pb.str(9, ''), pb.str(10, ''), pb.varint(11, false), pb.str(19, ''));
    const created = await send('POST', '/api/v1/namespaces/default/pods', kubeProtobufBody('v1', 'Pod', pb.msg(1, pb.str(1, 'typed'), pb.str(3, ''), pb.entry(11, 'app', 'x')), spec, pb.msg(3, pb.str(1, ''))));
    expect(created.status, created.body).toBe(201);
    // client-go's Accept prefers protobuf: the answer is the created Pod in protobuf.
    expect(created.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    const pod = clientFields((await api.request('GET', '/api/v1/namespaces/default/pods/typed')).json());
    expect(pod.metadata).toEqual({ name: 'typed', namespace: 'default', labels: { app: 'x' } });
    expect(pod.spec).toEqual(RUN_POD_SPEC);
  });

  it('creates a lease with MicroTime fields and deletes it with protobuf DeleteOptions', async () => {
    const renew = new Date('2025-01-02T03:04:05.678Z');
    const lease = kubeProtobufBody(
      'coordination.k8s.io/v1',
      'Lease',
      pb.msg(1, pb.str(1, 'holder')),
      pb.msg(2, pb.str(1, 'node-1'), pb.varint(2, 40), pb.time(3, new Date('2025-01-01T00:00:00Z'), 0), pb.time(4, renew, 678_901_000), pb.varint(5, 0)),
    );
    const path = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
    const created = await send('POST', path, lease);
    expect(created.status, created.body).toBe(201);
    const uid = ((await api.request('GET', `${path}/holder`)).json<Json>().metadata as Json).uid as string;
    const stored = clientFields((await api.request('GET', `${path}/holder`)).json());
    expect(stored.spec).toEqual({ holderIdentity: 'node-1', leaseDurationSeconds: 40, acquireTime: '2025-01-01T00:00:00.000000Z', renewTime: '2025-01-02T03:04:05.678901Z', leaseTransitions: 0 });

    const wrongUid = await send('DELETE', `${path}/holder`, kubeProtobufBody('meta.k8s.io/v1', 'DeleteOptions', pb.msg(2, pb.str(1, 'not-the-uid'))));
    expect(wrongUid.status, wrongUid.body).toBe(409);
    const deleted = await send('DELETE', `${path}/holder`, kubeProtobufBody('meta.k8s.io/v1', 'DeleteOptions', pb.varint(1, 0), pb.msg(2, pb.str(1, uid)), pb.str(4, 'Background')));
    expect(deleted.status, deleted.body).toBe(200);
    expect((await api.request('GET', `${path}/holder`)).status).toBe(404);
  });

  it('answers 400 for a malformed body and 415 for a kind it cannot decode', async () => {
    const json = { 'Content-Type': 'application/vnd.kubernetes.protobuf', Accept: 'application/json' };
    const truncated = kubeProtobufBody('v1', 'ConfigMap', pb.msg(1, pb.str(1, 'cut')));
    const bad = await api.request('POST', '/api/v1/namespaces/default/configmaps', { body: truncated.subarray(0, truncated.length - 3), headers: json });
    expect(bad.status).toBe(400);
    expect(bad.json<Json>().message).toContain('protobuf request body is malformed');
    const unsupported = await api.request('POST', '/api/v1/namespaces/default/configmaps', { body: kubeProtobufBody('example.com/v1', 'Widget', pb.msg(1, pb.str(1, 'd'))), headers: json });
    expect(unsupported.status).toBe(415);
    expect(unsupported.json<Json>().reason).toBe('UnsupportedMediaType');
  });

  it('answers a Status error in protobuf to a client that prefers it', async () => {
    const missing = await protobufClient(api.url, api.pki).request('GET', '/api/v1/namespaces/default/configmaps/nope');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    expect(missing.object()).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: 'configmaps "nope" not found' });
  });
});
