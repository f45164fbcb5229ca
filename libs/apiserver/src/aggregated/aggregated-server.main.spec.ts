import { describe, expect, it } from 'vitest';
import { authorizationModeFromEnv } from './aggregated-server.main';

describe('authorizationModeFromEnv', () => {
  it('is Delegating by default (and for RBAC), AlwaysAllow when asked, and refuses anything else', () => {
    expect(authorizationModeFromEnv({})).toBe('Delegating');
    expect(authorizationModeFromEnv({ KUBE_AUTHORIZATION_MODE: '' })).toBe('Delegating');
    expect(authorizationModeFromEnv({ KUBE_AUTHORIZATION_MODE: 'AlwaysAllow' })).toBe('AlwaysAllow');
    // The front door's RBAC, from an environment shared by every process: the control plane's RBAC decides.
    expect(authorizationModeFromEnv({ KUBE_AUTHORIZATION_MODE: 'RBAC' })).toBe('Delegating');
    expect(() => authorizationModeFromEnv({ KUBE_AUTHORIZATION_MODE: 'Webhook' })).toThrow('KUBE_AUTHORIZATION_MODE must be Delegating, RBAC or AlwaysAllow, not "Webhook"');
  });
});
