import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '@kube/testing';
import { parseRequestInfo } from '../request-info';
import type { UserInfo } from '../resource.definition';
import { AuditPolicyChecker, loadAuditPolicy, parseAuditPolicy, ruleMatches, type AuditAttributes, type PolicyRule } from './audit.policy';

const tim: UserInfo = { name: 'tim@k8s.io', groups: ['humans', 'developers'] };
const sa: UserInfo = { name: 'system:serviceaccount:kube-system:controller', groups: ['system:serviceaccounts'] };

function attrs(method: string, path: string, user: UserInfo | null = tim): AuditAttributes {
  const [p, q] = path.split('?');
  return { user: user ?? undefined, info: parseRequestInfo(method, p, new URLSearchParams(q).get('watch') === 'true') };
}

// kube's "resource/*" matches the resource itself too (checker.go), so pods/* matches a plain pod get.
// The rules and requests of kube's checker_test.go (k8s.io/apiserver pkg/audit/policy), in meaning.
const rules: Record<string, PolicyRule> = {
  default: { level: 'Metadata' },
  create: { level: 'Request', verbs: ['create'] },
  tims: { level: 'Metadata', users: ['tim@k8s.io'] },
  humans: { level: 'Metadata', userGroups: ['humans'] },
  serviceAccounts: { level: 'Request', userGroups: ['system:serviceaccounts'] },
  getPods: { level: 'RequestResponse', verbs: ['get'], resources: [{ resources: ['pods', 'replicasets'] }] },
  getPodLogs: { level: 'Request', verbs: ['get'], resources: [{ resources: ['pods/log'] }] },
  getPodWildcardMatching: { level: 'Request', verbs: ['get'], resources: [{ resources: ['*'] }] },
  getPodResourceWildcardMatching: { level: 'Request', verbs: ['get'], resources: [{ resources: ['*/log'] }] },
  getPodSubResourceWildcardMatching: { level: 'Request', verbs: ['get'], resources: [{ resources: ['pods/*'] }] },
  getPodResourceNameMatching: { level: 'Request', verbs: ['get'], resources: [{ resources: ['pods'], resourceNames: ['foo'] }] },
  getClusterRoles: { level: 'Request', verbs: ['get'], resources: [{ group: 'rbac.authorization.k8s.io', resources: ['clusterroles'] }] },
  getLogs: { level: 'Request', verbs: ['get'], nonResourceURLs: ['/logs*'] },
  getMetrics: { level: 'Request', verbs: ['get'], nonResourceURLs: ['/metrics'] },
  clusterRoleEdit: { level: 'Request', resources: [{ group: 'rbac.authorization.k8s.io', resources: ['clusterroles'] }] },
  getAnyResourceInDefault: { level: 'Request', verbs: ['get'], namespaces: ['default'] },
  everythingInAnyNamespace: { level: 'Request', namespaces: ['*'] },
  clusterScoped: { level: 'Request', namespaces: [''] },
};

describe('audit policy rules (kube checker_test.go)', () => {
  const cases: Array<[string, AuditAttributes, string[]]> = [
    ['tim gets the default namespace', attrs('GET', '/api/v1/namespaces/default'), ['default', 'tims', 'humans', 'getPodWildcardMatching', 'getAnyResourceInDefault']],
    ['tim creates a pod', attrs('POST', '/api/v1/namespaces/default/pods'), ['default', 'create', 'tims', 'humans']],
    ['a service account gets a pod', attrs('GET', '/api/v1/namespaces/default/pods/foo', sa), ['default', 'serviceAccounts', 'getPods', 'getPodWildcardMatching', 'getPodSubResourceWildcardMatching', 'getPodResourceNameMatching', 'getAnyResourceInDefault']],
    ['tim gets pod bar (resourceNames)', attrs('GET', '/api/v1/namespaces/default/pods/bar'), ['default', 'tims', 'humans', 'getPods', 'getPodWildcardMatching', 'getPodSubResourceWildcardMatching', 'getAnyResourceInDefault']],
    ['tim gets a pod log (subresource)', attrs('GET', '/api/v1/namespaces/default/pods/foo/log'), ['default', 'tims', 'humans', 'getPodLogs', 'getPodWildcardMatching', 'getPodResourceWildcardMatching', 'getPodSubResourceWildcardMatching', 'getAnyResourceInDefault']],
    ['tim gets a clusterrole', attrs('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/edit'), ['default', 'tims', 'humans', 'getClusterRoles', 'clusterRoleEdit', 'clusterScoped']],
    ['tim gets /logs/kube-apiserver.log', attrs('GET', '/logs/kube-apiserver.log'), ['default', 'tims', 'humans', 'getLogs']],
    ['tim gets /metrics', attrs('GET', '/metrics'), ['default', 'tims', 'humans', 'getMetrics']],
    ['an unauthenticated request', attrs('GET', '/metrics', null), ['default', 'getMetrics']],
  ];
  for (const [name, a, matching] of cases) {
    it(name, () => {
      expect(Object.keys(rules).filter((k) => ruleMatches(rules[k], a))).toEqual(matching);
    });
  }

  it("does not let a resource rule match a non-resource request, nor the reverse, nor '*' a namespace outside it", () => {
    expect(ruleMatches({ level: 'Request', resources: [{ group: '', resources: ['*'] }] }, attrs('GET', '/healthz'))).toBe(false);
    expect(ruleMatches({ level: 'Request', nonResourceURLs: ['*'] }, attrs('GET', '/api/v1/pods'))).toBe(false);
    expect(ruleMatches(rules.everythingInAnyNamespace, attrs('GET', '/api/v1/namespaces/default/pods'))).toBe(false);
    expect(ruleMatches({ level: 'Request', resources: [{ group: 'apps' }] }, attrs('GET', '/apis/apps/v1/namespaces/a/deployments/d/scale'))).toBe(true);
  });
});

