/** Fixtures for the APF specs: a level with one queue of one that never borrows, and a FlowSchema sending user "flooder" to it. */
import type { FlowSchema, PriorityLevelConfiguration } from './flowcontrol.types';

export const TINY_LEVEL: PriorityLevelConfiguration = {
  apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
  kind: 'PriorityLevelConfiguration',
  metadata: { name: 'tiny', uid: 'tiny-pl' },
  spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, borrowingLimitPercent: 0, limitResponse: { type: 'Queue', queuing: { queues: 1, handSize: 1, queueLengthLimit: 1 } } } },
};

export const TINY_SCHEMA: FlowSchema = {
  apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
  kind: 'FlowSchema',
  metadata: { name: 'tiny', uid: 'tiny-fs' },
  spec: {
    priorityLevelConfiguration: { name: 'tiny' },
    matchingPrecedence: 500,
    distinguisherMethod: { type: 'ByUser' },
    rules: [{ subjects: [{ kind: 'User', user: { name: 'flooder' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }] }],
  },
};
