import { createWriteStream, fchmod, type WriteStream } from 'node:fs';
import { Logger } from '@nestjs/common';
import type { AuditEvent } from '../audit/audit.event';
import { AuditPolicyChecker, DEFAULT_AUDIT_POLICY, type AuditPolicy } from '../audit/audit.policy';

/**
 * kube's log backend: one audit.k8s.io/v1 Event per JSON line to a file or stdout ("-"), for the requests and
 * stages the policy asks for (without a policy: every request at Metadata, once it completed).
 */
export class AuditLog {
  private readonly out?: WriteStream | NodeJS.WriteStream;
  readonly policy: AuditPolicyChecker;

  constructor(path: string | undefined, policy: AuditPolicy = DEFAULT_AUDIT_POLICY) {
    if (path === '-') this.out = process.stdout;
    else if (path) {
      // Owner-only, as kube-apiserver's (0600): audit events carry users, objects and request bodies. `mode` only
      // applies to a new file; one left readable by an older version is narrowed once opened.
      const file = createWriteStream(path, { flags: 'a', mode: 0o600 });
      file.once('open', (fd: number) => fchmod(fd, 0o600, () => undefined));
      // A file that cannot be opened or written must not take the server down: say so once, keep serving.
      file.once('error', (err) => new Logger('AuditLog').error(`audit log ${path}: ${err.message}; audit events are dropped`));
      this.out = file;
    }
    this.policy = new AuditPolicyChecker(policy);
  }

  get enabled(): boolean {
    return this.out !== undefined;
  }

  write(event: AuditEvent): void {
    // Requests still finishing after close() (shutdown) are not written: a write after end would throw.
    if (!this.out || this.out.writableEnded || this.out.destroyed) return;
    this.out.write(`${JSON.stringify(event)}\n`);
  }

  close(): void {
    if (this.out && this.out !== process.stdout) (this.out as WriteStream).end();
  }
}
