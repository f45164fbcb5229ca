import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { installLastResortHandlers, type ProcessEvents } from './last-resort.handler';

describe('installLastResortHandlers', () => {
  it('logs an uncaught exception and an unhandled rejection as JSON error lines with the stack', () => {
    const proc = new EventEmitter();
    const out: string[] = [];
    installLastResortHandlers('aggregator', proc as unknown as ProcessEvents, { write: (l: string) => out.push(l) }, {});
    const err = new Error('Cannot set headers after they are sent to the client');
    proc.emit('uncaughtException', err);
    proc.emit('unhandledRejection', 'plain reason');
    const lines = out.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 'error', component: 'aggregator', context: 'LastResort', msg: 'uncaught exception: Cannot set headers after they are sent to the client' });
    expect(String(lines[0].stack)).toContain('last-resort.handler.spec.ts');
    expect(lines[1]).toMatchObject({ level: 'error', msg: 'unhandled rejection: plain reason' });
  });

  it('writes plain text lines with KUBE_LOG_FORMAT=text', () => {
    const proc = new EventEmitter();
    const out: string[] = [];
    installLastResortHandlers('core-api', proc as unknown as ProcessEvents, { write: (l: string) => out.push(l) }, { KUBE_LOG_FORMAT: 'text' });
    proc.emit('uncaughtException', new Error('boom'));
    expect(out[0]).toMatch(/^\[core-api\] uncaught exception: Error: boom/);
  });
});
