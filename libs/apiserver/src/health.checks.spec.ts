import { describe, expect, it } from 'vitest';
import { HealthChecks } from './health.checks';

describe('HealthChecks post-start hooks', () => {
  it('serves poststarthook/<name> failing until the hook finished, on every endpoint', async () => {
    const health = new HealthChecks();
    let finish!: () => void;
    const hook = health.addPostStartHook('bootstrap-controller', () => new Promise<void>((r) => (finish = r)));
    for (const endpoint of ['healthz', 'livez', 'readyz'] as const) {
      const r = await health.run(endpoint, true);
      expect(r.code).toBe(500);
      expect(r.body).toContain('[-]poststarthook/bootstrap-controller failed: not finished');
    }
    finish();
    await hook;
    const r = await health.run('readyz', true);
    expect(r.code).toBe(200);
    expect(r.body).toContain('[+]poststarthook/bootstrap-controller ok');
    expect((await health.run('readyz', false, 'poststarthook/bootstrap-controller')).body).toBe('ok');
  });

  it('keeps failing with the reason when the hook failed', async () => {
    const health = new HealthChecks();
    await expect(health.addPostStartHook('x', () => Promise.reject(new Error('etcd unreachable')))).rejects.toThrow('etcd unreachable');
    expect((await health.run('readyz', true)).body).toContain('[-]poststarthook/x failed: etcd unreachable');
  });
});
