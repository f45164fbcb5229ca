/**
 * The chart's observability settings rendered by a real helm: tracing.* becomes kube's TracingConfiguration in a
 * ConfigMap every API server mounts and names in KUBE_TRACING_CONFIG_FILE; apiserver.profiling becomes
 * KUBE_PROFILING. Skipped without helm (libs/testing's locator fetches one into .local/tools).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseTracingConfiguration } from '@kube/apiserver';
import { locateHelm } from '@kube/testing';
import { CHART, ROOT } from './deploy.helpers';

interface Doc {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec?: { template: { spec: { containers: Array<{ name: string; env?: Array<{ name: string; value?: string }>; volumeMounts?: Array<{ name: string; mountPath: string }> }>; volumes?: Array<{ name: string; configMap?: { name: string } }> } } };
}

const helm = locateHelm(join(ROOT, '.local', 'tools'));
const render = (...args: string[]): Doc[] => {
  const out = spawnSync(helm.path as string, ['template', 'kts', CHART, '-n', 'kube-ts', ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  expect(out.status, out.stderr).toBe(0);
  return parseAllDocuments(out.stdout).map((d) => d.toJS() as Doc).filter(Boolean);
};
const apiServers = (docs: Doc[]): Doc[] => docs.filter((d) => d.kind === 'Deployment' && /-(aggregator|core-api|extensions|sample-apiserver)$/.test(d.metadata.name));
const env = (d: Doc, name: string): string | undefined => d.spec?.template.spec.containers[0].env?.find((e) => e.name === name)?.value;

describe.skipIf(!helm.path)('the chart\'s tracing and profiling settings', () => {
  it('profiles by default and traces nothing; apiserver.profiling=false turns profiling off', () => {
    const defaults = render();
    expect(apiServers(defaults).length).toBeGreaterThanOrEqual(3);
    for (const d of apiServers(defaults)) {
      expect(env(d, 'KUBE_PROFILING'), d.metadata.name).toBe('true');
      expect(env(d, 'KUBE_TRACING_CONFIG_FILE'), d.metadata.name).toBeUndefined();
    }
    expect(defaults.some((d) => d.metadata.name.endsWith('-tracing-config'))).toBe(false);
    for (const d of apiServers(render('--set', 'apiserver.profiling=false'))) expect(env(d, 'KUBE_PROFILING')).toBe('false');
  });

  it("mounts kube's TracingConfiguration into every API server when tracing.enabled", () => {
    const docs = render('--set', 'tracing.enabled=true', '--set', 'tracing.endpoint=otel-collector.monitoring:4317', '--set', 'tracing.samplingRatePerMillion=250000');
    const cm = docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'kts-kube-ts-tracing-config');
    expect(parseTracingConfiguration(cm?.data?.['tracing-config.yaml'] ?? '')).toEqual({ endpoint: 'otel-collector.monitoring:4317', samplingRatePerMillion: 250000 });
    for (const d of apiServers(docs)) {
      expect(env(d, 'KUBE_TRACING_CONFIG_FILE'), d.metadata.name).toBe('/etc/kube-ts/tracing/tracing-config.yaml');
      expect(d.spec?.template.spec.containers[0].volumeMounts).toContainEqual(expect.objectContaining({ name: 'tracing-config', mountPath: '/etc/kube-ts/tracing' }));
      expect(d.spec?.template.spec.volumes).toContainEqual(expect.objectContaining({ name: 'tracing-config', configMap: { name: 'kts-kube-ts-tracing-config' } }));
    }
  });
});
