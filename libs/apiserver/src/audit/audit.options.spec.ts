import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '@kube/testing';
import { auditOptionsFromEnv, buildAuditBackend, defaultAuditOptions } from './audit.options';
import { testEvent } from './audit.testing';

describe('auditOptionsFromEnv (kube-apiserver --audit-* flags as KUBE_AUDIT_* variables)', () => {
  it("has kube's defaults", () => {
    const o = auditOptionsFromEnv({});
    expect(o).toEqual(defaultAuditOptions());
    expect(o.log).toMatchObject({ path: undefined, maxSize: 100, maxAge: 366, maxBackups: 100, format: 'json', batch: { mode: 'blocking' } });
    expect(o.webhook).toMatchObject({ configFile: undefined, initialBackoffMs: 10_000, version: 'audit.k8s.io/v1', truncate: { enabled: false, config: { maxBatchSize: 10_485_760, maxEventSize: 102_400 } } });
    expect(o.webhook.batch).toEqual({ mode: 'batch', batch: { bufferSize: 10_000, maxBatchSize: 400, maxBatchWaitMs: 30_000, throttleEnable: true, throttleQPS: 10, throttleBurst: 15, asyncDelegate: true } });
  });

  it('reads every variable named after its flag', () => {
    const o = auditOptionsFromEnv({
      KUBE_AUDIT_LOG_PATH: '/var/log/audit.log',
      KUBE_AUDIT_LOG_MAXAGE: '7',
      KUBE_AUDIT_LOG_MAXBACKUP: '3',
      KUBE_AUDIT_LOG_MAXSIZE: '10',
      KUBE_AUDIT_LOG_FORMAT: 'legacy',
      KUBE_AUDIT_LOG_COMPRESS: 'true',
      KUBE_AUDIT_LOG_MODE: 'batch',
      KUBE_AUDIT_WEBHOOK_CONFIG_FILE: '/etc/audit/webhook.yaml',
      KUBE_AUDIT_WEBHOOK_MODE: 'blocking-strict',
      KUBE_AUDIT_WEBHOOK_BATCH_BUFFER_SIZE: '50',
      KUBE_AUDIT_WEBHOOK_BATCH_MAX_SIZE: '5',
      KUBE_AUDIT_WEBHOOK_BATCH_MAX_WAIT: '1m30s',
      KUBE_AUDIT_WEBHOOK_BATCH_THROTTLE_ENABLE: 'false',
      KUBE_AUDIT_WEBHOOK_BATCH_THROTTLE_QPS: '2.5',
      KUBE_AUDIT_WEBHOOK_BATCH_THROTTLE_BURST: '4',
      KUBE_AUDIT_WEBHOOK_INITIAL_BACKOFF: '500ms',
      KUBE_AUDIT_WEBHOOK_TRUNCATE_ENABLED: '1',
      KUBE_AUDIT_WEBHOOK_TRUNCATE_MAX_BATCH_SIZE: '2000',
      KUBE_AUDIT_WEBHOOK_TRUNCATE_MAX_EVENT_SIZE: '1000',
    });
    expect(o.log).toMatchObject({ path: '/var/log/audit.log', maxAge: 7, maxBackups: 3, maxSize: 10, format: 'legacy', compress: true, batch: { mode: 'batch' } });
    expect(o.webhook).toMatchObject({
      configFile: '/etc/audit/webhook.yaml',
      initialBackoffMs: 500,
      batch: { mode: 'blocking-strict', batch: { bufferSize: 50, maxBatchSize: 5, maxBatchWaitMs: 90_000, throttleEnable: false, throttleQPS: 2.5, throttleBurst: 4 } },
      truncate: { enabled: true, config: { maxBatchSize: 2000, maxEventSize: 1000 } },
    });
  });

  it.each([
    [{ KUBE_AUDIT_LOG_MAXAGE: 'week' }, 'KUBE_AUDIT_LOG_MAXAGE: invalid argument "week" for "--audit-log-maxage" flag: strconv.ParseInt: parsing "week": invalid syntax'],
    [{ KUBE_AUDIT_WEBHOOK_BATCH_MAX_WAIT: '30' }, 'KUBE_AUDIT_WEBHOOK_BATCH_MAX_WAIT: invalid argument "30" for "--audit-webhook-batch-max-wait" flag: time: invalid duration "30"'],
    [{ KUBE_AUDIT_LOG_PATH: '/a', KUBE_AUDIT_LOG_MAXSIZE: '-1' }, "--audit-log-maxsize -1 can't be a negative number"],
    [{ KUBE_AUDIT_LOG_PATH: '/a', KUBE_AUDIT_LOG_FORMAT: 'xml' }, 'invalid audit log format xml, allowed formats are "legacy,json"'],
    [{ KUBE_AUDIT_WEBHOOK_CONFIG_FILE: '/k', KUBE_AUDIT_WEBHOOK_MODE: 'async' }, 'invalid audit webhook mode async, allowed modes are "batch,blocking,blocking-strict"'],
    [{ KUBE_AUDIT_WEBHOOK_CONFIG_FILE: '/k', KUBE_AUDIT_WEBHOOK_BATCH_BUFFER_SIZE: '0' }, 'invalid audit batch webhook buffer size 0, must be a positive number'],
    [{ KUBE_AUDIT_WEBHOOK_CONFIG_FILE: '/k', KUBE_AUDIT_WEBHOOK_BATCH_THROTTLE_QPS: '0' }, 'invalid audit batch webhook throttle QPS 0, must be a positive number'],
    [{ KUBE_AUDIT_WEBHOOK_CONFIG_FILE: '/k', KUBE_AUDIT_WEBHOOK_TRUNCATE_MAX_BATCH_SIZE: '10' }, 'invalid audit truncate webhook max batch size 10, must be greater than max event size (102400)'],
    [{ KUBE_AUDIT_WEBHOOK_CONFIG_FILE: '/k', KUBE_AUDIT_WEBHOOK_VERSION: 'audit.k8s.io/v1beta1' }, 'invalid group version, allowed versions are "[audit.k8s.io/v1]"'],
  ])("refuses %j with kube's message", (env, message) => {
    expect(() => auditOptionsFromEnv(env)).toThrow(message);
  });

  it('checks only the backends that are configured (a bad webhook mode without a webhook is fine)', () => {
    expect(() => auditOptionsFromEnv({ KUBE_AUDIT_WEBHOOK_MODE: 'async' })).not.toThrow();
  });
});

