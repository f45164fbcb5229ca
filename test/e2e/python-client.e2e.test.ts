import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SampleApiServerModule } from '../../apps/sample-apiserver/src/sample-apiserver.module';
import { bootAggregatedServer } from '../support/aggregated-server.boot';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { kubectlSession } from '../support/kubectl.session';
import { until } from '../support/until';

// The official Kubernetes Python client (Debian's python3-kubernetes) against the whole stack: the script
// (python-client/client_e2e.py) drives it and reports what it saw; this test judges the report.

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(__dirname, 'python-client/client_e2e.py');

type Json = Record<string, any>;

function runPython(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('the official Python client (python3-kubernetes)', () => {
  let stack: StackHarness;
  let wardle: INestApplicationContext | undefined;
  let report: Json;
  const { k, ok } = kubectlSession('1.33', () => stack.kubeconfig);

  beforeAll(async () => {
    stack = await startStack();
    wardle = await bootAggregatedServer(stack, { component: 'sample-apiserver', serviceDnsName: 'wardle-server.kube-system.svc', module: (options) => SampleApiServerModule.forRoot(options) });
    expect(await until(async () => /True/.test((await k(['get', 'apiservice', 'v1alpha1.wardle.example.com'])).stdout), 60_000)).toBe(true);
    await ok(['create', 'namespace', 'py']);
    const r = await runPython([stack.kubeconfig, 'py']);
    expect(r.code, r.stderr).toBe(0);
    report = JSON.parse(r.stdout) as Json;
  }, 300_000);

  afterAll(async () => {
    await wardle?.close();
    await stack?.stop();
  });

  it('creates, reads, replaces, patches and deletes', () => {
    expect(report.crud).toEqual({ created_rv: expect.stringMatching(/^\d+$/), uid_stable: true, replaced_data: { k: 'v2' }, patched_data: { k: 'v2', extra: '1' } });
    expect(report.deleted_get).toMatchObject({ status: 404, reason: 'NotFound', message: 'configmaps "py-crud" not found' });
  });

  it('gets 409 Conflict for a stale resourceVersion and AlreadyExists for a taken name', () => {
    expect(report.conflict).toEqual({ status: 409, reason: 'Conflict', message: 'Operation cannot be fulfilled on configmaps "py-crud": the object has been modified; please apply your changes to the latest version and try again' });
    expect(report.already_exists).toEqual({ status: 409, reason: 'AlreadyExists', message: 'configmaps "py-crud" already exists' });
  });

  it('selects by labels (equality and set-based) and fields', () => {
    expect(report.selectors).toEqual({ label: ['py-a', 'py-b'], set: ['py-c'], field: ['py-b'] });
  });

  it('pages with limit and continue', () => {
    // With a label selector the remaining count is unknown: kube leaves remainingItemCount out.
    expect(report.pages).toEqual({ first: ['py-a', 'py-b'], has_continue: true, remaining: null, second: ['py-c'], second_continue: null });
  });

  it('watches from a resourceVersion and from now with initial events', () => {
    expect(report.watch_from_rv).toEqual([
      ['ADDED', 'py-w1', 'v'],
      ['MODIFIED', 'py-w1', 'changed'],
      ['DELETED', 'py-w1', 'changed'],
    ]);
    expect(report.watch_initial).toEqual([
      ['ADDED', 'py-a'],
      ['ADDED', 'py-b'],
      ['ADDED', 'py-c'],
    ]);
  });

  it('dry-runs a create without storing it', () => {
    expect(report.dry_run).toEqual({ name: 'py-dry', has_uid: true, stored: expect.objectContaining({ status: 404 }) });
  });

  it('creates a CRD and uses its custom objects through CustomObjectsApi', () => {
    expect(report.custom).toMatchObject({ established: true, size: 5, listed: ['w1'] });
    expect(report.custom.invalid).toMatchObject({ status: 422, reason: 'Invalid' });
    expect(report.custom.invalid.message).toContain('spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1');
  });

  it('uses an aggregated API (wardle flunders) like any other', () => {
    expect(report.aggregated).toMatchObject({ listed: ['py-flunder'], kind: 'Flunder', gone: { status: 404, reason: 'NotFound' } });
  });
});
