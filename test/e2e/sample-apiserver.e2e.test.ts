import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import type { INestApplicationContext } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ApiServerLifecycle } from '@kube/apiserver';
import { Storage } from '@kube/storage';
import { SampleApiServerModule } from '../../apps/sample-apiserver/src/sample-apiserver.module';
import { bootAggregatedServer } from '../support/aggregated-server.boot';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { until } from '../support/until';

const pem = (path: string): string => readFileSync(path, 'utf8');

/** The sample-apiserver in this process: its own serving certificate, registered through the stack's aggregator. */
function bootSampleApiServer(stack: StackHarness): Promise<INestApplicationContext> {
  return bootAggregatedServer(stack, { component: 'sample-apiserver', serviceDnsName: 'wardle-server.kube-system.svc', module: (options) => SampleApiServerModule.forRoot(options) });
}

/** A request straight to the sample server, without any client certificate. */
function anonymousGet(port: number, path: string, caPem: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port, path, method: 'GET', ca: caPem, headers: { 'X-Remote-User': 'mallory', 'X-Remote-Group': 'system:masters' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

const fischer = { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Fischer', metadata: { name: 'fischer-a' }, disallowedFlunders: ['banned', 'also-banned'] };
const flunder = (name: string, namespace: string, spec: Record<string, string> = {}): string =>
  JSON.stringify({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name, namespace }, spec });

describe.each(['1.27', '1.33'])('the wardle sample-apiserver through the aggregator with kubectl %s', (version) => {
  let stack: StackHarness;
  let wardle: INestApplicationContext;
  const { k, ok, watch } = kubectlSession(version, () => stack.kubeconfig);

  beforeAll(async () => {
    stack = await startStack();
    wardle = await bootSampleApiServer(stack);
  });

  afterAll(async () => {
    await wardle?.close();
    await stack?.stop();
  });

  it('registers v1alpha1.wardle.example.com, which becomes Available', async () => {
    const available = await until(async () => /^v1alpha1\.wardle\.example\.com\s+kube-system\/wardle-server\s+True\s+/m.test((await k(['get', 'apiservice', 'v1alpha1.wardle.example.com'])).stdout));
    expect(available).toBe(true);
    const status = JSON.parse(await ok(['get', 'apiservice', 'v1alpha1.wardle.example.com', '-o', 'json']));
    expect(status.spec).toMatchObject({ group: 'wardle.example.com', version: 'v1alpha1', groupPriorityMinimum: 1000, versionPriority: 15, service: { namespace: 'kube-system', name: 'wardle-server', port: 443 } });
    expect(Buffer.from(status.spec.caBundle, 'base64').toString()).toBe(pem(stack.pki.caCert));
    expect(status.status.conditions).toEqual([expect.objectContaining({ type: 'Available', status: 'True', reason: 'Passed' })]);
    // Its Service and Endpoints are kube-system's, as metrics-server's are: `default` holds only `kubernetes`.
    expect((await ok(['get', 'service,endpoints', '-n', 'kube-system', 'wardle-server', '-o', 'name'])).split('\n').filter(Boolean)).toEqual(['service/wardle-server', 'endpoints/wardle-server']);
    expect((await ok(['get', 'services', '-n', 'default', '-o', 'name'])).trim()).toBe('service/kubernetes');
  });

  it('shows flunders and fischers in discovery', async () => {
    const resources = await ok(['api-resources', '--api-group=wardle.example.com']);
    expect(resources).toMatch(/^fischers\s+wardle\.example\.com\/v1alpha1\s+false\s+Fischer$/m);
    expect(resources).toMatch(/^flunders\s+wardle\.example\.com\/v1alpha1\s+true\s+Flunder$/m);
  });

  it('refuses a request straight to the sample server without the front-proxy certificate', async () => {
    const port = wardle.get(ApiServerLifecycle).port;
    const r = await anonymousGet(port, '/apis/wardle.example.com/v1alpha1/flunders', pem(stack.pki.caCert));
    expect(r.status).toBe(401);
    expect(JSON.parse(r.body)).toMatchObject({ kind: 'Status', reason: 'Unauthorized' });
  });

  it('creates a Fischer and refuses the Flunder names it bans with Forbidden (BanFlunder)', async () => {
    expect(await ok(['create', '-f', '-'], JSON.stringify(fischer))).toBe('fischer.wardle.example.com/fischer-a created\n');
    const banned = await k(['create', '-f', '-'], flunder('banned', 'default'));
    expect(banned.code).toBe(1);
    expect(banned.stderr).toContain(
      'Error from server (Forbidden): error when creating "STDIN": flunders.wardle.example.com "banned" is forbidden: this name may not be used, please change the resource name',
    );
  });

  it('creates allowed Flunders in several namespaces and lists them with their columns', async () => {
    await ok(['create', 'namespace', 'wardle-team']);
    expect(await ok(['create', '-f', '-'], flunder('allowed', 'default', { reference: 'fischer-a', referenceType: 'Fischer' }))).toBe('flunder.wardle.example.com/allowed created\n');
    expect(await ok(['create', '-f', '-'], flunder('second', 'wardle-team', { reference: 'allowed' }))).toBe('flunder.wardle.example.com/second created\n');
    const all = await ok(['get', 'flunders', '-A']);
    expect(all).toMatch(/^NAMESPACE\s+NAME\s+REFERENCE\s+TYPE\s+AGE$/m);
    expect(all).toMatch(/^default\s+allowed\s+fischer-a\s+Fischer\s+\d+s$/m);
    // referenceType defaults to Flunder when a reference is given (kube's SetDefaults_FlunderSpec).
    expect(all).toMatch(/^wardle-team\s+second\s+allowed\s+Flunder\s+\d+s$/m);
    const fischers = await ok(['get', 'fischers']);
    expect(fischers).toMatch(/^NAME\s+DISALLOWED FLUNDERS\s+AGE$/m);
    expect(fischers).toMatch(/^fischer-a\s+banned,also-banned\s+\d+s$/m);
  });

  it('validates the reference and the namespace', async () => {
    const invalid = await k(['create', '-f', '-'], flunder('no-ref', 'default', { referenceType: 'Fischer' }));
    expect(invalid.stderr).toContain('The Flunder "no-ref" is invalid: spec.reference: Required value: cannot be empty if referenceType is Fischer');
    const missingNs = await k(['create', '-f', '-'], flunder('lost', 'nowhere'));
    expect(missingNs.stderr).toContain('namespaces "nowhere" not found');
  });

  const expectFlunderSpecExplained = (out: string): void => {
    expect(out).toContain('FlunderSpec is the specification of a Flunder.');
    expect(out).toMatch(/reference\s+<string>/);
    expect(out).toMatch(/referenceType\s+<string>/);
    expect(out).toContain('A name of another flunder or fischer, depending on the reference type.');
  };

  it('explains flunders.spec from the merged OpenAPI v2', async () => {
    expectFlunderSpecExplained(await ok(['explain', 'flunders.spec', '--output=plaintext-openapiv2']));
  });

  it('explains flunders.spec from its OpenAPI v3 document, proxied by the aggregator (kubectl default)', async () => {
    expectFlunderSpecExplained(await ok(['explain', 'flunders.spec']));
  });

  it('prints a Flunder as YAML, labels, patches and watches it', async () => {
    const obj = parse(await ok(['get', 'flunder', 'allowed', '-o', 'yaml']));
    expect(obj).toMatchObject({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'allowed', namespace: 'default' }, spec: { reference: 'fischer-a', referenceType: 'Fischer' } });
    expect(obj.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    const watching = watch(['get', 'flunders', '-w', '-o', 'name'], (out) => out.includes('flunder.wardle.example.com/allowed'));
    await new Promise((r) => setTimeout(r, 500));
    expect(await ok(['label', 'flunder', 'allowed', 'tier=gold'])).toBe('flunder.wardle.example.com/allowed labeled\n');
    expect(await ok(['patch', 'flunder', 'allowed', '--type=merge', '-p', '{"spec":{"reference":"second","referenceType":"Flunder"}}'])).toBe('flunder.wardle.example.com/allowed patched\n');
    expect(await ok(['get', 'flunders', '-l', 'tier=gold', '-o', 'jsonpath={.items[*].spec.reference}'])).toBe('second');
    expect((await watching).stdout).toContain('flunder.wardle.example.com/allowed');
  });

  it('writes status only through /status, and stores under /registry/wardle.example.com/', async () => {
    const path = '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders/allowed/status';
    const body = JSON.stringify({ status: { observed: true }, spec: { reference: 'ignored' } });
    const r = await stack.request('PATCH', path, { body, headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(r.status, r.body).toBe(200);
    expect(r.json()).toMatchObject({ status: { observed: true }, spec: { reference: 'second' } });
    const key = await wardle.get(Storage).client.getKey('/registry/wardle.example.com/flunders/default/allowed', 'flunders');
    expect(key).toBeDefined();
  });

  it('deletes Flunders and the Fischer, after which the banned name is allowed', async () => {
    expect(await ok(['delete', 'flunder', 'allowed'])).toBe('flunder.wardle.example.com "allowed" deleted\n');
    expect(await ok(['delete', 'flunder', 'second', '-n', 'wardle-team'])).toBe('flunder.wardle.example.com "second" deleted\n');
    expect(await ok(['delete', 'fischer', 'fischer-a'])).toBe('fischer.wardle.example.com "fischer-a" deleted\n');
    expect(await ok(['create', '-f', '-'], flunder('banned', 'default'))).toBe('flunder.wardle.example.com/banned created\n');
    expect((await k(['get', 'flunder', 'allowed'])).stderr).toContain('flunders.wardle.example.com "allowed" not found');
  });
});
