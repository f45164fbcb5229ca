import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etcdClientPaths } from '@kube/pki';
import { Compactor, EtcdClient, type EtcdTls, LeaderElection, Storage } from '@kube/storage';
import { startEtcd, tempDir } from '@kube/testing';
import { startSecuredEtcd, type SecuredEtcd } from '@test/support';
import { AGGREGATOR_LEADER_ELECTION_KEY, aggregatedEtcdClients, applyEtcdAccess, ETCD_ROOT_CLIENT, etcdAccess } from '../../scripts/etcd-access';
import { LOCAL_AGGREGATED_SERVERS } from '../../scripts/local-aggregated-servers';

/**
 * Issue 26 item 3, "etcd is open": whoever reached etcd's client port read every Secret and wrote
 * /registry/clusterrolebindings/… with no authentication, admission or audit, and the aggregated servers were handed
 * the same endpoint. etcd now serves clients over TLS only, accepts only certificates of its own CA, and its RBAC
 * gives each API server's user the keys it owns (scripts/etcd-access.ts). etcd is started here as npm start starts
 * it (the same PKI, table and reconciliation) and attacked with no certificate, a certificate of another CA, and
 * every etcd certificate a deployment hands out.
 */
let secured: SecuredEtcd;
const clients: EtcdClient[] = [];
const aggregated = aggregatedEtcdClients(LOCAL_AGGREGATED_SERVERS);

const SECRET = '/registry/secrets/kube-system/bootstrap-signer-token';
const CLUSTER_ADMIN_BINDING = '/registry/clusterrolebindings/cluster-admin';

function connect(tls: EtcdTls | undefined, endpoint = secured.etcd.endpoint): EtcdClient {
  const client = new EtcdClient({ endpoints: [endpoint], tls });
  clients.push(client);
  return client;
}

const as = (component: string): EtcdClient => connect(secured.tls(component));
const read = (c: EtcdClient, key: string): Promise<string | null> => c.raw.get(key).string();
const write = (c: EtcdClient, key: string, value = 'planted'): Promise<unknown> => c.raw.put(key).value(value).exec();
const PERMISSION_DENIED = /permission denied/i;

beforeAll(async () => {
  secured = await startSecuredEtcd(tempDir('etcd-access'), aggregated);
  const root = as(ETCD_ROOT_CLIENT);
  await write(root, SECRET, 'the-token');
  await write(root, CLUSTER_ADMIN_BINDING, '{"subjects":[{"kind":"Group","name":"system:masters"}]}');
  await write(root, '/registry/apiregistration.k8s.io/apiservices/v1.', '{}');
}, 120_000);

afterAll(async () => {
  clients.forEach((c) => c.close());
  await secured?.etcd.stop();
});

describe('etcd refuses clients that are not its own', () => {
  it('refuses a client without a certificate (the TLS handshake fails)', async () => {
    await expect(read(connect({ caPem: secured.tls(ETCD_ROOT_CLIENT).caPem }), SECRET)).rejects.toThrow(/UNAVAILABLE|certificate|handshake/i);
  });

  it("refuses a certificate of another CA: the cluster CA's kubernetes-admin (system:masters) is nobody to etcd", async () => {
    const admin = { caPem: secured.tls(ETCD_ROOT_CLIENT).caPem, certPem: readFileSync(secured.pki.adminCert, 'utf8'), keyPem: readFileSync(secured.pki.adminKey, 'utf8') };
    await expect(read(connect(admin), SECRET)).rejects.toThrow(/UNAVAILABLE|certificate|handshake/i);
  });

  it('answers no plain HTTP on its client port: neither the gRPC gateway nor a gRPC client gets a key', async () => {
    const port = new URL(secured.etcd.endpoint).port;
    const body = JSON.stringify({ key: Buffer.from(SECRET).toString('base64') });
    // etcd closes the connection (or answers 400 to an HTTP request on a TLS port): no key either way.
    const reply = await new Promise<string>((resolve) => {
      const req = request({ host: '127.0.0.1', port, path: '/v3/kv/range', method: 'POST', headers: { 'Content-Type': 'application/json' } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(`${res.statusCode} ${text}`));
      });
      req.on('error', (err) => resolve(err.message));
      req.end(body);
    });
    expect(reply).toMatch(/^(socket hang up|read ECONNRESET|400 )/);
    expect(reply).not.toContain(Buffer.from('the-token').toString('base64'));
    await expect(read(connect(undefined, `http://127.0.0.1:${port}`), SECRET)).rejects.toThrow();
  });
});

