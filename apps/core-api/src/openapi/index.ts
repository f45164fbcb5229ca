/**
 * Schemas of the built-in types core-api serves, extracted from Kubernetes' published OpenAPI v3 spec.
 * They are generated .ts modules rather than .json because the swc build does not copy JSON into dist.
 * The meta/v1 types they reference (ObjectMeta, Status, …) are shared from @kube/apiserver.
 */
import type { SchemaComponents } from '@kube/apimachinery';
import { metaV1Components } from '@kube/apiserver';
import { appsV1Components as appsOwn } from './apps-v1.schemas';
import { authenticationV1Components as authenticationOwn } from './authentication-v1.schemas';
import { authorizationV1Components as authorizationOwn } from './authorization-v1.schemas';
import { batchV1Components as batchOwn } from './batch-v1.schemas';
import { coordinationV1Components as coordinationOwn } from './coordination-v1.schemas';
import { coreV1Components as coreOwn } from './core-v1.schemas';
import { flowcontrolV1Components as flowcontrolOwn } from './flowcontrol-v1.schemas';
import { rbacV1Components as rbacOwn } from './rbac-v1.schemas';
import { autoscalingV1Components as autoscalingV1Own } from './autoscaling-v1.schemas';
import { autoscalingV2Components as autoscalingV2Own } from './autoscaling-v2.schemas';
import { certificatesV1Components as certificatesOwn } from './certificates-v1.schemas';
import { discoveryV1Components as discoveryOwn } from './discovery-v1.schemas';
import { eventsV1Components as eventsOwn } from './events-v1.schemas';
import { networkingV1Components as networkingOwn } from './networking-v1.schemas';
import { nodeV1Components as nodeOwn } from './node-v1.schemas';
import { policyV1Components as policyOwn } from './policy-v1.schemas';
import { schedulingV1Components as schedulingOwn } from './scheduling-v1.schemas';
import { storageV1Components as storageOwn } from './storage-v1.schemas';
import { admissionregistrationV1Components as admissionregistrationOwn } from './admissionregistration-v1.schemas';

export const coreV1Components: SchemaComponents = { ...metaV1Components, ...coreOwn };
/** meta/v1 schemas beyond @kube/apiserver's that the core group brings (LabelSelector, …), shared with other groups. */
const coreMeta: SchemaComponents = Object.fromEntries(Object.entries(coreOwn).filter(([name]) => name.startsWith('io.k8s.apimachinery.pkg.apis.meta.v1.')));
export const coordinationV1Components: SchemaComponents = { ...metaV1Components, ...coordinationOwn };
export const rbacV1Components: SchemaComponents = { ...metaV1Components, ...coreMeta, ...rbacOwn };
export const authorizationV1Components: SchemaComponents = { ...metaV1Components, ...coreMeta, ...authorizationOwn };
export const authenticationV1Components: SchemaComponents = { ...metaV1Components, ...authenticationOwn };
export const flowcontrolV1Components: SchemaComponents = { ...metaV1Components, ...flowcontrolOwn };
/** The workload groups embed core/v1 pod templates (and PVCs): their modules leave those to the core one. */
export const appsV1Components: SchemaComponents = { ...coreV1Components, ...appsOwn };
export const batchV1Components: SchemaComponents = { ...coreV1Components, ...batchOwn };

/** The cluster groups (issue 16) embed core/v1 and meta/v1 types: their modules leave those to the core one. */
const withMeta = (own: SchemaComponents): SchemaComponents => ({ ...coreV1Components, ...own });
export const autoscalingV1Components = withMeta(autoscalingV1Own);
export const autoscalingV2Components = withMeta(autoscalingV2Own);
export const certificatesV1Components = withMeta(certificatesOwn);
export const discoveryV1Components = withMeta(discoveryOwn);
export const eventsV1Components = withMeta(eventsOwn);
export const networkingV1Components = withMeta(networkingOwn);
export const nodeV1Components = withMeta(nodeOwn);
export const policyV1Components = withMeta(policyOwn);
export const schedulingV1Components = withMeta(schedulingOwn);
export const storageV1Components = withMeta(storageOwn);
export const admissionregistrationV1Components: SchemaComponents = { ...metaV1Components, ...coreMeta, ...admissionregistrationOwn };
