import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { Counter, Gauge, Histogram, register } from 'prom-client';

/** kube's envelope metrics (apiserver/pkg/storage/value/encrypt/envelope/metrics), registered once. */
function metric<T>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

const kmsOperationsLatency = metric(
  'apiserver_envelope_encryption_kms_operations_latency_seconds',
  () =>
    new Histogram({
      name: 'apiserver_envelope_encryption_kms_operations_latency_seconds',
      help: 'KMS operation duration with gRPC error code status total.',
      labelNames: ['provider_name', 'method_name', 'grpc_status_code'],
      // kube's ExponentialBuckets(0.0001, 2, 20)
      buckets: Array.from({ length: 20 }, (_, i) => 0.0001 * 2 ** i),
    }),
);

const keyIDHashTotal = metric(
  'apiserver_envelope_encryption_key_id_hash_total',
  () => new Counter({ name: 'apiserver_envelope_encryption_key_id_hash_total', help: 'Number of times a keyID is used split by transformation type, provider, and apiserver identity.', labelNames: ['transformation_type', 'provider_name', 'key_id_hash', 'apiserver_id_hash'] }),
);

const keyIDHashStatusLastTimestamp = metric(
  'apiserver_envelope_encryption_key_id_hash_status_last_timestamp_seconds',
  () => new Gauge({ name: 'apiserver_envelope_encryption_key_id_hash_status_last_timestamp_seconds', help: 'The last time in seconds when a keyID was returned by the Status RPC call.', labelNames: ['provider_name', 'key_id_hash', 'apiserver_id_hash'] }),
);

const invalidKeyIDFromStatus = metric(
  'apiserver_envelope_encryption_invalid_key_id_from_status_total',
  () => new Counter({ name: 'apiserver_envelope_encryption_invalid_key_id_from_status_total', help: 'Number of times an invalid keyID is returned by the Status RPC call split by error.', labelNames: ['provider_name', 'error'] }),
);

const dekSourceCacheSize = metric(
  'apiserver_envelope_encryption_dek_source_cache_size',
  () =>
    new Gauge({
      name: 'apiserver_envelope_encryption_dek_source_cache_size',
      help: 'Number of records in data encryption key (DEK) source cache. On a restart, this value is an approximation of the number of decrypt RPC calls the server will make to the KMS plugin.',
      labelNames: ['provider_name'],
    }),
);

const cacheMisses = metric(
  'apiserver_storage_envelope_transformation_cache_misses_total',
  () => new Counter({ name: 'apiserver_storage_envelope_transformation_cache_misses_total', help: 'Total number of cache misses while accessing key decryption key(KEK).' }),
);

/** kube's GetHashIfNotEmpty: `sha256:<hex>` of a key ID (never the ID itself), "" for "". */
export function keyIDHash(keyID: string): string {
  return keyID ? `sha256:${createHash('sha256').update(keyID).digest('hex')}` : '';
}

/** kube's apiserver_id_hash: the hash of the server's identity, its host name (as the authentication metrics label it). */
const API_SERVER_ID_HASH = keyIDHash(hostname());

export function recordKmsOperation(provider: string, method: string, startNs: bigint, code: string): void {
  kmsOperationsLatency.observe({ provider_name: provider, method_name: method, grpc_status_code: code }, Number(process.hrtime.bigint() - startNs) / 1e9);
}

/** Counts writes and reads per key ID hash; callers pass the hash they computed once per key ID. */
export function recordKeyID(type: 'from_storage' | 'to_storage', provider: string, hash: string): void {
  keyIDHashTotal.inc({ transformation_type: type, provider_name: provider, key_id_hash: hash, apiserver_id_hash: API_SERVER_ID_HASH });
}

export function recordKeyIDFromStatus(provider: string, keyID: string): void {
  keyIDHashStatusLastTimestamp.set({ provider_name: provider, key_id_hash: keyIDHash(keyID), apiserver_id_hash: API_SERVER_ID_HASH }, Date.now() / 1000);
}

export function recordInvalidKeyIDFromStatus(provider: string, code: string): void {
  invalidKeyIDFromStatus.inc({ provider_name: provider, error: code });
}

export function recordDekSourceCacheSize(provider: string, size: number): void {
  dekSourceCacheSize.set({ provider_name: provider }, size);
}

export function recordCacheMiss(): void {
  cacheMisses.inc();
}
