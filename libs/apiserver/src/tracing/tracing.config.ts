import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** kube's TracingConfiguration (apiserver.config.k8s.io/v1, also v1beta1 and v1alpha1), as --tracing-config-file reads it. */
export interface TracingConfiguration {
  /** host:port of an OTLP/gRPC collector; kube's default is localhost:4317. */
  endpoint: string;
  /** Spans sampled per million requests that carry no sampling decision of their own (default 0: none). */
  samplingRatePerMillion: number;
}

const KINDS = new Set(['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1beta1', 'apiserver.config.k8s.io/v1alpha1']);
export const DEFAULT_TRACING_ENDPOINT = 'localhost:4317';

/** Parses and validates a TracingConfiguration with kube's field errors (component-base/tracing ValidateTracingConfiguration). */
export function parseTracingConfiguration(text: string, path = 'tracing configuration'): TracingConfiguration {
  const doc = (parse(text) ?? {}) as Record<string, unknown>;
  if (doc.kind !== 'TracingConfiguration' || !KINDS.has(String(doc.apiVersion))) {
    throw new Error(`unable to load ${path}: no kind "${String(doc.kind ?? '')}" is registered for version "${String(doc.apiVersion ?? '')}"; want apiserver.config.k8s.io/v1 TracingConfiguration`);
  }
  const errors: string[] = [];
  const rate = doc.samplingRatePerMillion ?? 0;
  if (typeof rate !== 'number' || !Number.isInteger(rate)) errors.push(`samplingRatePerMillion: Invalid value: ${JSON.stringify(rate)}: must be an integer`);
  else if (rate < 0) errors.push(`samplingRatePerMillion: Invalid value: ${rate}: sampling rate must be positive`);
  else if (rate > 1_000_000) errors.push(`samplingRatePerMillion: Invalid value: ${rate}: sampling rate per million must be less than or equal to one million`);
  const endpoint = doc.endpoint ?? DEFAULT_TRACING_ENDPOINT;
  if (typeof endpoint !== 'string' || !validEndpoint(endpoint)) errors.push(`endpoint: Invalid value: ${JSON.stringify(endpoint)}: parse "${String(endpoint)}": invalid endpoint, want host:port`);
  if (errors.length) throw new Error(`invalid ${path}: ${errors.join(', ')}`);
  return { endpoint: endpoint as string, samplingRatePerMillion: rate as number };
}

function validEndpoint(endpoint: string): boolean {
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint) ? endpoint : `http://${endpoint}`);
    return url.hostname !== '';
  } catch {
    return false;
  }
}

/** KUBE_TRACING_CONFIG_FILE (kube's --tracing-config-file): unset, tracing is off; an invalid file stops the start. */
export function tracingFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): TracingConfiguration | undefined {
  const path = env.KUBE_TRACING_CONFIG_FILE;
  if (!path) return undefined;
  return parseTracingConfiguration(readFileSync(path, 'utf8'), path);
}
