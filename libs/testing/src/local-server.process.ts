import { requireExecutable } from './executable.locator';
import { assertPortsFree } from './free-port';
import { type HealthProbeTls, httpStatus, isPortClash, waitUntilReady } from './readiness.probe';
import { SupervisedProcess } from './supervised.process';

/** How to run one local server binary (etcd, nats-server) for tests. */
export interface LocalServerSpec {
  name: string;
  executable: string;
  installHint: string;
  ports: number[];
  args: string[];
  /** Ready once this URL answers 200. */
  healthUrl: string;
  /** For an https:// healthUrl: the CA to verify the server with, and a client certificate to present. */
  healthTls?: HealthProbeTls;
  startTimeoutMs: number;
}

/** A supervised local server that can be stopped, killed (a crash) and restarted on the same ports and data. */
export abstract class LocalServerProcess {
  private proc: SupervisedProcess | undefined;

  protected abstract spec(): LocalServerSpec;

  async stop(): Promise<void> {
    await this.proc?.stop();
  }

  async kill(): Promise<void> {
    await this.proc?.kill();
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.launch();
  }

  protected async launch(): Promise<void> {
    const spec = this.spec();
    const command = requireExecutable(spec.executable, spec.installHint);
    await assertPortsFree(spec.name, spec.ports);
    this.proc = new SupervisedProcess({ name: spec.name, command, args: spec.args });
    await waitUntilReady(this.proc, async () => (await httpStatus(spec.healthUrl, undefined, spec.healthTls)) === 200, spec.startTimeoutMs);
  }
}

const PORT_CLASH_ATTEMPTS = 3;

/**
 * Starts a server on ports chosen by `pick`; when "free" ports were taken by someone else before the server
 * bound them, tries again with new ones (unless the caller fixed the ports).
 */
export async function startWithFreshPorts<T>(fixedPorts: boolean, start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      if (fixedPorts || attempt >= PORT_CLASH_ATTEMPTS || !isPortClash(err)) throw err;
    }
  }
}
