export const AGGREGATOR_CONFIG = Symbol('AGGREGATOR_CONFIG');

/** The front door's AuthorizationSet (@kube/authorization). */
export const AUTHORIZATION = Symbol('AUTHORIZATION');
