import { describe, expect, it } from 'vitest';
import { authorizationModeFromEnv } from './aggregated-server.main';

describe('authorizationModeFromEnv', () => {
  it('is Delegating by default, AlwaysAllow when asked, and refuses anything else', () => {
    expect(authorizationModeFromEnv({})).toBe('Delegating');
    expect(authorizationModeFromEnv({ KUBE_AUTHORIZATION_MODE: '' })).toBe('Delegating');
    expect(authorizationModeFromEnv({ KUBE_AUTHORIZATION_MODE: 'AlwaysAllow' })).toBe('AlwaysAllow');
    expect(() => authorizationModeFromEnv({ KUBE_AUTHORIZATION_MODE: 'RBAC' })).toThrow('KUBE_AUTHORIZATION_MODE must be Delegating or AlwaysAllow, not "RBAC"');
  });
});
