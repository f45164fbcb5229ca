/**
 * apiregistration.k8s.io/v1 APIService, the kind the aggregator serves itself: defaulting
 * (pkg/apis/apiregistration/v1/defaults.go), strategy (pkg/registry/apiservice/strategy.go) and table
 * (pkg/registry/apiservice/etcd/etcd.go ConvertToTable) of k8s.io/kube-aggregator.
 * The generic REST handler does the rest: metadata (no generation: kube's strategy sets none), and copying everything but status on /status.
 */
import type { KubeObject } from '@kube/apimachinery';
import { statusSubresource, type ResourceDefinition, type ResourceStrategy, type TableColumn } from '@kube/apiserver';
import { APISERVICE_SCHEMA, apiregistrationV1Components } from '../openapi';
import {
  APIREGISTRATION_GROUP,
  APIREGISTRATION_VERSION,
  availableCondition,
  LOCAL_AVAILABLE_MESSAGE,
  serviceDescription,
  setAvailableCondition,
  type APIService,
} from './apiservice.types';
import { isRecord, validateAPIService, validateAPIServiceUpdate, validateAPIServiceStatus } from './apiservice.validation';

/** SetDefaults_ServiceReference: "Default to 443 for backward compatibility". */
export const DEFAULT_SERVICE_PORT = 443;

/** Fills defaults in place; tolerates malformed objects, which validation then rejects. */
export function defaultAPIService(obj: KubeObject): void {
  const service = isRecord(obj.spec) ? obj.spec.service : undefined;
  if (isRecord(service) && (service.port === undefined || service.port === null)) service.port = DEFAULT_SERVICE_PORT;
}

/**
 * PrepareForCreate: clients cannot set status. A local APIService is Available at once, because nothing needs
 * checking before the delegate chain can serve it; a remote one waits for the availability controller.
 */
export function prepareAPIServiceForCreate(obj: KubeObject): void {
  // Go prints the zero APIServiceStatus as {}.
  obj.status = {};
  const local = !isRecord(obj.spec) || obj.spec.service === undefined || obj.spec.service === null;
  if (local) setAvailableCondition(obj as APIService, 'True', 'Local', LOCAL_AVAILABLE_MESSAGE);
}

/**
 * PrepareForUpdate: status only changes through /status. The generic handler already copied it before
 * admission; copying again after admission is what kube does, so a mutating plugin cannot change it either.
 */
export function prepareAPIServiceForUpdate(obj: KubeObject, old: KubeObject): void {
  if (old.status === undefined) delete obj.status;
  else obj.status = structuredClone(old.status);
}

/** "True", else the status with its reason ("False (ServiceNotFound)"); "Unknown" before any check ran. */
export function availableDescription(svc: APIService): string {
  const condition = availableCondition(svc);
  if (!condition) return 'Unknown';
  if (condition.status === 'True' || !condition.reason) return condition.status;
  return `${condition.status} (${condition.reason})`;
}

/** Columns between NAME and AGE, with kube's descriptions. */
export const apiServiceColumns: TableColumn[] = [
  {
    name: 'Service',
    type: 'string',
    description: 'The reference to the service that hosts this API endpoint.',
    cell: (obj: KubeObject) => serviceDescription(obj as APIService),
  },
  {
    name: 'Available',
    type: 'string',
    description: 'Whether this service is available.',
    cell: (obj: KubeObject) => availableDescription(obj as APIService),
  },
];

export const apiServiceStrategy: ResourceStrategy = {
  default: defaultAPIService,
  prepareForCreate: prepareAPIServiceForCreate,
  prepareForUpdate: prepareAPIServiceForUpdate,
  validate: (obj: KubeObject) => validateAPIService(obj),
  validateUpdate: (obj: KubeObject, old: KubeObject) => validateAPIServiceUpdate(obj, old),
  // As kube: a PUT never creates an APIService and must name the resourceVersion it replaces, so controllers
  // writing concurrently (autoregistration, availability) cannot silently overwrite each other.
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
};

export const apiServicesResource: ResourceDefinition = {
  group: APIREGISTRATION_GROUP,
  version: APIREGISTRATION_VERSION,
  kind: 'APIService',
  plural: 'apiservices',
  singular: 'apiservice',
  categories: ['api-extensions'],
  namespaced: false,
  subresources: { status: statusSubresource((obj: KubeObject) => validateAPIServiceStatus(obj.status as never)) },
  schema: { name: APISERVICE_SCHEMA, components: apiregistrationV1Components },
  tableColumns: apiServiceColumns,
  strategy: apiServiceStrategy,
  // Only the path-segment rule generically; `<version>.<group>` is part of the strategy's validation.
  nameValidation: 'path-segment',
};
