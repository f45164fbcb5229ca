/**
 * Field tables for the cluster groups kubectl writes with typed clients (`create ingress`, `create pdb`,
 * `create priorityclass`, `autoscale`, `certificate approve`): numbers from k8s.io/api generated.proto at
 * v0.33.0 (networking/v1, policy/v1, scheduling/v1, autoscaling/v1 and v2, certificates/v1).
 */
import { bool, bytes, int32, intOrString, KEEP, msg, msgList, quantity, str, strList, time, type MessageSpec } from './field.schema';
import { LabelSelector, ObjectMeta } from './meta.fields';

// ---- networking.k8s.io/v1 ----

export const TypedLocalObjectReference: MessageSpec = { 1: str('apiGroup', KEEP), 2: str('kind', KEEP), 3: str('name', KEEP) };
export const ServiceBackendPort: MessageSpec = { 1: str('name'), 2: int32('number') };
export const IngressServiceBackend: MessageSpec = { 1: str('name', KEEP), 2: msg('port', ServiceBackendPort) };
export const IngressBackend: MessageSpec = { 4: msg('service', IngressServiceBackend), 3: msg('resource', TypedLocalObjectReference) };
export const HTTPIngressPath: MessageSpec = { 1: str('path'), 3: str('pathType', KEEP), 2: msg('backend', IngressBackend) };
export const HTTPIngressRuleValue: MessageSpec = { 1: msgList('paths', HTTPIngressPath) };
/** IngressRuleValue is inlined into IngressRule in JSON. */
export const IngressRuleValue: MessageSpec = { 1: msg('http', HTTPIngressRuleValue) };
export const IngressRule: MessageSpec = { 1: str('host'), 2: { kind: 'message', name: 'ingressRuleValue', message: IngressRuleValue, inline: true } };
export const IngressTLS: MessageSpec = { 1: strList('hosts'), 2: str('secretName') };
export const IngressSpec: MessageSpec = { 4: str('ingressClassName', KEEP), 1: msg('defaultBackend', IngressBackend), 2: msgList('tls', IngressTLS), 3: msgList('rules', IngressRule) };
export const Ingress: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', IngressSpec) };

// ---- policy/v1 ----

export const PodDisruptionBudgetSpec: MessageSpec = {
  1: intOrString('minAvailable', KEEP),
  2: msg('selector', LabelSelector),
  3: intOrString('maxUnavailable', KEEP),
  4: str('unhealthyPodEvictionPolicy', KEEP),
};
export const PodDisruptionBudget: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', PodDisruptionBudgetSpec) };

// ---- scheduling.k8s.io/v1 ----

export const PriorityClass: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: int32('value', KEEP), 3: bool('globalDefault'), 4: str('description'), 5: str('preemptionPolicy', KEEP) };

// ---- autoscaling/v1 and v2 ----

export const CrossVersionObjectReference: MessageSpec = { 1: str('kind', KEEP), 2: str('name', KEEP), 3: str('apiVersion') };
export const HorizontalPodAutoscalerSpecV1: MessageSpec = { 1: msg('scaleTargetRef', CrossVersionObjectReference), 2: int32('minReplicas', KEEP), 3: int32('maxReplicas', KEEP), 4: int32('targetCPUUtilizationPercentage', KEEP) };
export const HorizontalPodAutoscalerV1: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', HorizontalPodAutoscalerSpecV1) };
export const MetricTarget: MessageSpec = { 1: str('type', KEEP), 2: quantity('value'), 3: quantity('averageValue'), 4: int32('averageUtilization', KEEP) };
export const ResourceMetricSource: MessageSpec = { 1: str('name', KEEP), 2: msg('target', MetricTarget) };
/** The resource metrics `kubectl autoscale` writes; other metric sources are skipped and reported. */
export const MetricSpec: MessageSpec = { 1: str('type', KEEP), 4: msg('resource', ResourceMetricSource) };
export const HorizontalPodAutoscalerSpecV2: MessageSpec = { 1: msg('scaleTargetRef', CrossVersionObjectReference), 2: int32('minReplicas', KEEP), 3: int32('maxReplicas', KEEP), 4: msgList('metrics', MetricSpec) };
export const HorizontalPodAutoscalerV2: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', HorizontalPodAutoscalerSpecV2) };

// ---- certificates.k8s.io/v1 ----

export const CertificateSigningRequestCondition: MessageSpec = {
  1: str('type', KEEP),
  6: str('status', KEEP),
  2: str('reason'),
  3: str('message'),
  4: time('lastUpdateTime'),
  5: time('lastTransitionTime'),
};
/** spec.extra (map of ExtraValue) is set by the server from the requester and not decoded. */
export const CertificateSigningRequestSpec: MessageSpec = {
  1: bytes('request'),
  7: str('signerName', KEEP),
  8: int32('expirationSeconds', KEEP),
  5: strList('usages'),
  2: str('username'),
  3: str('uid'),
  4: strList('groups'),
};
export const CertificateSigningRequestStatus: MessageSpec = { 1: msgList('conditions', CertificateSigningRequestCondition), 2: bytes('certificate') };
export const CertificateSigningRequest: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', CertificateSigningRequestSpec), 3: msg('status', CertificateSigningRequestStatus) };
