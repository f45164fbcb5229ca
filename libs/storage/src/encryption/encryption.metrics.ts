import { Counter, Histogram, register } from 'prom-client';

/** kube's ExponentialBuckets(5e-6, 2, 25): in-process ciphers take microseconds, a KMS hundreds of milliseconds. */
const BUCKETS = Array.from({ length: 25 }, (_, i) => 5e-6 * 2 ** i);

const transformationDuration =
  (register.getSingleMetric('apiserver_storage_transformation_duration_seconds') as Histogram<string> | undefined) ??
  new Histogram({ name: 'apiserver_storage_transformation_duration_seconds', help: 'Latencies in seconds of value transformation operations.', labelNames: ['transformation_type', 'transformer_prefix'], buckets: BUCKETS });

const transformationOperations =
  (register.getSingleMetric('apiserver_storage_transformation_operations_total') as Counter<string> | undefined) ??
  new Counter({ name: 'apiserver_storage_transformation_operations_total', help: 'Total number of transformations.', labelNames: ['transformation_type', 'transformer_prefix', 'status'] });

/**
 * kube's RecordTransformation: every operation counted with its status ("OK"; "unknown-non-grpc" for a failure
 * that is no gRPC error, i.e. every failure of an in-process provider), the duration of successful ones observed.
 */
export function recordTransformation(type: 'from_storage' | 'to_storage', prefix: string, startNs: bigint, err?: unknown): void {
  // A KMS failure carries the gRPC code of the plugin's answer (kube's status.Code(err)).
  const grpcCode = (err as { grpcCode?: string } | undefined)?.grpcCode;
  transformationOperations.inc({ transformation_type: type, transformer_prefix: prefix, status: err === undefined ? 'OK' : (grpcCode ?? 'unknown-non-grpc') });
  if (err === undefined) transformationDuration.observe({ transformation_type: type, transformer_prefix: prefix }, Number(process.hrtime.bigint() - startNs) / 1e9);
}
