/** Named health checks served on /healthz, /livez and /readyz the way kube-apiserver prints them. */
export type HealthCheck = () => Promise<void> | void;

export type HealthEndpoint = 'healthz' | 'livez' | 'readyz';

export interface HealthResult {
  code: number;
  body: string;
}

export class HealthChecks {
  private readonly checks = new Map<string, { fn: HealthCheck; endpoints: Set<HealthEndpoint> }>();

  constructor() {
    this.add('ping', () => undefined);
  }

  /** Registers a check; by default on all three endpoints (liveness-only checks pass ['livez', 'healthz']). */
  add(name: string, fn: HealthCheck, endpoints: HealthEndpoint[] = ['healthz', 'livez', 'readyz']): void {
    this.checks.set(name, { fn, endpoints: new Set(endpoints) });
  }

  /**
   * kube's AddPostStartHook: runs a start-up step (a controller's first sync, the bootstrap objects) and serves
   * `poststarthook/<name>` on all three endpoints, failing until the step has finished. Returns the step.
   */
  addPostStartHook(name: string, hook: () => Promise<void>): Promise<void> {
    let state: { done: boolean; error?: string } = { done: false };
    this.add(`poststarthook/${name}`, () => {
      if (!state.done) throw new Error(state.error ?? 'not finished');
    });
    const run = hook();
    run.then(
      () => (state = { done: true }),
      (err: unknown) => (state = { done: false, error: err instanceof Error ? err.message : String(err) }),
    );
    return run;
  }

  async run(endpoint: HealthEndpoint, verbose: boolean, only?: string, exclude: string[] = []): Promise<HealthResult> {
    const selected = [...this.checks.entries()].filter(([name, c]) => c.endpoints.has(endpoint) && (!only || name === only) && !exclude.includes(name));
    if (only && selected.length === 0) return { code: 404, body: '404 page not found\n' };
    const results = await Promise.all(
      selected.map(async ([name, c]) => {
        try {
          await c.fn();
          return { name, ok: true, reason: '' };
        } catch (err) {
          return { name, ok: false, reason: err instanceof Error ? err.message : String(err) };
        }
      }),
    );
    const failed = results.some((r) => !r.ok);
    if (only) return failed ? { code: 500, body: `internal server error: ${results[0].reason}\n` } : { code: 200, body: 'ok' };
    if (!failed && !verbose) return { code: 200, body: 'ok' };
    const lines = results.map((r) => (r.ok ? `[+]${r.name} ok` : `[-]${r.name} failed: ${verbose ? r.reason : 'reason withheld'}`));
    lines.push(failed ? `${endpoint} check failed` : `${endpoint} check passed`);
    return { code: failed ? 500 : 200, body: `${lines.join('\n')}\n` };
  }
}