describe('AuditPolicyChecker', () => {
  it('takes the first rule that matches, unions omitStages with the policy-wide ones, and is None when none matches', () => {
    const checker = new AuditPolicyChecker({
      omitStages: ['RequestReceived'],
      rules: [
        { level: 'None', nonResourceURLs: ['/healthz*'] },
        { level: 'Metadata', resources: [{ resources: ['secrets'] }], omitStages: ['ResponseStarted'], omitManagedFields: true },
        { level: 'RequestResponse', resources: [{ resources: ['secrets', 'configmaps'] }] },
      ],
    });
    expect(checker.decide(attrs('GET', '/healthz/etcd')).level).toBe('None');
    const secrets = checker.decide(attrs('POST', '/api/v1/namespaces/a/secrets'));
    expect([secrets.level, [...secrets.omitStages].sort(), secrets.omitManagedFields]).toEqual(['Metadata', ['RequestReceived', 'ResponseStarted'], true]);
    const cm = checker.decide(attrs('POST', '/api/v1/namespaces/a/configmaps'));
    expect([cm.level, [...cm.omitStages], cm.omitManagedFields]).toEqual(['RequestResponse', ['RequestReceived'], false]);
    expect(checker.decide(attrs('GET', '/api/v1/pods')).level).toBe('None');
  });
});

describe('loading a policy', () => {
  const yaml = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: RequestResponse
  resources:
  - group: ""
    resources: ["configmaps"]
- level: Metadata
`;

  it('reads YAML and JSON', () => {
    expect(parseAuditPolicy(yaml).rules.map((r) => r.level)).toEqual(['RequestResponse', 'Metadata']);
    expect(parseAuditPolicy(JSON.stringify({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules: [{ level: 'None' }] })).rules).toEqual([{ level: 'None' }]);
  });

  it("refuses a bad policy with kube's messages", () => {
    const bad = (rulesYaml: string): string => {
      try {
        parseAuditPolicy(`apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n${rulesYaml}`);
        return 'accepted';
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(bad('- level: Verbose')).toBe('rules[0].level: Unsupported value: "Verbose": supported values: "None", "Metadata", "Request", "RequestResponse"');
    expect(bad('- {}')).toBe('rules[0].level: Required value');
    expect(bad('- level: None\n  nonResourceURLs: ["healthz"]')).toBe(`rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character`);
    expect(bad('- level: None\n  nonResourceURLs: ["/a*b"]')).toBe(`rules[0].nonResourceURLs[0]: Invalid value: "/a*b": non-resource URL wildcards '*' must be the final character of the rule`);
    expect(bad('- level: None\n  omitStages: [Done]')).toBe('rules[0].omitStages[0]: Invalid value: "Done": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic');
    expect(bad('- level: None\n  resources: [{group: "rbac.authorization.k8s.io/v1", resources: [roles]}]')).toMatch(/^rules\[0\]\.resources\.group: Invalid value: "rbac\.authorization\.k8s\.io\/v1": a lowercase RFC 1123 subdomain/);
    expect(bad('- level: None\n  resources: [{resourceNames: [x]}]')).toBe('rules[0].resources.resourceNames: Invalid value: ["x"]: using resourceNames requires at least one resource');
    expect(bad('- level: None\n  nonResourceURLs: ["/x"]\n  namespaces: [a]')).toBe('rules[0].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs');
    expect(bad('- level: Bogus\n- {}')).toBe('[rules[0].level: Unsupported value: "Bogus": supported values: "None", "Metadata", "Request", "RequestResponse", rules[1].level: Required value]');
    expect(bad('  []')).toBe('loaded illegal policy with 0 rules');
    expect(() => parseAuditPolicy('apiVersion: audit.k8s.io/v2\nkind: Policy\nrules: []')).toThrow('failed decoding: no kind "Policy" is registered for version "audit.k8s.io/v2"');
    expect(() => parseAuditPolicy('rules: []')).toThrow("failed decoding: Object 'Kind' is missing");
  });

  it('names the file in its error, as kube does', () => {
    const dir = tempDir('audit-policy');
    const path = join(dir, 'policy.yaml');
    writeFileSync(path, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Loud\n');
    expect(() => loadAuditPolicy(path)).toThrow(`rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse": from file ${path}`);
    expect(() => loadAuditPolicy(join(dir, 'missing.yaml'))).toThrow(`failed to read file path "${join(dir, 'missing.yaml')}"`);
    writeFileSync(path, yaml);
    expect(loadAuditPolicy(path).omitStages).toEqual(['RequestReceived']);
  });
});