describe("an aggregated server's etcd certificate reaches its own prefix and nothing else", () => {
  it('sample-apiserver may not read a Secret, write a ClusterRoleBinding, list or watch the registry', async () => {
    const wardle = as('sample-apiserver');
    await expect(read(wardle, SECRET)).rejects.toThrow(PERMISSION_DENIED);
    await expect(write(wardle, CLUSTER_ADMIN_BINDING)).rejects.toThrow(PERMISSION_DENIED);
    await expect(wardle.raw.getAll().prefix('/registry/').keys()).rejects.toThrow(PERMISSION_DENIED);
    await expect(wardle.raw.delete().key('/registry/namespaces/kube-system').exec()).rejects.toThrow(PERMISSION_DENIED);
    const watch = new Promise<void>((resolve, reject) => {
      void wardle.raw
        .watch()
        .prefix('/registry/secrets/')
        .create()
        .then((w) => w.on('error', reject).on('connected', () => setTimeout(resolve, 1_000)), reject);
    });
    await expect(watch).rejects.toThrow(PERMISSION_DENIED);
    expect(await read(as(ETCD_ROOT_CLIENT), CLUSTER_ADMIN_BINDING)).toContain('system:masters');
  });

  it('counts-apiserver (which stores nothing) may not read a Secret either', async () => {
    await expect(read(as('counts-apiserver'), SECRET)).rejects.toThrow(PERMISSION_DENIED);
  });

  it('reads and writes its own keys: the SDK storage confined to /registry/wardle.example.com/ serves consistent reads and watches', async () => {
    const own = secured.env('sample-apiserver');
    const storage = new Storage({ endpoints: [own.KUBE_ETCD_ENDPOINTS], tls: secured.tls('sample-apiserver'), prefix: '/registry/wardle.example.com/', compactionIntervalMs: 1 });
    try {
      await storage.ping();
      const flunders = storage.resource({ group: 'wardle.example.com', resource: 'flunders' }, 'wardle.example.com/flunders');
      const flunder = (name: string) => ({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name, namespace: 'default' }, spec: {} });
      await flunders.create(flunder('one'));
      // Another writer (a second replica) moves etcd's revision: a consistent read still sees it.
      await write(as('core-api'), '/registry/configmaps/default/elsewhere', '{}');
      await write(as('sample-apiserver'), '/registry/wardle.example.com/flunders/default/two', JSON.stringify({ ...flunder('two'), metadata: { name: 'two', namespace: 'default' } }));
      const list = await flunders.list('default');
      expect(list.items.map((o) => o.metadata.name)).toEqual(['one', 'two']);
      expect((await flunders.get('default', 'two')).metadata.name).toBe('two');
      // A watch from the list's revision (etcd's, past the cache's) gets what follows.
      const watch = await flunders.watch('default', { resourceVersion: list.resourceVersion });
      await flunders.create(flunder('three'));
      const next = await watch.next();
      expect(next.done ? undefined : { type: next.value.type, name: next.value.object.metadata.name }).toEqual({ type: 'ADDED', name: 'three' });
      watch.close();
      // The control plane's keys are not its storage at all.
      expect(() => storage.resource({ group: '', resource: 'namespaces' }, 'namespaces')).toThrow('namespaces is stored under /registry/namespaces/, outside this server\'s etcd prefix /registry/wardle.example.com/');
    } finally {
      await storage.close();
    }
  });
});

describe('the control-plane servers write only what they serve', () => {
  it('core-api writes its resources, reads all of /registry/ (its watch cache), and may not write APIServices, CRDs, custom or aggregated resources', async () => {
    const core = as('core-api');
    await write(core, '/registry/configmaps/default/mine', '{}');
    await write(core, '/registry/allocations/serviceips/10.96.0.99', 'x');
    expect(await read(core, SECRET)).toBe('the-token');
    for (const key of [
      '/registry/apiregistration.k8s.io/apiservices/v1.evil',
      '/registry/apiextensions.k8s.io/customresourcedefinitions/crontabs.stable.example.com',
      '/registry/stable.example.com/crontabs/default/c',
      '/registry/wardle.example.com/flunders/default/f',
      AGGREGATOR_LEADER_ELECTION_KEY,
    ]) {
      await expect(write(core, key), key).rejects.toThrow(PERMISSION_DENIED);
    }
    // kube's compaction coordination (compact_rev_key) works with its own user.
    expect((await new Compactor(core, 60_000).step()).revision).toBeGreaterThan(0);
  });

  it('extensions writes CRDs, custom resources (any group) and quota charges, and none of the other servers\' keys', async () => {
    const extensions = as('extensions');
    for (const key of ['/registry/apiextensions.k8s.io/customresourcedefinitions/crontabs.stable.example.com', '/registry/stable.example.com/crontabs/default/c', '/registry/zz.example.org/things/t', '/registry/resourcequotas/default/q']) {
      await write(extensions, key, '{}');
    }
    for (const key of [SECRET, CLUSTER_ADMIN_BINDING, '/registry/configmaps/default/x', '/registry/apps/deployments/default/d', '/registry/apiregistration.k8s.io/apiservices/v1.evil', '/registry/wardle.example.com/flunders/default/f', '/registry/counts.example.com/x', AGGREGATOR_LEADER_ELECTION_KEY]) {
      await expect(write(extensions, key), key).rejects.toThrow(PERMISSION_DENIED);
    }
  });

  it('the aggregator writes APIServices and holds its leader-election key, and may not write Secrets or ClusterRoleBindings', async () => {
    const aggregator = as('aggregator');
    await write(aggregator, '/registry/apiregistration.k8s.io/apiservices/v1alpha1.wardle.example.com', '{}');
    const election = new LeaderElection(aggregator, { key: AGGREGATOR_LEADER_ELECTION_KEY, identity: 'security-test', ttlSeconds: 5 });
    const leading = new Promise<boolean>((resolve) => election.onLeadershipChange((leader) => leader && resolve(true)));
    election.start();
    try {
      expect(await leading).toBe(true);
    } finally {
      await election.stop();
    }
    for (const key of [SECRET, CLUSTER_ADMIN_BINDING, '/registry/configmaps/default/x', '/registry/apiextensions.k8s.io/customresourcedefinitions/x']) {
      await expect(write(aggregator, key), key).rejects.toThrow(PERMISSION_DENIED);
    }
  });

  it('the aggregator records itself under /registry/masterleases/ (with a TTL), which core-api reads and nobody else writes', async () => {
    const key = '/registry/masterleases/10.0.0.1:6443';
    const lease = as('aggregator').raw.lease(30, { autoKeepAlive: false });
    try {
      await lease.put(key).value('{"kind":"Endpoints"}');
    } finally {
      lease.release();
    }
    expect(await as('core-api').raw.get(key).string()).toBe('{"kind":"Endpoints"}');
    for (const other of ['core-api', 'extensions'] as const) await expect(write(as(other), key), `${other} ${key}`).rejects.toThrow(PERMISSION_DENIED);
  });
});

