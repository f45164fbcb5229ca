import { createWriteStream, type WriteStream } from 'node:fs';

export interface AuditEntry {
  requestId: string;
  user: string;
  groups: string[];
  verb: string;
  method: string;
  uri: string;
  code: number;
  latencyMs: number;
  sourceIP: string;
}

/** One JSON line per request (who, verb, resource, code, latency) to a file or stdout ("-"). */
export class AuditLog {
  private readonly out?: WriteStream | NodeJS.WriteStream;

  constructor(path: string | undefined) {
    if (path === '-') this.out = process.stdout;
    else if (path) this.out = createWriteStream(path, { flags: 'a' });
  }

  get enabled(): boolean {
    return this.out !== undefined;
  }

  write(entry: AuditEntry): void {
    this.out?.write(`${JSON.stringify({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', stage: 'ResponseComplete', ...entry, timestamp: new Date().toISOString() })}\n`);
  }

  close(): void {
    if (this.out && this.out !== process.stdout) (this.out as WriteStream).end();
  }
}
