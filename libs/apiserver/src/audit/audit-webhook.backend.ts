import { Agent, request } from 'node:https';
import type { AuditEvent } from './audit.event';
import type { AuditBackend } from './audit.backend';
import { encodeEventList } from './audit.format';
import { handlePluginError } from './audit.metrics';
import type { WebhookConnection } from './webhook.kubeconfig';

/** apimachinery's wait.Backoff as kube's webhooks use it (DefaultRetryBackoffWithInitialDelay). */
export interface WebhookBackoff {
  initialMs: number;
  factor: number;
  jitter: number;
  steps: number;
}

/** kube's webhook.DefaultRetryBackoffWithInitialDelay: 5 tries, waits growing ×1.5 with up to 20 % jitter. */
export function defaultWebhookBackoff(initialMs: number): WebhookBackoff {
  return { initialMs, factor: 1.5, jitter: 0.2, steps: 5 };
}

/** The waits between tries that a backoff makes (wait.Backoff.Step: jitter adds up to jitter × the wait). */
export function backoffDelays(b: WebhookBackoff, random: () => number = Math.random): number[] {
  const delays: number[] = [];
  let d = b.initialMs;
  for (let step = b.steps; step > 1; step--) {
    delays.push(b.jitter > 0 ? d + random() * b.jitter * d : d);
    d *= b.factor;
  }
  return delays;
}

/** kube's defaultRequestTimeout for webhooks: the whole call, the answer's body included. */
const REQUEST_TIMEOUT_MS = 30_000;
const PLUGIN = 'webhook';

/** client-go's words for a non-2xx answer without a Status (rest.Result.Error). */
function httpFailure(code: number, body: string): string {
  try {
    const status = JSON.parse(body) as { kind?: unknown; message?: unknown };
    if (status.kind === 'Status' && typeof status.message === 'string' && status.message) return status.message;
  } catch {
    // not a Status
  }
  switch (code) {
    case 401:
      return 'Unauthorized';
    case 403:
      return 'Forbidden';
    case 404:
      return 'the server could not find the requested resource';
    case 500:
      return `an error on the server (${JSON.stringify(body.slice(0, 256))}) has prevented the request from succeeding`;
    default:
      return `the server responded with the status code ${code} but did not return more information`;
  }
}

/**
 * kube's webhook backend (k8s.io/apiserver plugin/pkg/audit/webhook): each batch is POSTed as an
 * audit.k8s.io/v1 EventList (application/json) to the kubeconfig's server, retried on any error with
 * exponential backoff (DefaultRetryBackoffWithInitialDelay); a batch that still fails is counted in
 * apiserver_audit_error_total{plugin="webhook"} and logged. Once shutdown begins a failing batch is not retried
 * any more (kube keeps backing off; a stopping server should not wait minutes for a webhook that is down).
 */
export class WebhookBackend implements AuditBackend {
  private readonly agent: Agent;
  private stopping = false;
  private readonly wakeSleepers = new Set<() => void>();
  private readonly inFlight = new Set<Promise<boolean>>();

  constructor(
    private readonly conn: WebhookConnection,
    private readonly backoff: WebhookBackoff,
    private readonly timeoutMs = REQUEST_TIMEOUT_MS,
  ) {
    this.agent = new Agent({
      keepAlive: true,
      ca: conn.ca,
      cert: conn.cert,
      key: conn.key,
      rejectUnauthorized: !conn.insecureSkipTLSVerify,
      servername: conn.serverName,
    });
  }

  processEvents(events: readonly AuditEvent[]): Promise<boolean> {
    const done = this.deliver(events).then(
      () => true,
      (err: unknown) => {
        handlePluginError(PLUGIN, err, events);
        return false;
      },
    );
    this.inFlight.add(done);
    void done.finally(() => this.inFlight.delete(done));
    return done;
  }

  async shutdown(): Promise<void> {
    this.stopRetries();
    await Promise.all(this.inFlight);
    this.agent.destroy();
  }

  stopRetries(): void {
    this.stopping = true;
    for (const wake of this.wakeSleepers) wake();
  }

  toString(): string {
    return PLUGIN;
  }

  /** kube's WithExponentialBackoff with retryOnError: every error is retried; the last one is what fails. */
  private async deliver(events: readonly AuditEvent[]): Promise<void> {
    const body = Buffer.from(encodeEventList(events));
    const delays = backoffDelays(this.backoff);
    for (let attempt = 0; ; attempt++) {
      try {
        await this.post(body);
        return;
      } catch (err) {
        if (attempt >= delays.length || this.stopping) throw err;
        await this.sleep(delays[attempt]);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.wakeSleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakeSleepers.add(wake);
    });
  }

  private post(body: Buffer): Promise<void> {
    const url = this.conn.url;
    return new Promise((resolve, reject) => {
      const fail = (cause: string): void => reject(new Error(`Post "${url.href}": ${cause}`));
      const headers: Record<string, string | number> = { 'Content-Type': 'application/json', Accept: 'application/json, */*', 'Content-Length': body.length };
      if (this.conn.authorization) headers.Authorization = this.conn.authorization;
      const req = request(url, { method: 'POST', agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err) => fail(err.message));
        res.on('end', () => {
          clearTimeout(timer);
          const code = res.statusCode ?? 0;
          if (code >= 200 && code < 300) resolve();
          else reject(new Error(httpFailure(code, Buffer.concat(chunks).toString('utf8'))));
        });
      });
      const timer = setTimeout(() => {
        req.destroy();
        fail('context deadline exceeded (Client.Timeout exceeded while awaiting headers)');
      }, this.timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        fail(err.code === 'ECONNREFUSED' ? `dial tcp ${url.host}: connect: connection refused` : err.message);
      });
      req.end(body);
    });
  }
}
