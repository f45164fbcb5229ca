/**
 * pods/log, exec, attach, portforward, proxy and services/proxy, nodes/proxy as kube-apiserver answers them, on
 * simulated nodes, with the oldest and the newest kubectl: discovery lists them, a simulated container's log is
 * empty, kube's validation errors come first, and what needs a kubelet gets kube's dial error as a Status.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { kubectlPath } from '@kube/testing';
import { startControllerManager, type ControllerManagerHandle } from '../support/controller-manager.boot';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { until } from '../support/until';

vi.setConfig({ testTimeout: 180_000 });

type Json = Record<string, any>;

let stack: StackHarness;
let cm: ControllerManagerHandle;

beforeAll(async () => {
  stack = await startStack({ controllerManager: false });
  cm = await startControllerManager(stack.url, stack.pki, { simulation: { nodes: 1, capacity: { cpu: '8', memory: '8Gi', pods: '110' }, podReadyDelayMs: 200, podCompleteDelayMs: 1000, podDeleteDelayMs: 200, leaseRenewMs: 2000 } });
}, 120_000);

afterAll(async () => {
  await cm?.stop();
  await stack?.stop();
});

const TWO_CONTAINERS = (name: string): string =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { initContainers: [{ name: 'init', image: 'busybox:1.36' }], containers: [{ name: 'a', image: 'busybox:1.36' }, { name: 'b', image: 'busybox:1.36' }] },
  });

describe.each(['1.27', '1.33'])('pod subresources with kubectl %s on a simulated node', (version) => {
  const { k, ok } = kubectlSession(version, () => stack.kubeconfig);
  const ns = `podsub-${version.replace('.', '')}`;
  const raw = (path: string): Promise<{ code: number; stdout: string; stderr: string }> => k(['get', '--raw', `/api/v1/namespaces/${ns}/${path}`]);
  let webPod = '';

  beforeAll(async () => {
    await ok(['create', 'namespace', ns]);
    expect(await until(async () => (await k(['get', 'sa', 'default', '-n', ns])).code === 0, 60_000)).toBe(true);
    await ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=1', '-n', ns]);
    await ok(['create', '-f', '-', '-n', ns], TWO_CONTAINERS('two'));
    // No node matches: the pod stays unscheduled.
    await ok(['create', '-f', '-', '-n', ns], JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pending' }, spec: { nodeSelector: { nowhere: 'true' }, containers: [{ name: 'c', image: 'busybox:1.36' }] } }));
    await ok(['rollout', 'status', 'deploy/web', '-n', ns, '--timeout=120s']);
    webPod = (JSON.parse(await ok(['get', 'pods', '-l', 'app=web', '-n', ns, '-o', 'json'])) as Json).items[0].metadata.name as string;
    expect(await until(async () => (await k(['get', 'pod', 'two', '-n', ns, '-o', 'jsonpath={.status.phase}'])).stdout === 'Running', 60_000)).toBe(true);
  });

  it('lists the streaming subresources in discovery with kube kinds and verbs', async () => {
    const resources = (JSON.parse(await ok(['get', '--raw', '/api/v1'])) as Json).resources as Json[];
    const byName = new Map(resources.map((r) => [r.name as string, r]));
    expect(byName.get('pods/log')).toMatchObject({ kind: 'Pod', verbs: ['get'], namespaced: true });
    expect(byName.get('pods/exec')).toMatchObject({ kind: 'PodExecOptions', verbs: ['create', 'get'] });
    expect(byName.get('pods/attach')).toMatchObject({ kind: 'PodAttachOptions', verbs: ['create', 'get'] });
    expect(byName.get('pods/portforward')).toMatchObject({ kind: 'PodPortForwardOptions', verbs: ['create', 'get'] });
    const proxyVerbs = ['create', 'delete', 'get', 'patch', 'update'];
    expect(byName.get('pods/proxy')).toMatchObject({ kind: 'PodProxyOptions', verbs: proxyVerbs });
    expect(byName.get('services/proxy')).toMatchObject({ kind: 'ServiceProxyOptions', verbs: proxyVerbs });
    expect(byName.get('nodes/proxy')).toMatchObject({ kind: 'NodeProxyOptions', verbs: proxyVerbs, namespaced: false });
  });

  it('prints the empty log of a simulated container', async () => {
    const r = await k(['logs', `deploy/web`, '-n', ns]);
    expect(r.stderr).toBe('');
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(await ok(['logs', webPod, '-n', ns, '--tail=5', '--timestamps'])).toBe('');
  });

  it('refuses logs as kube does: missing pod, container choice, bad options, no previous container', async () => {
    expect((await k(['logs', 'missing', '-n', ns])).stderr).toMatch(/rror from server \(NotFound\): pods "missing" not found/);
    expect((await raw('pods/missing/log')).stderr).toContain('Error from server (NotFound): pods "missing" not found');
    expect((await raw('pods/two/log')).stderr).toContain('Error from server (BadRequest): a container name must be specified for pod two, choose one of: [init a b]');
    expect((await raw('pods/two/log?container=wrong')).stderr).toContain('Error from server (BadRequest): container wrong is not valid for pod two');
    expect((await raw('pods/two/log?container=a&tailLines=-1')).stderr).toContain('PodLogOptions "two" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0');
    expect((await raw('pods/two/log?container=a&sinceSeconds=5&sinceTime=2024-01-01T00:00:00Z')).stderr).toContain('PodLogOptions "two" is invalid: : Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified');
    expect((await k(['logs', webPod, '-n', ns, '--previous'])).stderr).toContain(`Error from server (BadRequest): previous terminated container "nginx" in pod "${webPod}" not found`);
  });

  it('answers exec, attach and port-forward with kube dial error for a node without a kubelet', async () => {
    const exec = await k(['exec', webPod, '-n', ns, '--', 'true']);
    expect(exec.code).not.toBe(0);
    // kube's preferred address types put the node's Hostname first.
    expect(exec.stderr).toContain('Error from server: error dialing backend: dial tcp sim-node-0:10250: connect: connection refused');
    expect(exec.stderr).not.toContain('could not find the requested resource');
    expect((await k(['exec', 'missing', '-n', ns, '--', 'true'])).stderr).toMatch(/rror from server \(NotFound\): pods "missing" not found/);
    const attach = await k(['attach', webPod, '-n', ns]);
    expect(attach.stderr).toContain('error dialing backend');
    const pf = await k(['port-forward', `pod/${webPod}`, '18080:80', '-n', ns], undefined, 60_000);
    expect(pf.code).not.toBe(0);
    expect(pf.stderr).toContain('error dialing backend');
  });

  it('answers for an unscheduled pod as kube does: no log content, no host for exec', async () => {
    expect(await ok(['logs', 'pending', '-n', ns])).toBe('');
    expect((await k(['exec', 'pending', '-n', ns, '--', 'true'])).stderr).toContain('Error from server (BadRequest): pod pending does not have a host assigned');
  });

  it('answers pods/proxy and services/proxy as kube does without endpoints or a reachable pod', async () => {
    await ok(['create', 'service', 'clusterip', 'lonely', '--tcp=80:80', '-n', ns]);
    expect((await raw('services/lonely:80/proxy/')).stderr).toContain('Error from server (ServiceUnavailable): no endpoints available for service "lonely:80"');
    expect((await raw('services/missing/proxy/')).stderr).toContain('Error from server (NotFound): services "missing" not found');
    expect((await raw(`pods/${webPod}/proxy/healthz`)).stderr).toMatch(/Error from server: dial tcp 10\.[\d.]+:80: connect: connection refused/);
    expect((await raw('pods/missing/proxy/')).stderr).toContain('Error from server (NotFound): pods "missing" not found');
    expect((await k(['get', '--raw', '/api/v1/nodes/sim-node-0/proxy/healthz'])).stderr).toContain('Error from server: dial tcp sim-node-0:10250: connect: connection refused');
    expect((await k(['get', '--raw', '/api/v1/nodes/missing/proxy/healthz'])).stderr).toContain('Error from server (NotFound): nodes "missing" not found');
  });

  it('follows a log until the pod is deleted', async () => {
    // -v=6 logs the response line once the stream's headers arrive: the pod is deleted only then.
    const child = spawn(kubectlPath(version), [`--kubeconfig=${stack.kubeconfig}`, 'logs', '-f', 'two', '-c', 'a', '-n', ns, '-v=6']);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const streaming = new Promise<void>((resolve) => child.stderr.on('data', (d: Buffer) => ((stderr += d.toString()), /\/log\?[^\n]*200 OK/.test(stderr) && resolve())));
    try {
      await Promise.race([streaming, exited]);
      expect(stderr).toMatch(/\/log\?[^\n]*200 OK/);
      await ok(['delete', 'pod', 'two', '-n', ns, '--wait=false']);
      expect(await exited).toBe(0);
      expect(stdout).toBe('');
    } finally {
      child.kill();
    }
  });
});