describe('buildAuditBackend', () => {
  it('builds nothing when neither backend is configured', () => {
    expect(buildAuditBackend(auditOptionsFromEnv({}))).toBeUndefined();
  });

  it("joins both backends (kube's union) and creates the log file 0600 at start", async () => {
    const dir = tempDir('audit-options');
    const kubeconfig = join(dir, 'webhook.yaml');
    writeFileSync(kubeconfig, 'clusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1/\n    insecure-skip-tls-verify: true\ncurrent-context: w\ncontexts:\n- name: w\n  context:\n    cluster: c\n');
    const path = join(dir, 'logs', 'audit.log');
    const backend = buildAuditBackend(auditOptionsFromEnv({ KUBE_AUDIT_LOG_PATH: path, KUBE_AUDIT_LOG_FORMAT: 'legacy', KUBE_AUDIT_WEBHOOK_CONFIG_FILE: kubeconfig, KUBE_AUDIT_WEBHOOK_TRUNCATE_ENABLED: 'true' }))!;
    expect(String(backend)).toBe('union[ignoreErrors<log>,truncate<buffered<webhook>>]');
    expect(existsSync(path)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(backend.processEvents([testEvent('u')])).toBe(true);
    await backend.shutdown();
    expect(readFileSync(path, 'utf8')).toBe('2026-11-28T04:30:00.1234Z AUDIT: id="u" stage="ResponseComplete" ip="127.0.0.1" method="create" user="bob" groups="\\"ops\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="kubectl/v1.33.0" namespace="a" uri="/api/v1/namespaces/a/configmaps" response="201"\n');
  });

  it("refuses a webhook kubeconfig it cannot load, as kube: initializing audit webhook: …", () => {
    expect(() => buildAuditBackend(auditOptionsFromEnv({ KUBE_AUDIT_WEBHOOK_CONFIG_FILE: '/nonexistent/webhook.yaml' }))).toThrow('initializing audit webhook: stat /nonexistent/webhook.yaml: no such file or directory');
  });
});
