/** apidiscovery.k8s.io/v2 shapes the aggregator reads from backends and merges. */
export interface DiscoveryResource {
  resource: string;
  [field: string]: unknown;
}

export interface DiscoveryVersion {
  version: string;
  resources: DiscoveryResource[];
  freshness?: 'Current' | 'Stale';
}

export interface DiscoveryGroup {
  metadata: { name: string };
  versions: DiscoveryVersion[];
}

export interface DiscoveryList {
  kind: 'APIGroupDiscoveryList';
  apiVersion: string;
  metadata: Record<string, unknown>;
  items: DiscoveryGroup[];
}

export const DISCOVERY_V2_ACCEPT = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
