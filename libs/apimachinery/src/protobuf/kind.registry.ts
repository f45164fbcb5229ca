/** Which envelope kinds this server can decode from protobuf, and with which field table. */
import { DaemonSet, Deployment, ReplicaSet } from './apps.fields';
import { CronJob, Job } from './batch.fields';
import { CertificateSigningRequest, HorizontalPodAutoscalerV1, HorizontalPodAutoscalerV2, Ingress, PodDisruptionBudget, PriorityClass } from './cluster.fields';
import { Lease } from './coordination.fields';
import { ConfigMap, Endpoints, Event, LimitRange, Namespace, Pod, ResourceQuota, Secret, Service, ServiceAccount } from './core.fields';
import type { MessageSpec } from './field.schema';
import { DeleteOptions } from './meta.fields';
import { ClusterRole, Role, RoleBinding, SelfSubjectAccessReview, SelfSubjectReview, SelfSubjectRulesReview, SubjectAccessReview, TokenRequest, TokenReview } from './rbac.fields';

const KINDS: ReadonlyMap<string, MessageSpec> = new Map([
  ['v1/ConfigMap', ConfigMap],
  ['v1/Secret', Secret],
  ['v1/Namespace', Namespace],
  ['v1/ServiceAccount', ServiceAccount],
  ['v1/Service', Service],
  ['v1/Pod', Pod],
  ['v1/Endpoints', Endpoints],
  ['v1/Event', Event],
  ['v1/ResourceQuota', ResourceQuota],
  ['v1/LimitRange', LimitRange],
  ['coordination.k8s.io/v1/Lease', Lease],
  ['apps/v1/Deployment', Deployment],
  ['apps/v1/ReplicaSet', ReplicaSet],
  ['apps/v1/DaemonSet', DaemonSet],
  ['batch/v1/Job', Job],
  ['batch/v1/CronJob', CronJob],
  ['rbac.authorization.k8s.io/v1/Role', Role],
  ['rbac.authorization.k8s.io/v1/ClusterRole', ClusterRole],
  ['rbac.authorization.k8s.io/v1/RoleBinding', RoleBinding],
  ['rbac.authorization.k8s.io/v1/ClusterRoleBinding', RoleBinding],
  ['authorization.k8s.io/v1/SubjectAccessReview', SubjectAccessReview],
  ['authorization.k8s.io/v1/LocalSubjectAccessReview', SubjectAccessReview],
  ['authorization.k8s.io/v1/SelfSubjectAccessReview', SelfSubjectAccessReview],
  ['authorization.k8s.io/v1/SelfSubjectRulesReview', SelfSubjectRulesReview],
  ['authentication.k8s.io/v1/SelfSubjectReview', SelfSubjectReview],
  ['authentication.k8s.io/v1beta1/SelfSubjectReview', SelfSubjectReview],
  ['authentication.k8s.io/v1/TokenRequest', TokenRequest],
  ['authentication.k8s.io/v1/TokenReview', TokenReview],
  // The cluster groups kubectl writes with typed clients.
  ['networking.k8s.io/v1/Ingress', Ingress],
  ['policy/v1/PodDisruptionBudget', PodDisruptionBudget],
  ['scheduling.k8s.io/v1/PriorityClass', PriorityClass],
  ['autoscaling/v1/HorizontalPodAutoscaler', HorizontalPodAutoscalerV1],
  ['autoscaling/v2/HorizontalPodAutoscaler', HorizontalPodAutoscalerV2],
  ['certificates.k8s.io/v1/CertificateSigningRequest', CertificateSigningRequest],
]);

/** The field table for apiVersion/kind, if supported. DeleteOptions is registered in every group version. */
export function messageSpecFor(apiVersion: string, kind: string): MessageSpec | undefined {
  if (kind === 'DeleteOptions') return DeleteOptions;
  return KINDS.get(`${apiVersion}/${kind}`);
}

/** "v1/ConfigMap", "coordination.k8s.io/v1/Lease", …: for diagnostics and tests. */
export function supportedProtobufKinds(): string[] {
  return [...KINDS.keys(), '*/DeleteOptions'];
}
