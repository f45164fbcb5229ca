import { describe, expect, it } from 'vitest';
import { JsonLogger, appLogger, logFormatFromEnv, logStartupFailure } from './json.logger';
import { RequestLog, requestIdOf, requestLogOptionsFromEnv } from './request.log';

function capture(): { lines: () => Array<Record<string, unknown>>; logger: JsonLogger } {
  const out: string[] = [];
  const logger = new JsonLogger('core-api', ['log', 'warn', 'error'], { write: (line: string) => out.push(line) });
  return { logger, lines: () => out.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('JsonLogger', () => {
  it('writes one JSON object per line with time, level, component, context and message', () => {
    const { logger, lines } = capture();
    logger.log('serving on https://127.0.0.1:6444', 'ApiServer');
    logger.warn({ msg: 'slow request', requestId: 'abc', latencyMs: 1200 }, 'Request');
    const [first, second] = lines();
    expect(first).toMatchObject({ level: 'info', component: 'core-api', context: 'ApiServer', msg: 'serving on https://127.0.0.1:6444' });
    expect(Date.parse(first.time as string)).not.toBeNaN();
    expect(second).toMatchObject({ level: 'warn', context: 'Request', msg: 'slow request', requestId: 'abc', latencyMs: 1200 });
  });

  it('keeps the stack of errors and drops disabled levels', () => {
    const { logger, lines } = capture();
    logger.error('boom', 'Error: boom\n    at x', 'Bootstrap');
    logger.debug('not shown', 'X');
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toMatchObject({ level: 'error', msg: 'boom', context: 'Bootstrap', stack: 'Error: boom\n    at x' });
  });

  it('is chosen by KUBE_LOG_FORMAT (json by default), refusing unknown formats', () => {
    expect(logFormatFromEnv({})).toBe('json');
    expect(appLogger('x', {})).toBeInstanceOf(JsonLogger);
    expect(appLogger('x', { KUBE_LOG_FORMAT: 'text' })).toEqual(['log', 'warn', 'error', 'fatal']);
    expect(() => logFormatFromEnv({ KUBE_LOG_FORMAT: 'xml' })).toThrow('KUBE_LOG_FORMAT=xml: must be json or text');
  });

  it('reports a start-up failure as a fatal JSON line with the stack', () => {
    const out: string[] = [];
    logStartupFailure('aggregator', new Error('KUBE_PROXY_CLIENT_CERT_FILE and KUBE_PROXY_CLIENT_KEY_FILE are required'), {}, { write: (l: string) => out.push(l) });
    expect(out).toHaveLength(1);
    const line = JSON.parse(out[0]) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 'fatal', component: 'aggregator', context: 'Bootstrap', msg: 'KUBE_PROXY_CLIENT_CERT_FILE and KUBE_PROXY_CLIENT_KEY_FILE are required' });
    expect(line.stack).toMatch(/^Error: KUBE_PROXY_CLIENT_CERT_FILE/);
  });
});

describe('request ids and request lines', () => {
  it('keeps a well-formed id the client or front door sent, else makes one', () => {
    expect(requestIdOf({ 'audit-id': 'a1b2-c3' })).toBe('a1b2-c3');
    expect(requestIdOf({ 'x-request-id': 'from-client' })).toBe('from-client');
    expect(requestIdOf({ 'audit-id': 'has spaces and "quotes"' })).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf({})).not.toBe(requestIdOf({}));
    // A backend ignores the id of a caller that is not the front proxy.
    expect(requestIdOf({ 'audit-id': 'a1b2-c3' }, false)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reads its settings from the environment', () => {
    expect(requestLogOptionsFromEnv({ KUBE_LOG_REQUESTS: 'true', KUBE_LOG_SLOW_REQUEST_MS: '250' })).toEqual({ all: true, slowMs: 250 });
    expect(() => requestLogOptionsFromEnv({ KUBE_LOG_SLOW_REQUEST_MS: 'soon' })).toThrow('KUBE_LOG_SLOW_REQUEST_MS=soon');
  });

  it('logs failures and slow requests only, unless asked for all', () => {
    const entry = { requestId: 'r', verb: 'get', uri: '/api/v1/namespaces', user: 'admin', code: 200, latencyMs: 3, longRunning: false };
    const seen: unknown[] = [];
    const log = new RequestLog({ server: 'core-api' }, { log: (l: unknown) => seen.push(['log', l]), warn: (l: unknown) => seen.push(['warn', l]), error: (l: unknown) => seen.push(['error', l]) });
    log.done(entry);
    log.done({ ...entry, latencyMs: 5000, longRunning: true });
    log.done({ ...entry, uri: '/readyz?verbose', code: 500 });
    expect(seen).toEqual([]);
    log.done({ ...entry, code: 503 });
    log.done({ ...entry, latencyMs: 1500 });
    expect(seen).toEqual([
      ['error', { msg: 'request failed', server: 'core-api', requestId: 'r', verb: 'get', uri: '/api/v1/namespaces', user: 'admin', code: 503, latencyMs: 3 }],
      ['warn', { msg: 'slow request', server: 'core-api', requestId: 'r', verb: 'get', uri: '/api/v1/namespaces', user: 'admin', code: 200, latencyMs: 1500 }],
    ]);
  });

  it('with every request logged, an unready health probe is a plain line, not a failure', () => {
    const seen: unknown[] = [];
    const log = new RequestLog({ server: 'aggregator', all: true }, { log: (l: unknown) => seen.push(['log', l]), warn: (l: unknown) => seen.push(['warn', l]), error: (l: unknown) => seen.push(['error', l]) });
    log.done({ requestId: 'r', verb: 'GET', uri: '/readyz?verbose', user: '', code: 500, latencyMs: 2, longRunning: false });
    expect(seen).toEqual([['log', { msg: 'request', server: 'aggregator', requestId: 'r', verb: 'GET', uri: '/readyz?verbose', user: '', code: 500, latencyMs: 2 }]]);
  });
});
