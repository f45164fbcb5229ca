import { BOOTSTRAP_FLOW_SCHEMAS, BOOTSTRAP_PRIORITY_LEVELS, type FlowSchema, type PriorityLevelConfiguration } from '@kube/apiserver';
import { describe, expect, it } from 'vitest';
import { flowSchemasResource, priorityLevelConfigurationsResource } from './flowcontrol.resources';
import { cells, create, messages, meta } from './strategy.testing';

const schema = (spec: Partial<FlowSchema['spec']>, name = 'mine'): FlowSchema => ({ metadata: meta(name), spec: { priorityLevelConfiguration: { name: 'global-default' }, ...spec } });
const level = (spec: PriorityLevelConfiguration['spec'], name = 'mine'): PriorityLevelConfiguration => ({ metadata: meta(name), spec });

describe('flowschemas', () => {
  it('accepts every bootstrap FlowSchema and defaults matchingPrecedence to 1000', () => {
    for (const fs of BOOTSTRAP_FLOW_SCHEMAS) expect(messages(create(flowSchemasResource, structuredClone(fs)))).toEqual([]);
    const fs = schema({ rules: [{ subjects: [{ kind: 'User', user: { name: 'u' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }] }] });
    expect(create(flowSchemasResource, fs)).toEqual([]);
    expect(fs.spec.matchingPrecedence).toBe(1000);
  });

  it('refuses what kube refuses, with kube\'s messages', () => {
    const fs = schema({
      matchingPrecedence: 1,
      distinguisherMethod: { type: 'ByGroup' },
      rules: [
        { subjects: [] },
        {
          subjects: [{ kind: 'ServiceAccount', serviceAccount: { namespace: '', name: 'a' }, user: { name: 'x' } }, { kind: 'Robot' }],
          resourceRules: [{ verbs: ['*', 'get'], apiGroups: [], resources: ['*', 'pods'], namespaces: ['Bad_NS'] }],
          nonResourceRules: [{ verbs: ['fly'], nonResourceURLs: ['metrics', '/a/*/b'] }],
        },
      ],
    });
    expect(messages(create(flowSchemasResource, fs))).toEqual([
      "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
      'spec.distinguisherMethod.type: Unsupported value: "ByGroup": supported values: "ByNamespace", "ByUser"',
      'spec.rules[0].subjects: Required value: subjects must contain at least one value',
      'spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty',
      'spec.rules[1].subjects[0].serviceAccount.namespace: Required value: must specify namespace for service account',
      "spec.rules[1].subjects[0].user: Forbidden: user is forbidden when subject kind is not 'User'",
      'spec.rules[1].subjects[1].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"',
      'spec.rules[1].resourceRules[0].verbs: Invalid value: ["*","get"]: if \'*\' is present, must not specify other verbs',
      'spec.rules[1].resourceRules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'spec.rules[1].resourceRules[0].resources: Invalid value: ["*","pods"]: if \'*\' is present, must not specify other resources',
      expect.stringMatching(/^spec\.rules\[1\]\.resourceRules\[0\]\.namespaces\[0\]: Invalid value: "Bad_NS": each member of this list must be '\*' or a DNS-1123 label; a lowercase RFC 1123 label/),
      expect.stringMatching(/^spec\.rules\[1\]\.nonResourceRules\[0\]\.verbs: Unsupported value: \["fly"\]: supported values: "create", /),
      'spec.rules[1].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "metrics": must start with slash',
      'spec.rules[1].nonResourceRules[0].nonResourceURLs[1]: Invalid value: "/a/*/b": wildcard can only do suffix matching',
    ]);
    expect(messages(create(flowSchemasResource, schema({ matchingPrecedence: 10001, priorityLevelConfiguration: { name: '' } })))).toEqual([
      'spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000',
      'spec.priorityLevelConfiguration.name: Required value: must reference a priority level',
    ]);
  });

  it('keeps the mandatory FlowSchemas at their fixed spec', () => {
    const exempt = structuredClone(BOOTSTRAP_FLOW_SCHEMAS.find((f) => f.metadata.name === 'exempt') as FlowSchema);
    exempt.spec.distinguisherMethod = { type: 'ByUser' };
    expect(messages(create(flowSchemasResource, exempt))).toEqual([expect.stringMatching(/^spec: Invalid value: .*: spec of 'exempt' must equal the fixed value$/)]);
  });

  it('prints kube\'s columns, MissingPL from the Dangling condition', () => {
    const fs = schema({ matchingPrecedence: 9900, distinguisherMethod: { type: 'ByUser' } });
    expect(cells(flowSchemasResource, fs)).toEqual({ PriorityLevel: 'global-default', MatchingPrecedence: 9900, DistinguisherMethod: 'ByUser', Age: '10m', MissingPL: '?' });
    fs.status = { conditions: [{ type: 'Dangling', status: 'False' }] };
    delete fs.spec.distinguisherMethod;
    expect(cells(flowSchemasResource, fs)).toMatchObject({ DistinguisherMethod: '<none>', MissingPL: 'False' });
  });
});

describe('prioritylevelconfigurations', () => {
  it('accepts every bootstrap level and defaults shares and queuing as kube does', () => {
    for (const pl of BOOTSTRAP_PRIORITY_LEVELS) expect(messages(create(priorityLevelConfigurationsResource, structuredClone(pl)))).toEqual([]);
    const pl = level({ type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } });
    expect(create(priorityLevelConfigurationsResource, pl)).toEqual([]);
    expect(pl.spec.limited).toEqual({ nominalConcurrencyShares: 30, lendablePercent: 0, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } } });
  });

  it('refuses what kube refuses, with kube\'s messages', () => {
    expect(messages(create(priorityLevelConfigurationsResource, level({ type: 'Exempt', limited: { limitResponse: { type: 'Reject' } } })))).toEqual([
      'spec.type: Invalid value: "Exempt": type must be \'Exempt\' if and only if name is \'exempt\'',
      'spec.limited: Forbidden: must be nil if the type is not Limited',
    ]);
    const pl = level({ type: 'Limited', limited: { nominalConcurrencyShares: -1, lendablePercent: 101, borrowingLimitPercent: -2, limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 5, queueLengthLimit: -1 } } } });
    expect(messages(create(priorityLevelConfigurationsResource, pl))).toEqual([
      'spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer',
      'spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: -1: must be positive',
      'spec.limited.limitResponse.queuing.handSize: Invalid value: 5: should not be greater than queues (4)',
      'spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive',
      'spec.limited.borrowingLimitPercent: Invalid value: -2: if specified, must be a non-negative integer',
    ]);
    const entropy = level({ type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 1_000_000, handSize: 5, queueLengthLimit: 1 } } } });
    expect(messages(create(priorityLevelConfigurationsResource, entropy))).toEqual(['spec.limited.limitResponse.queuing.handSize: Invalid value: 5: required entropy bits of deckSize 1000000 and handSize 5 should not be greater than 60']);
    expect(messages(create(priorityLevelConfigurationsResource, level({ type: 'Limited', limited: { limitResponse: { type: 'Reject', queuing: { queues: 1 } } } })))).toEqual([
      'spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited',
    ]);
    expect(messages(create(priorityLevelConfigurationsResource, level({ type: 'Limited' })))).toEqual(['spec.limited: Required value: must not be empty when type is Limited']);
  });

  it('lets the exempt level\'s exempt settings change, nothing else of a mandatory level', () => {
    const exempt = structuredClone(BOOTSTRAP_PRIORITY_LEVELS.find((p) => p.metadata.name === 'exempt') as PriorityLevelConfiguration);
    exempt.spec.exempt = { nominalConcurrencyShares: 10, lendablePercent: 50 };
    expect(create(priorityLevelConfigurationsResource, exempt)).toEqual([]);
    const catchAll = structuredClone(BOOTSTRAP_PRIORITY_LEVELS.find((p) => p.metadata.name === 'catch-all') as PriorityLevelConfiguration);
    (catchAll.spec.limited as { nominalConcurrencyShares: number }).nominalConcurrencyShares = 50;
    expect(messages(create(priorityLevelConfigurationsResource, catchAll))).toEqual([expect.stringMatching(/spec of 'catch-all' must equal the fixed value$/)]);
  });

  it('prints kube\'s columns, <none> where an exempt or Reject level has no value', () => {
    const [catchAll, exempt, system] = ['catch-all', 'exempt', 'system'].map((n) => structuredClone(BOOTSTRAP_PRIORITY_LEVELS.find((p) => p.metadata.name === n) as PriorityLevelConfiguration));
    expect(cells(priorityLevelConfigurationsResource, system)).toEqual({ Type: 'Limited', NominalConcurrencyShares: 30, Queues: 64, HandSize: 6, QueueLengthLimit: 50 });
    expect(cells(priorityLevelConfigurationsResource, catchAll)).toEqual({ Type: 'Limited', NominalConcurrencyShares: 5, Queues: '<none>', HandSize: '<none>', QueueLengthLimit: '<none>' });
    expect(cells(priorityLevelConfigurationsResource, exempt)).toMatchObject({ Type: 'Exempt', NominalConcurrencyShares: '<none>', Queues: '<none>' });
  });
});
