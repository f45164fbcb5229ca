import { type ChildProcess, spawn } from 'node:child_process';
import { onProcessExit } from './exit-cleanup.registry';

export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface SupervisedProcessOptions {
  /** Short name used in error messages, e.g. "etcd". */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  /** How many output lines to keep for error messages. */
  readonly keepLines?: number;
}

const DEFAULT_KEEP_LINES = 60;
const STOP_GRACE_MS = 10_000;

/**
 * A child process that is killed when the test process exits, keeps the tail of its output for error
 * messages, and can be stopped (SIGTERM, then SIGKILL after a grace period) or killed and awaited.
 */
export class SupervisedProcess {
  readonly exited: Promise<ProcessExit>;
  private readonly child: ChildProcess;
  private readonly lines: string[] = [];
  private exit: ProcessExit | undefined;

  constructor(private readonly opts: SupervisedProcessOptions) {
    this.child = spawn(opts.command, [...opts.args], { env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const unregister = onProcessExit(() => this.child.kill('SIGKILL'));
    this.exited = new Promise((resolve) => {
      this.child.once('error', (err) => this.record(`spawn failed: ${err.message}`));
      this.child.once('close', (code, signal) => {
        unregister();
        this.exit = { code, signal };
        resolve(this.exit);
      });
    });
    this.capture(this.child.stdout);
    this.capture(this.child.stderr);
  }

  get name(): string {
    return this.opts.name;
  }

  /** The child's process id (to signal it, e.g. SIGSTOP). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  /** The last lines the process printed (stdout and stderr interleaved). */
  output(): string {
    return this.lines.join('\n');
  }

  describeExit(): string {
    if (!this.exit) return `${this.name} is running`;
    const how = this.exit.signal ? `signal ${this.exit.signal}` : `code ${this.exit.code}`;
    return `${this.name} exited with ${how}`;
  }

  async stop(graceMs: number = STOP_GRACE_MS): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  async kill(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  private capture(stream: NodeJS.ReadableStream | null): void {
    let partial = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop() ?? '';
      parts.forEach((line) => this.record(line));
    });
    stream?.on('end', () => partial && this.record(partial));
  }

  private record(line: string): void {
    this.lines.push(line);
    if (this.lines.length > (this.opts.keepLines ?? DEFAULT_KEEP_LINES)) this.lines.shift();
  }
}
