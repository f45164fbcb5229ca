// kube's client-go, in-process: informers (tools/cache), work queues (util/workqueue) and the controller loop.
export { storageListerWatcher, type ListerWatcher, type ListResult, type WatchEvent, type WatchStream, type WatchableStore } from './cache/lister-watcher';
export { Indexer, metaNamespaceKey, namespaceIndexFunc, NAMESPACE_INDEX, type IndexFunc, type Lister } from './cache/indexer';
export { Reflector, isResourceExpired, DEFAULT_REFLECTOR_BACKOFF, type BackoffOptions, type ReflectorSink } from './cache/reflector';
export { SharedIndexInformer, type ResourceEventHandler } from './cache/shared-informer';
export { SharedInformerFactory, type ListerWatcherSource, type StorageResources } from './cache/informer-factory';
export { WorkQueue } from './workqueue/queue';
export { RateLimitingQueue } from './workqueue/rate-limiting-queue';
export { BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter, defaultControllerRateLimiter, type RateLimiter } from './workqueue/rate-limiters';
export { Controller, type ControllerOptions, type Reconcile, type ReconcileResult, type Syncable } from './controller/controller.runner';
export { EventBus } from './events.bus';
export { RestClient, resourcePath, restListerWatcher, statusErrorFrom, type RequestOptions, type ResourcePath, type RestConfig } from './rest/rest.client';
export { discoverResources, withVerbs, type DiscoveredResource, type DiscoverySnapshot } from './rest/discovery.client';
export { LeaderElector, type LeaderElectionOptions } from './leaderelection/lease.elector';