describe('applying the users and roles at every start', () => {
  const root = (): EtcdTls => secured.tls(ETCD_ROOT_CLIENT);

  it('changes nothing when etcd already matches, corrects a tampered role, and removes a server taken out', async () => {
    const logged: string[] = [];
    const apply = (servers = aggregated): Promise<void> => applyEtcdAccess({ endpoints: [secured.etcd.endpoint], tls: root(), aggregated: servers, log: (l) => logged.push(l) });
    await apply();
    expect(logged.at(-1)).toMatch(/\(unchanged\)$/);
    // Someone gives the sample-apiserver's role the Secrets: the next start takes them away again.
    await as(ETCD_ROOT_CLIENT).raw.auth.roleGrantPermission({ name: 'kube-ts:sample-apiserver', perm: { permType: 'Read', key: Buffer.from('/registry/secrets/'), range_end: Buffer.from('/registry/secrets0') } });
    expect(await read(as('sample-apiserver'), SECRET)).toBe('the-token');
    logged.length = 0;
    await apply();
    expect(logged).toContain('role kube-ts:sample-apiserver: revoked Read /registry/secrets/*');
    await expect(read(as('sample-apiserver'), SECRET)).rejects.toThrow(PERMISSION_DENIED);
    // counts-apiserver taken out of the deployment: its user goes, so its certificate is nobody.
    await apply(aggregated.filter((a) => a.component !== 'counts-apiserver'));
    await expect(read(as('counts-apiserver'), '/registry/counts.example.com/x')).rejects.toThrow();
    await apply();
    expect(await read(as('counts-apiserver'), '/registry/counts.example.com/x')).toBeNull();
  });

  it('grants each user one role of its own, named after it, matching the table', async () => {
    const auth = as(ETCD_ROOT_CLIENT).raw.auth;
    for (const { user, grants } of etcdAccess(aggregated)) {
      expect((await auth.userGet({ name: user })).roles, user).toEqual([user]);
      expect((await auth.roleGet({ role: user })).perm.length, user).toBe(grants.length);
    }
  });

  it('brings up an etcd from before (data, plain HTTP, no authentication) with TLS and authentication, its data kept', async () => {
    const dataDir = tempDir('etcd-before');
    const before = await startEtcd({ dataDir });
    const plain = connect(undefined, before.endpoint);
    await write(plain, '/registry/configmaps/default/kept', 'from-before');
    plain.close();
    await before.stop();
    const probe = { certPem: root().certPem as string, keyPem: root().keyPem as string };
    const after = await startEtcd({ dataDir, tls: { certFile: secured.pki.etcdServerCert, keyFile: secured.pki.etcdServerKey, trustedCaFile: secured.pki.etcdCaCert, probe } });
    try {
      await applyEtcdAccess({ endpoints: [after.endpoint], tls: root(), aggregated });
      expect(await read(connect(secured.tls('core-api'), after.endpoint), '/registry/configmaps/default/kept')).toBe('from-before');
      await expect(read(connect(secured.tls('sample-apiserver'), after.endpoint), '/registry/configmaps/default/kept')).rejects.toThrow(PERMISSION_DENIED);
    } finally {
      await after.stop();
    }
  }, 90_000);

  it('issues each etcd client certificate for its own user only (CN = user), from the etcd CA', () => {
    const etcdCa = new X509Certificate(readFileSync(secured.pki.etcdCaCert));
    for (const component of ['core-api', 'sample-apiserver']) {
      const cert = new X509Certificate(readFileSync(etcdClientPaths(secured.pki, component).cert));
      expect(cert.subject).toBe(`CN=kube-ts:${component}`);
      expect(cert.verify(etcdCa.publicKey)).toBe(true);
    }
  });
});
