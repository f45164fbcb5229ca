/**
 * kube-controller-manager failover with real processes (dist/apps/controller-manager/src/main.js, so run
 * `npm run build` first): the leader is killed with SIGKILL, so it never releases its Lease; the standby takes
 * the lease only once it expires (kube's 15 s), then the controllers work again (garbage collection, quota).
 */
import { existsSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, SupervisedProcess } from '@kube/testing';
import { kubectlSession, startStack, until, type StackHarness } from '@test/support';
import { localControllerManagerEnv } from '../../apps/controller-manager/src/controller-manager.config';

const ROOT = join(__dirname, '..', '..');
const MAIN = join(ROOT, 'dist/apps/controller-manager/src/main.js');

interface Lease {
  spec?: { holderIdentity?: string; leaseTransitions?: number; renewTime?: string; leaseDurationSeconds?: number };
}

describe('controller-manager failover after SIGKILL of the leader', () => {
  let stack: StackHarness;
  const replicas: Array<{ proc: SupervisedProcess; port: number }> = [];
  const { ok } = kubectlSession('1.33', () => stack.kubeconfig);

  const lease = async (): Promise<NonNullable<Lease['spec']>> => (await stack.request('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager')).json<Lease>().spec ?? {};

  /** A GET of one replica's secure port as the admin. */
  const scrape = (port: number, path: string): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const req = httpsRequest({ host: '127.0.0.1', port, path, ca: readFileSync(stack.pki.caCert), cert: readFileSync(stack.pki.adminCert), key: readFileSync(stack.pki.adminKey) }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      });
      req.on('error', reject);
      req.end();
    });
  const leads = async (port: number): Promise<boolean> => (await scrape(port, '/metrics').catch(() => ({ body: '' }))).body.includes('leader_election_master_status{name="kube-controller-manager"} 1');

  const startReplica = async (name: string): Promise<{ proc: SupervisedProcess; port: number }> => {
    const port = await freePort();
    const env = { PATH: process.env.PATH, ...localControllerManagerEnv(stack.pki, stack.url, port) };
    const replica = { proc: new SupervisedProcess({ name, command: process.execPath, args: [MAIN], env }), port };
    replicas.push(replica);
    const healthy = await until(async () => {
      if (!replica.proc.running) throw new Error(`${replica.proc.describeExit()}:\n${replica.proc.output()}`);
      return (await scrape(port, '/healthz').catch(() => ({ status: 0 }))).status === 200;
    }, 60_000);
    expect(healthy, replica.proc.output()).toBe(true);
    return replica;
  };

  /** An owner deleted in the background: true once the garbage collector removed its dependent. */
  const collected = async (name: string): Promise<boolean> => {
    await ok(['create', 'configmap', `${name}-owner`]);
    const owner = (await stack.request('GET', `/api/v1/namespaces/default/configmaps/${name}-owner`)).json<{ metadata: { uid: string } }>();
    const dependent = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${name}-dep`, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: `${name}-owner`, uid: owner.metadata.uid }] } };
    await ok(['create', '-f', '-'], JSON.stringify(dependent));
    await ok(['delete', 'configmap', `${name}-owner`]);
    return until(async () => (await stack.request('GET', `/api/v1/namespaces/default/configmaps/${name}-dep`)).status === 404, 60_000);
  };

  beforeAll(async () => {
    expect(existsSync(MAIN), 'run `npm run build` first').toBe(true);
    stack = await startStack({ controllerManager: false });
  }, 180_000);

  afterAll(async () => {
    for (const r of replicas) await r.proc.stop();
    await stack?.stop();
  });

  it('the standby takes the lease once the killed leader\'s expires, and keeps collecting and counting', async () => {
    const first = await startReplica('controller-manager-a');
    expect(await until(() => leads(first.port), 60_000)).toBe(true);
    const held = await lease();
    expect(held.holderIdentity).toBeTruthy();
    expect(await collected('before')).toBe(true);

    const second = await startReplica('controller-manager-b');
    expect(await leads(second.port)).toBe(false);

    await first.proc.kill();
    expect(first.proc.describeExit()).toBe('controller-manager-a exited with signal SIGKILL');
    // Killed, not stopped: the lease still names the dead leader (nothing released it).
    expect((await lease()).holderIdentity).toBe(held.holderIdentity);

    expect(await until(() => leads(second.port), 90_000), second.proc.output()).toBe(true);
    const taken = await lease();
    expect(taken.holderIdentity).not.toBe(held.holderIdentity);
    expect(taken.leaseTransitions).toBe((held.leaseTransitions ?? 0) + 1);

    expect(await collected('after')).toBe(true);
    await ok(['create', 'quota', 'failover', '--hard=configmaps=10']);
    const used = async (): Promise<string> => (await ok(['get', 'quota', 'failover', '-o', 'jsonpath={.status.used.configmaps}'])).trim();
    expect(await until(async () => (await used()) !== '', 60_000)).toBe(true);
    const before = Number(await used());
    await ok(['create', 'configmap', 'failover-extra']);
    await ok(['delete', 'configmap', 'failover-extra']);
    expect(await until(async () => Number(await used()) === before, 60_000)).toBe(true);
  }, 300_000);
});
