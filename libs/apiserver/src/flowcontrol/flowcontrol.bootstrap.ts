/**
 * kube's bootstrap configuration (k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap/default.go): the mandatory
 * objects (exempt, catch-all) and the suggested ones, as kube's config producer creates them.
 */
import { AUTOUPDATE_ANNOTATION, FLOWCONTROL_GROUP, FLOWCONTROL_VERSION, NAME_ALL, type FlowSchema, type NonResourcePolicyRule, type PolicyRulesWithSubjects, type PriorityLevelConfiguration, type ResourcePolicyRule, type Subject } from './flowcontrol.types';

const meta = (name: string) => ({ name, annotations: { [AUTOUPDATE_ANNOTATION]: 'true' } });

function level(name: string, spec: PriorityLevelConfiguration['spec']): PriorityLevelConfiguration {
  return { apiVersion: `${FLOWCONTROL_GROUP}/${FLOWCONTROL_VERSION}`, kind: 'PriorityLevelConfiguration', metadata: meta(name), spec };
}

function queued(shares: number, lendablePercent: number, queues: number, handSize: number): PriorityLevelConfiguration['spec'] {
  return { type: 'Limited', limited: { nominalConcurrencyShares: shares, lendablePercent, limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } } } };
}

function schema(name: string, pl: string, matchingPrecedence: number, distinguisher: 'ByUser' | 'ByNamespace' | undefined, rules: PolicyRulesWithSubjects): FlowSchema {
  return {
    apiVersion: `${FLOWCONTROL_GROUP}/${FLOWCONTROL_VERSION}`,
    kind: 'FlowSchema',
    metadata: meta(name),
    spec: { priorityLevelConfiguration: { name: pl }, matchingPrecedence, ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}), rules: [rules] },
  };
}

const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'User', user: { name } }));
const kubeSystemServiceAccounts: Subject[] = [{ kind: 'ServiceAccount', serviceAccount: { name: NAME_ALL, namespace: 'kube-system' } }];
const resourceRule = (verbs: string[], apiGroups: string[], resources: string[], clusterScope: boolean): ResourcePolicyRule => ({ verbs, apiGroups, resources, clusterScope, namespaces: [NAME_ALL] });
const everyResource = [resourceRule([NAME_ALL], [NAME_ALL], [NAME_ALL], true)];
const everyNonResource: NonResourcePolicyRule[] = [{ verbs: [NAME_ALL], nonResourceURLs: [NAME_ALL] }];
const everything = (subjects: Subject[]): PolicyRulesWithSubjects => ({ subjects, resourceRules: everyResource, nonResourceRules: everyNonResource });

export const MANDATORY_PRIORITY_LEVELS: readonly PriorityLevelConfiguration[] = [
  level('catch-all', { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } }),
  level('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } }),
];

export const MANDATORY_FLOW_SCHEMAS: readonly FlowSchema[] = [
  schema('exempt', 'exempt', 1, undefined, everything(groups('system:masters'))),
  schema('catch-all', 'catch-all', 10000, 'ByUser', everything(groups('system:unauthenticated', 'system:authenticated'))),
];

export const SUGGESTED_PRIORITY_LEVELS: readonly PriorityLevelConfiguration[] = [
  level('system', queued(30, 33, 64, 6)),
  level('node-high', queued(40, 25, 64, 6)),
  level('leader-election', queued(10, 0, 16, 4)),
  level('workload-high', queued(40, 50, 128, 6)),
  level('workload-low', queued(100, 90, 128, 6)),
  level('global-default', queued(20, 50, 128, 6)),
];

export const SUGGESTED_FLOW_SCHEMAS: readonly FlowSchema[] = [
  schema('system-nodes', 'system', 500, 'ByUser', everything(groups('system:nodes'))),
  schema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: groups('system:nodes'),
    resourceRules: [resourceRule([NAME_ALL], [''], ['nodes', 'nodes/status'], true), resourceRule([NAME_ALL], ['coordination.k8s.io'], ['leases'], false)],
  }),
  schema('probes', 'exempt', 2, undefined, {
    subjects: groups('system:unauthenticated', 'system:authenticated'),
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
  }),
  schema('system-leader-election', 'leader-election', 100, 'ByUser', {
    subjects: [...users('system:kube-controller-manager', 'system:kube-scheduler'), ...kubeSystemServiceAccounts],
    resourceRules: [resourceRule(['get', 'create', 'update'], ['coordination.k8s.io'], ['leases'], false)],
  }),
  schema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', everything(users('system:kube-controller-manager'))),
  schema('kube-scheduler', 'workload-high', 800, 'ByNamespace', everything(users('system:kube-scheduler'))),
  schema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', everything(kubeSystemServiceAccounts)),
  schema('service-accounts', 'workload-low', 9000, 'ByUser', everything(groups('system:serviceaccounts'))),
  schema('global-default', 'global-default', 9900, 'ByUser', everything(groups('system:unauthenticated', 'system:authenticated'))),
];

/** Every bootstrap object, mandatory first: what the front door classifies by until it has listed the real ones. */
export const BOOTSTRAP_FLOW_SCHEMAS: readonly FlowSchema[] = [...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS];
export const BOOTSTRAP_PRIORITY_LEVELS: readonly PriorityLevelConfiguration[] = [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS];
