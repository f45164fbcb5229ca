import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '@kube/testing';
import { goDurationString, loadAuthorizationConfiguration } from './authorization.config';
import { authorizationConfigFromEnv } from './authorization.mode';

const dir = tempDir('authz-config');
const kubeconfig = join(dir, 'kube-system-authz-webhook.yaml');
writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\nclusters:\n- name: w\n  cluster:\n    server: https://127.0.0.1:1/authorize\n');

/** The example of kube's documentation (Authorization > Configuring the API Server using an Authorization Config File), its kubeconfig path aside. */
const KUBE_DOCS_EXAMPLE = `
apiVersion: apiserver.config.k8s.io/v1
kind: AuthorizationConfiguration
authorizers:
  - type: Webhook
    name: webhook
    webhook:
      authorizedTTL: 30s
      cacheAuthorizedRequests: true
      unauthorizedTTL: 30s
      cacheUnauthorizedRequests: true
      timeout: 3s
      subjectAccessReviewVersion: v1
      matchConditionSubjectAccessReviewVersion: v1
      failurePolicy: Deny
      connectionInfo:
        type: KubeConfigFile
        kubeConfigFile: ${kubeconfig}
      matchConditions:
      # only send resource requests to the webhook
      - expression: has(request.resourceAttributes)
      # only intercept requests to kube-system
      - expression: request.resourceAttributes.namespace == 'kube-system'
      # don't intercept requests from kube-system service accounts
      - expression: "!('system:serviceaccounts:kube-system' in request.groups)"
  - type: Node
    name: node
  - type: RBAC
    name: rbac
  - name: in-cluster-authorizer
    type: Webhook
    webhook:
      authorizedTTL: 5m
      unauthorizedTTL: 30s
      timeout: 3s
      subjectAccessReviewVersion: v1
      failurePolicy: NoOpinion
      connectionInfo:
        type: InClusterConfig
`;

const webhook = (extra: string): string => `apiVersion: apiserver.config.k8s.io/v1beta1
kind: AuthorizationConfiguration
authorizers:
- type: Webhook
  name: policy
  webhook:
${extra}`;

describe('loadAuthorizationConfiguration', () => {
  it("loads kube's documented example unchanged, with kube's defaults", () => {
    const config = loadAuthorizationConfiguration(KUBE_DOCS_EXAMPLE);
    expect(config.authorizers.map((a) => `${a.type}/${a.name}`)).toEqual(['Webhook/webhook', 'Node/node', 'RBAC/rbac', 'Webhook/in-cluster-authorizer']);
    const [first, , , inCluster] = config.authorizers;
    expect(first.webhook).toMatchObject({ authorizedTTLMs: 30_000, unauthorizedTTLMs: 30_000, timeoutMs: 3000, failurePolicy: 'Deny', subjectAccessReviewVersion: 'v1' });
    expect(first.webhook!.matchConditions.map((c) => c.expression)).toHaveLength(3);
    expect(inCluster.webhook).toMatchObject({ authorizedTTLMs: 300_000, cacheAuthorizedRequests: true, cacheUnauthorizedRequests: true, connectionInfo: { type: 'InClusterConfig' } });
  });

  it("answers kube's field errors, aggregated", () => {
    expect(() => loadAuthorizationConfiguration('apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers: []\n')).toThrow('authorizers: Required value: at least one authorization mode must be defined');
    expect(() => loadAuthorizationConfiguration('apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: Foo\n  name: foo\n')).toThrow(
      'authorizers[0].type: Unsupported value: "Foo": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook"',
    );
    expect(() => loadAuthorizationConfiguration('apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: RBAC\n  name: rbac\n- type: RBAC\n  name: rbac2\n')).toThrow('authorizers[1].type: Duplicate value: "RBAC"');
    expect(() => loadAuthorizationConfiguration('apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: RBAC\n  name: Bad_Name\n')).toThrow(
      'authorizers[0].name: Invalid value: "Bad_Name": authorizer name is invalid: a lowercase RFC 1123 subdomain must consist of',
    );
    expect(() => loadAuthorizationConfiguration('apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: RBAC\n  name: myrbac\n')).toThrow('expected name rbac for authorizer RBAC instead of myrbac');
    expect(() => loadAuthorizationConfiguration('apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: Webhook\n  name: w\n')).toThrow('authorizers[0].webhook: Required value: required when type=Webhook');
    expect(() => loadAuthorizationConfiguration(webhook('    timeout: 45s\n    subjectAccessReviewVersion: v2\n    failurePolicy: Allow\n    connectionInfo:\n      type: KubeConfigFile\n      kubeConfigFile: relative.yaml\n    matchConditions:\n    - expression: request.user\n'))).toThrow(
      '[authorizers[0].timeout: Invalid value: "45s": must be > 0s and <= 30s, authorizers[0].subjectAccessReviewVersion: Unsupported value: "v2": supported values: "v1", "v1beta1", authorizers[0].matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified, authorizers[0].failurePolicy: Unsupported value: "Allow": supported values: "NoOpinion", "Deny", authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "relative.yaml": must be an absolute path]',
    );
    expect(() => loadAuthorizationConfiguration(webhook(`    timeout: 3s\n    subjectAccessReviewVersion: v1\n    matchConditionSubjectAccessReviewVersion: v1\n    failurePolicy: Deny\n    connectionInfo:\n      type: KubeConfigFile\n      kubeConfigFile: ${kubeconfig}\n    matchConditions:\n    - expression: object.metadata.name == 'x'\n`))).toThrow(
      "authorizers[0].matchConditions[0].expression: Invalid value: \"object.metadata.name == 'x'\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'object'",
    );
    expect(() => loadAuthorizationConfiguration(webhook('    subjectAccessReviewVersion: v1\n    failurePolicy: Deny\n    connectionInfo:\n      type: InClusterConfig\n'))).toThrow('authorizers[0].timeout: Required value');
    expect(() => loadAuthorizationConfiguration('apiVersion: apiserver.config.k8s.io/v2\nkind: AuthorizationConfiguration\nauthorizers: []\n')).toThrow('failed to load AuthorizationConfiguration from file: no kind "AuthorizationConfiguration" is registered for version "apiserver.config.k8s.io/v2"');
  });

  it('a reload may not drop the non-webhook authorizers the server started with', () => {
    expect(() => loadAuthorizationConfiguration('apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: AlwaysDeny\n  name: alwaysdeny\n', new Set(['RBAC']))).toThrow('missing required types: [RBAC]');
  });

  it("prints durations as Go's time.Duration does", () => {
    expect([3000, 500, 90_000, 300_000, 3_600_000].map(goDurationString)).toEqual(['3s', '500ms', '1m30s', '5m0s', '1h0m0s']);
  });

  it('KUBE_AUTHORIZATION_CONFIG excludes KUBE_AUTHORIZATION_MODE, as kube\'s flags exclude each other', () => {
    expect(authorizationConfigFromEnv({})).toBeUndefined();
    expect(authorizationConfigFromEnv({ KUBE_AUTHORIZATION_CONFIG: '', KUBE_AUTHORIZATION_MODE: 'RBAC' })).toBeUndefined();
    expect(authorizationConfigFromEnv({ KUBE_AUTHORIZATION_CONFIG: '/etc/authz.yaml' })).toBe('/etc/authz.yaml');
    expect(() => authorizationConfigFromEnv({ KUBE_AUTHORIZATION_CONFIG: '/etc/authz.yaml', KUBE_AUTHORIZATION_MODE: 'RBAC' })).toThrow('KUBE_AUTHORIZATION_CONFIG can not be specified when KUBE_AUTHORIZATION_MODE is defined');
  });
});
