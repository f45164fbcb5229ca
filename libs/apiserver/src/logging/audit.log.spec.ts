import { mkdirSync, readFileSync } from 'node:fs';
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

  it('survives a file it cannot open: the error is logged, events are dropped, nothing throws', async () => {
    const dir = tempDir('audit-log-dir');
    mkdirSync(join(dir, 'is-a-directory'));
    const log = new AuditLog(join(dir, 'is-a-directory'));
    await new Promise((r) => setTimeout(r, 50));
    expect(() => log.write(event('x'))).not.toThrow();
    await new Promise((r) => setTimeout(r, 50));
  });
});
