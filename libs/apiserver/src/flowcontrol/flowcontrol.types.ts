/** flowcontrol.apiserver.k8s.io/v1 (k8s.io/api/flowcontrol/v1): the objects API Priority and Fairness is configured by. */
import type { KubeObject } from '@kube/apimachinery';

export const FLOWCONTROL_GROUP = 'flowcontrol.apiserver.k8s.io';
export const FLOWCONTROL_VERSION = 'v1';
/** flowcontrol.AutoUpdateAnnotationKey: "true" lets the config producer keep a bootstrap object up to date. */
export const AUTOUPDATE_ANNOTATION = 'apf.kubernetes.io/autoupdate-spec';
/** Response headers naming the matched objects (flowcontrol.ResponseHeaderMatched*UID). */
export const FLOW_SCHEMA_UID_HEADER = 'X-Kubernetes-PF-FlowSchema-UID';
export const PRIORITY_LEVEL_UID_HEADER = 'X-Kubernetes-PF-PriorityLevel-UID';

export const NAME_ALL = '*';
export const FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE = 10000;
export const FLOW_SCHEMA_CONDITION_DANGLING = 'Dangling';

export interface UserSubject {
  name: string;
}
export interface GroupSubject {
  name: string;
}
export interface ServiceAccountSubject {
  namespace: string;
  name: string;
}
export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount' | string;
  user?: UserSubject;
  group?: GroupSubject;
  serviceAccount?: ServiceAccountSubject;
}
export interface ResourcePolicyRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  clusterScope?: boolean;
  namespaces?: string[];
}
export interface NonResourcePolicyRule {
  verbs: string[];
  nonResourceURLs: string[];
}
export interface PolicyRulesWithSubjects {
  subjects: Subject[];
  resourceRules?: ResourcePolicyRule[];
  nonResourceRules?: NonResourcePolicyRule[];
}
export interface Condition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface FlowSchema extends KubeObject {
  spec: {
    priorityLevelConfiguration: { name: string };
    matchingPrecedence?: number;
    distinguisherMethod?: { type: 'ByUser' | 'ByNamespace' | string } | null;
    rules?: PolicyRulesWithSubjects[];
  };
  status?: { conditions?: Condition[] };
}

export interface QueuingConfiguration {
  queues?: number;
  handSize?: number;
  queueLengthLimit?: number;
}
export interface LimitResponse {
  type: 'Queue' | 'Reject' | string;
  queuing?: QueuingConfiguration | null;
}

export interface PriorityLevelConfiguration extends KubeObject {
  spec: {
    type: 'Exempt' | 'Limited' | string;
    limited?: {
      nominalConcurrencyShares?: number | null;
      limitResponse?: LimitResponse;
      lendablePercent?: number | null;
      borrowingLimitPercent?: number | null;
    } | null;
    exempt?: { nominalConcurrencyShares?: number | null; lendablePercent?: number | null } | null;
  };
  status?: { conditions?: Condition[] };
}

/**
 * kube-ts's own response header: the objects the answering server's watch cache holds for the listed resource,
 * named on every LIST it serves. APF at the front door estimates a LIST's seats from it (kube reads the count from
 * its own storage, which the front door does not have).
 */
export const STORAGE_OBJECTS_HEADER = 'X-Kube-Ts-Storage-Objects';
