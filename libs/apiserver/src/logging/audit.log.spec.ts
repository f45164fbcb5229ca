import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '@kube/testing';
import type { AuditEvent } from '../audit/audit.event';
import { AuditLog } from './audit.log';

const event = (auditID: string): AuditEvent => ({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID, stage: 'ResponseComplete', requestURI: '/', verb: 'get', user: {}, requestReceivedTimestamp: '', stageTimestamp: '' });

describe('AuditLog', () => {
  it('drops events written after close (requests finishing during shutdown) instead of throwing', async () => {
    const path = join(tempDir('audit-log'), 'audit.log');
    const log = new AuditLog(path);
    log.write(event('a'));
    log.close();
    expect(() => log.write(event('late'))).not.toThrow();
    await new Promise((r) => setTimeout(r, 50));
    expect(readFileSync(path, 'utf8')).toContain('"auditID":"a"');
    expect(readFileSync(path, 'utf8')).not.toContain('late');
  });

  it('keeps the file readable by its owner only (0600), a new one and one an older version left 0644 alike', async () => {
    const dir = tempDir('audit-log-mode');
    const fresh = join(dir, 'fresh.log');
    const old = join(dir, 'old.log');
    writeFileSync(old, '', { mode: 0o644 });
    for (const path of [fresh, old]) {
      const log = new AuditLog(path);
      log.write(event('m'));
      await new Promise((r) => setTimeout(r, 50));
      log.close();
      expect(statSync(path).mode & 0o777, path).toBe(0o600);
    }
  });

  it('survives a file it cannot open: the error is logged, events are dropped, nothing throws', async () => {
    const dir = tempDir('audit-log-dir');
    mkdirSync(join(dir, 'is-a-directory'));
    const log = new AuditLog(join(dir, 'is-a-directory'));
    await new Promise((r) => setTimeout(r, 50));
    expect(() => log.write(event('x'))).not.toThrow();
    await new Promise((r) => setTimeout(r, 50));
  });
});
