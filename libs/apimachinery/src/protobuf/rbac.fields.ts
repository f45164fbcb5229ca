/**
 * Field tables for rbac.authorization.k8s.io/v1, authorization.k8s.io/v1 and authentication.k8s.io/v1 (field
 * numbers from k8s.io/api rbac/v1, authorization/v1 and authentication/v1 generated.proto): what kubectl's typed
 * clients send for `create role|rolebinding|clusterrole…` and `auth can-i|whoami`.
 */
import { int64, msg, msgList, str, strList, type MessageSpec } from './field.schema';
import { LabelSelector, ObjectMeta } from './meta.fields';

export const PolicyRule: MessageSpec = { 1: strList('verbs'), 2: strList('apiGroups'), 3: strList('resources'), 4: strList('resourceNames'), 5: strList('nonResourceURLs') };
export const Subject: MessageSpec = { 1: str('kind'), 2: str('apiGroup'), 3: str('name'), 4: str('namespace') };
export const RoleRef: MessageSpec = { 1: str('apiGroup'), 2: str('kind'), 3: str('name') };
export const AggregationRule: MessageSpec = { 1: msgList('clusterRoleSelectors', LabelSelector) };

export const Role: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msgList('rules', PolicyRule) };
export const ClusterRole: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msgList('rules', PolicyRule), 3: msg('aggregationRule', AggregationRule) };
export const RoleBinding: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msgList('subjects', Subject), 3: msg('roleRef', RoleRef) };

const ResourceAttributes: MessageSpec = { 1: str('namespace'), 2: str('verb'), 3: str('group'), 4: str('version'), 5: str('resource'), 6: str('subresource'), 7: str('name') };
const NonResourceAttributes: MessageSpec = { 1: str('path'), 2: str('verb') };
const SubjectAccessReviewSpec: MessageSpec = {
  1: msg('resourceAttributes', ResourceAttributes),
  2: msg('nonResourceAttributes', NonResourceAttributes),
  3: str('user'),
  4: strList('groups'),
  6: str('uid'),
};
const SelfSubjectAccessReviewSpec: MessageSpec = { 1: msg('resourceAttributes', ResourceAttributes), 2: msg('nonResourceAttributes', NonResourceAttributes) };

export const SubjectAccessReview: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', SubjectAccessReviewSpec) };
export const SelfSubjectAccessReview: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', SelfSubjectAccessReviewSpec) };
export const SelfSubjectRulesReview: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', { 1: str('namespace') }) };
export const SelfSubjectReview: MessageSpec = { 1: msg('metadata', ObjectMeta) };

const BoundObjectReference: MessageSpec = { 1: str('kind'), 2: str('apiVersion'), 3: str('name'), 4: str('uid') };
/** `kubectl create token`: authentication/v1 TokenRequest (spec: audiences 1, boundObjectRef 3, expirationSeconds 4). */
export const TokenRequest: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', { 1: strList('audiences'), 3: msg('boundObjectRef', BoundObjectReference), 4: int64('expirationSeconds') }) };
export const TokenReview: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', { 1: str('token'), 2: strList('audiences') }) };
