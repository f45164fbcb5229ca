import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes } from '../admission.types';
import { isExemptAdmissionConfiguration, namedRuleMatches, ruleMatches, ruleRequest, type RuleRequest } from './rule.matcher';

const req = (over: Partial<RuleRequest> = {}): RuleRequest => ({ group: '', version: 'v1', resource: 'pods', subresource: '', operation: 'CREATE', namespaced: true, ...over });
const rule = { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] };

describe('rule matching (kube predicates/rules)', () => {
  it('matches group, version, resource and operation, each literally or by *', () => {
    expect(ruleMatches(rule, req())).toBe(true);
    expect(ruleMatches(rule, req({ operation: 'UPDATE' }))).toBe(false);
    expect(ruleMatches(rule, req({ group: 'apps' }))).toBe(false);
    expect(ruleMatches(rule, req({ version: 'v2' }))).toBe(false);
    expect(ruleMatches({ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }, req({ group: 'apps', operation: 'DELETE' }))).toBe(true);
  });

  it('selects subresources only when named: pods/status, pods/*, */status, */*', () => {
    const status = req({ subresource: 'status' });
    expect(ruleMatches(rule, status)).toBe(false);
    expect(ruleMatches({ ...rule, resources: ['*'] }, status)).toBe(false);
    for (const r of ['pods/status', 'pods/*', '*/status', '*/*']) expect(ruleMatches({ ...rule, resources: [r] }, status), r).toBe(true);
    expect(ruleMatches({ ...rule, resources: ['*/scale'] }, status)).toBe(false);
    expect(ruleMatches({ ...rule, resources: ['*/*'] }, req())).toBe(true);
  });

  it('scopes Namespaced and Cluster, a Namespace itself being cluster-scoped', () => {
    expect(ruleMatches({ ...rule, scope: 'Namespaced' }, req())).toBe(true);
    expect(ruleMatches({ ...rule, scope: 'Cluster' }, req())).toBe(false);
    const ns = ruleRequest({ operation: 'CREATE', resource: { group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false }, subresource: '', namespace: 'dev', name: 'dev', ctx: { user: { name: 'a', groups: [] }, dryRun: false, warnings: [] } } as AdmissionAttributes);
    expect(ns.namespaced).toBe(false);
    expect(ruleMatches({ ...rule, resources: ['namespaces'], scope: 'Cluster' }, ns)).toBe(true);
  });

  it('limits named rules by resourceNames', () => {
    expect(namedRuleMatches({ ...rule, resourceNames: ['a'] }, req(), 'a')).toBe(true);
    expect(namedRuleMatches({ ...rule, resourceNames: ['a'] }, req(), 'b')).toBe(false);
    expect(namedRuleMatches(rule, req(), 'b')).toBe(true);
  });

  it('exempts admission configuration objects', () => {
    expect(isExemptAdmissionConfiguration('admissionregistration.k8s.io', 'validatingwebhookconfigurations')).toBe(true);
    expect(isExemptAdmissionConfiguration('admissionregistration.k8s.io', 'validatingadmissionpolicybindings')).toBe(true);
    expect(isExemptAdmissionConfiguration('', 'configmaps')).toBe(false);
  });
});
