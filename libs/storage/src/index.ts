export { Storage, type StorageOptions } from './storage';
export { COMPACT_REV_KEY, type CompactionStep, Compactor, parseGoDuration } from './compactor';
export {
  checkPreconditions,
  type CreateOptions,
  type DeleteOptions,
  type GetOptions,
  type ListOptions,
  type ListResult,
  type Preconditions,
  type SelectionPredicate,
  type StorageEvent,
  type StorageInterface,
  type UpdateFunc,
  type UpdateOptions,
  type UpdateResult,
  type ValidateObjectFunc,
  type WatchOptions,
} from './storage.interface';
export { EtcdStorage } from './etcd.storage';
export { Cacher } from './cacher';
export { WatchCache, type WatchCacheOptions } from './watch.cache';
export { WatchChannel } from './watch.channel';
export { EtcdClient, CompactedError, checkEtcdConnection, type EtcdClientOptions, type EtcdTls } from './etcd.client';
export { RevisionWatcher, type RawWatchEvent } from './revision.watcher';
export { encodeContinueToken, decodeContinueToken, type ContinueToken } from './continue-token';
export { objectKey, collectionKey, resourcePrefix, REGISTRY_ROOT } from './keys';
export {
  describeRange,
  ETCD_ROOT_USER,
  type EtcdGrant,
  type EtcdPermission,
  type EtcdUserAccess,
  keyGrant,
  prefixGrant,
  rangesExcept,
  reconcileEtcdAuth,
  type ReconcileEtcdAuthOptions,
} from './etcd.auth';
export { LeaderElection, type LeaderElectionOptions } from './leader.election';
export {
  AesCbcTransformer,
  AesGcmTransformer,
  EncryptionConfig,
  type EncryptionConfiguration,
  EncryptionConfigSource,
  type EncryptionKey,
  type EncryptionProvider,
  IdentityTransformer,
  keyManagementService,
  KMS_V2_TIMINGS,
  type KmsConfiguration,
  type KmsService,
  type KmsV2Timings,
  type PrefixTransformer,
  PrefixTransformers,
  SecretboxTransformer,
  type TransformedValue,
  type ValueTransformer,
} from './encryption';
