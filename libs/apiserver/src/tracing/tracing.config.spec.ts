import { describe, expect, it } from 'vitest';
import { parseTracingConfiguration } from './tracing.config';

describe('TracingConfiguration (KUBE_TRACING_CONFIG_FILE)', () => {
  it("reads kube's apiserver.config.k8s.io/v1 TracingConfiguration, with kube's defaults", () => {
    expect(parseTracingConfiguration('apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\nendpoint: collector:4317\nsamplingRatePerMillion: 100\n')).toEqual({ endpoint: 'collector:4317', samplingRatePerMillion: 100 });
    expect(parseTracingConfiguration('apiVersion: apiserver.config.k8s.io/v1beta1\nkind: TracingConfiguration\n')).toEqual({ endpoint: 'localhost:4317', samplingRatePerMillion: 0 });
  });

  it("refuses what kube refuses, with its field errors", () => {
    const base = 'apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\n';
    expect(() => parseTracingConfiguration(`${base}samplingRatePerMillion: -1\n`)).toThrow('samplingRatePerMillion: Invalid value: -1: sampling rate must be positive');
    expect(() => parseTracingConfiguration(`${base}samplingRatePerMillion: 1000001\n`)).toThrow('samplingRatePerMillion: Invalid value: 1000001: sampling rate per million must be less than or equal to one million');
    expect(() => parseTracingConfiguration(`${base}endpoint: "http://[::1"\n`)).toThrow(/endpoint: Invalid value/);
    expect(() => parseTracingConfiguration('apiVersion: v1\nkind: ConfigMap\n')).toThrow(/no kind "ConfigMap" is registered for version "v1"/);
  });
});
