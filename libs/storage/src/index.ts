export { Storage, type StorageOptions } from './storage';
export { ResourceStore, type ListOptions, type ListResult, type Preconditions, type UpdateFn, type UpdateResult } from './resource.store';
export type { StorageEvent } from './watch-cache';
export { WatchChannel } from './watch.channel';
export { EtcdClient, CompactedError, checkEtcdConnection, type EtcdClientOptions, type EtcdTls } from './etcd.client';
export { RevisionWatcher, type RawWatchEvent } from './revision.watcher';
export { encodeContinueToken, decodeContinueToken, type ContinueToken } from './continue-token';
export { objectKey, collectionKey, resourcePrefix } from './keys';
export { LeaderElection, type LeaderElectionOptions } from './leader.election';
