/**
 * KUBE_SIMULATED_NODES reaches the controller-manager from every launcher: npm start passes its environment
 * through, compose names it (0 unless set), the chart renders it from controllerManager.simulatedNodes only when
 * set; and the controller-manager reads it (and its companions) strictly.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { locateHelm } from '@kube/testing';
import { simulationOptionsFromEnv } from '../../apps/controller-manager/src/simulation/simulation.options';
import { CHART, read, ROOT } from './deploy.helpers';

describe('simulated nodes configuration', () => {
  it('is off unless KUBE_SIMULATED_NODES names a count; durations and capacity parse as documented', () => {
    expect(simulationOptionsFromEnv({})).toBeUndefined();
    expect(simulationOptionsFromEnv({ KUBE_SIMULATED_NODES: '0' })).toBeUndefined();
    expect(simulationOptionsFromEnv({ KUBE_SIMULATED_NODES: '3', KUBE_SIMULATED_NODE_CAPACITY: 'cpu=8, pods=20', KUBE_SIMULATED_POD_READY_DELAY: '250ms', KUBE_SIMULATED_POD_COMPLETE_DELAY: '1m30s' })).toMatchObject({
      nodes: 3,
      capacity: { cpu: '8', memory: '256Gi', pods: '20' },
      podReadyDelayMs: 250,
      podCompleteDelayMs: 90_000,
    });
    expect(() => simulationOptionsFromEnv({ KUBE_SIMULATED_NODES: 'three' })).toThrow(/KUBE_SIMULATED_NODES/);
    expect(() => simulationOptionsFromEnv({ KUBE_SIMULATED_NODES: '1', KUBE_SIMULATED_POD_READY_DELAY: '5' })).toThrow(/KUBE_SIMULATED_POD_READY_DELAY/);
  });

  it('compose passes KUBE_SIMULATED_NODES to the controller-manager, 0 by default', () => {
    const compose = parse(read("docker-compose.yml")) as { services: Record<string, { environment?: Record<string, string> }> };
    expect(compose.services['controller-manager'].environment?.KUBE_SIMULATED_NODES).toBe('${KUBE_SIMULATED_NODES:-0}');
  });

  const helm = locateHelm(`${ROOT}/.local/tools`);
  it.skipIf(!helm.path)('the chart renders KUBE_SIMULATED_NODES from controllerManager.simulatedNodes, nothing by default', () => {
    const env = (...args: string[]): Record<string, string> => {
      const rendered = spawnSync(helm.path as string, ['template', 'kts', CHART, '-n', 'kube-ts', '--show-only', 'templates/controller-manager/deployment.yaml', ...args], { encoding: 'utf8' });
      expect(rendered.status, rendered.stderr).toBe(0);
      const [doc] = parseAllDocuments(rendered.stdout).map((d) => d.toJS() as { spec: { template: { spec: { containers: Array<{ env: Array<{ name: string; value: string }> }> } } } });
      return Object.fromEntries(doc.spec.template.spec.containers[0].env.map((e) => [e.name, e.value]));
    };
    expect(env()).not.toHaveProperty('KUBE_SIMULATED_NODES');
    expect(env('--set', 'controllerManager.simulatedNodes=3')).toMatchObject({ KUBE_SIMULATED_NODES: '3' });
    const bad = spawnSync(helm.path as string, ['template', 'kts', CHART, '--set', 'controllerManager.simulatedNodes=-1'], { encoding: 'utf8' });
    expect(bad.status).not.toBe(0);
  });
});
