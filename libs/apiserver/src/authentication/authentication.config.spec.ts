import { describe, expect, it } from 'vitest';
import { loadAuthenticationConfiguration } from './authentication.config';

const header = 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\n';
const load = (body: string, disallowed: string[] = []): unknown => loadAuthenticationConfiguration(header + body, disallowed);
const error = (body: string, disallowed: string[] = []): string => {
  try {
    load(body, disallowed);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected an error');
};

describe('AuthenticationConfiguration', () => {
  it("loads kube's documented example (v1beta1 and v1)", () => {
    const doc = `jwt:
- issuer:
    url: https://example.com
    discoveryURL: https://discovery.example.com/.well-known/openid-configuration
    audiences:
    - my-app
    - my-other-app
    audienceMatchPolicy: MatchAny
  claimValidationRules:
  - expression: 'claims.hd == "example.com"'
    message: "the hd claim must be set to example.com"
  - expression: 'claims.exp - claims.nbf <= 86400'
    message: "total token lifetime must not exceed 24 hours"
  claimMappings:
    username:
      expression: 'claims.username + ":external-user"'
    groups:
      expression: 'claims.roles.split(",")'
    uid:
      expression: 'claims.sub'
    extra:
    - key: 'example.com/tenant'
      valueExpression: 'claims.tenant'
  userValidationRules:
  - expression: "!user.username.startsWith('system:')"
    message: 'username cannot used reserved system: prefix'
  - expression: "user.groups.all(group, !group.startsWith('system:'))"
    message: 'groups cannot used reserved system: prefix'
anonymous:
  enabled: true
  conditions:
  - path: /livez
`;
    expect(load(doc)).toMatchObject({ config: { jwt: [{ issuer: { url: 'https://example.com' } }], anonymous: { enabled: true, conditions: [{ path: '/livez' }] } } });
    expect(() => loadAuthenticationConfiguration(header.replace('v1beta1', 'v1') + doc)).not.toThrow();
  });

  it("refuses what kube's validation refuses, with its field paths and messages", () => {
    expect(error('jwt:\n- issuer: {url: "http://x", audiences: [a]}\n  claimMappings: {username: {claim: sub, prefix: ""}}\n')).toBe('jwt[0].issuer.url: Invalid value: "http://x": URL scheme must be https');
    expect(error('jwt:\n- issuer: {url: "https://x"}\n  claimMappings: {username: {claim: sub, prefix: ""}}\n')).toBe('jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required');
    expect(error('jwt:\n- issuer: {url: "https://x", audiences: [a, b]}\n  claimMappings: {username: {claim: sub, prefix: ""}}\n')).toBe(
      'jwt[0].issuer.audienceMatchPolicy: Invalid value: "": audienceMatchPolicy must be MatchAny for multiple audiences',
    );
    expect(error('jwt:\n- issuer: {url: "https://x", audiences: [a]}\n  claimMappings: {username: {claim: sub}}\n')).toBe(
      'jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing',
    );
    expect(error('jwt:\n- issuer: {url: "https://x", audiences: [a]}\n  claimMappings: {username: {}}\n')).toBe('jwt[0].claimMappings.username: Required value: claim or expression is required');
    expect(error('jwt:\n- issuer: {url: "https://x", audiences: [a]}\n  claimMappings: {username: {expression: "claims.email"}}\n')).toBe(
      'jwt[0].claimMappings.username.expression: Invalid value: "claims.email": claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression',
    );
    expect(error('jwt:\n- issuer: {url: "https://x", audiences: [a]}\n  claimMappings: {username: {claim: sub, prefix: ""}}\n  claimValidationRules: [{expression: "claims.x"}]\n')).toBe(
      'jwt[0].claimValidationRules[0].expression: Invalid value: "claims.x": must evaluate to bool',
    );
    expect(error('jwt:\n- issuer: {url: "https://x", audiences: [a]}\n  claimMappings: {username: {claim: sub, prefix: ""}, extra: [{key: "kubernetes.io/x", valueExpression: "claims.x"}]}\n')).toBe(
      'jwt[0].claimMappings.extra[0].key: Invalid value: "kubernetes.io/x": k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use',
    );
    expect(error('jwt:\n- issuer: {url: "https://kubernetes.default.svc.cluster.local", audiences: [a]}\n  claimMappings: {username: {claim: sub, prefix: ""}}\n', ['https://kubernetes.default.svc.cluster.local'])).toBe(
      'jwt[0].issuer.url: Invalid value: "https://kubernetes.default.svc.cluster.local": URL must not overlap with disallowed issuers: [https://kubernetes.default.svc.cluster.local]',
    );
    expect(error('anonymous: {enabled: false, conditions: [{path: /livez}]}\n')).toBe('anonymous.conditions: Invalid value: [{"path":"/livez"}]: enabled should be set to true when conditions are defined');
    const two = error('jwt:\n- issuer: {url: "https://x", audiences: [a]}\n  claimMappings: {username: {claim: sub, prefix: ""}}\n- issuer: {url: "https://x", audiences: [a]}\n  claimMappings: {username: {claim: sub, prefix: ""}}\n');
    expect(two).toBe('jwt[1].issuer.url: Duplicate value: "https://x"');
    expect(error('jwt:\n- issuer: {url: "https://x", audiences: [a]}\n  claimMappings: {username: {claim: sub, prefix: ""}}\n  claimValidationRules: [{expression: "claims.x ==", message: m}]\n')).toMatch(
      /^jwt\[0\]\.claimValidationRules\[0\]\.expression: Invalid value: "claims.x ==": compilation failed: ERROR: <input>:1:/,
    );
  });

  it('decodes strictly and checks the kind', () => {
    expect(error('jwt:\n- issuer: {url: "https://x", audiences: [a], clientID: b}\n  claimMappings: {username: {claim: sub, prefix: ""}}\n')).toBe('strict decoding error: unknown field "jwt[0].issuer.clientID"');
    expect(() => loadAuthenticationConfiguration('apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\n')).toThrow(/no kind "AuthorizationConfiguration" is registered/);
    expect(() => loadAuthenticationConfiguration('')).toThrow('empty config data');
  });
});
