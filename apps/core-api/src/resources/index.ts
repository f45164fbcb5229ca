/** The built-in resources core-api serves, in discovery order. */
import type { ResourceDefinition } from '@kube/apiserver';
import { configMapsResource } from './configmaps.resource';
import { endpointsResource } from './endpoints.resource';
import { eventsResource } from './events.resource';
import { eventsV1Resource } from './events-v1.resource';
import { leasesResource } from './leases.resource';
import { limitRangesResource } from './limitranges.resource';
import { namespacesResource } from './namespaces.resource';
import { podsResource } from './pods.resource';
import { resourceQuotasResource } from './resourcequotas.resource';
import { secretsResource } from './secrets.resource';
import { serviceAccountsResource } from './serviceaccounts.resource';
import { servicesResource } from './services.resource';

export const coreResources: ResourceDefinition[] = [
  namespacesResource,
  configMapsResource,
  secretsResource,
  serviceAccountsResource,
  servicesResource,
  endpointsResource,
  eventsResource,
  podsResource,
  resourceQuotasResource,
  limitRangesResource,
  leasesResource,
  eventsV1Resource,
];

export {
  configMapsResource,
  endpointsResource,
  eventsResource,
  eventsV1Resource,
  leasesResource,
  limitRangesResource,
  namespacesResource,
  podsResource,
  resourceQuotasResource,
  secretsResource,
  serviceAccountsResource,
  servicesResource,
};
