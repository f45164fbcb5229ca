import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseGoDuration } from '@kube/storage';
import { ignoreErrors, unionBackend, type AuditBackend } from './audit.backend';
import { BufferedBackend, type AuditBatchConfig } from './audit-buffered.backend';
import { AUDIT_LOG_FORMATS, LogBackend, type AuditLogFormat, type AuditLogSink } from './audit-log.backend';
import { TruncatingBackend, type AuditTruncateConfig } from './audit-truncate.backend';
import { defaultWebhookBackoff, WebhookBackend } from './audit-webhook.backend';
import { loadWebhookKubeconfig } from './webhook.kubeconfig';

/** kube's audit backend modes (--audit-log-mode, --audit-webhook-mode). */
export type AuditMode = 'batch' | 'blocking' | 'blocking-strict';
export const AUDIT_MODES: readonly AuditMode[] = ['batch', 'blocking', 'blocking-strict'];

export interface AuditBatchOptions {
  mode: AuditMode;
  batch: AuditBatchConfig;
}

export interface AuditTruncateOptions {
  enabled: boolean;
  config: AuditTruncateConfig;
}

/** kube's AuditLogOptions (--audit-log-*). */
export interface AuditLogOptions {
  /** A file, "-" for standard output; none: no log backend. */
  path?: string;
  maxAge: number;
  maxBackups: number;
  /** Megabytes; 0: the file is never rotated. */
  maxSize: number;
  format: AuditLogFormat;
  compress: boolean;
  batch: AuditBatchOptions;
  truncate: AuditTruncateOptions;
  version: string;
}

/** kube's AuditWebhookOptions (--audit-webhook-*). */
export interface AuditWebhookOptions {
  /** A kubeconfig naming the webhook; none: no webhook backend. */
  configFile?: string;
  initialBackoffMs: number;
  batch: AuditBatchOptions;
  truncate: AuditTruncateOptions;
  version: string;
}

export interface AuditOptions {
  log: AuditLogOptions;
  webhook: AuditWebhookOptions;
}

const AUDIT_V1 = 'audit.k8s.io/v1';
const MEGABYTE = 1024 * 1024;

function truncateDefaults(): AuditTruncateOptions {
  return { enabled: false, config: { maxBatchSize: 10 * MEGABYTE, maxEventSize: 100 * 1024 } };
}

/** kube's NewAuditOptions defaults (k8s.io/apiserver pkg/server/options/audit.go). */
export function defaultAuditOptions(): AuditOptions {
  return {
    log: {
      maxSize: 100,
      maxAge: 366,
      maxBackups: 100,
      format: 'json',
      compress: false,
      // Batching is of no use to a file: one event a batch, sent in order.
      batch: { mode: 'blocking', batch: { bufferSize: 10_000, maxBatchSize: 1, maxBatchWaitMs: 0, throttleEnable: false, throttleQPS: 0, throttleBurst: 0, asyncDelegate: false } },
      truncate: truncateDefaults(),
      version: AUDIT_V1,
    },
    webhook: {
      initialBackoffMs: 10_000,
      batch: { mode: 'batch', batch: { bufferSize: 10_000, maxBatchSize: 400, maxBatchWaitMs: 30_000, throttleEnable: true, throttleQPS: 10, throttleBurst: 15, asyncDelegate: true } },
      truncate: truncateDefaults(),
      version: AUDIT_V1,
    },
  };
}

type Env = Record<string, string | undefined>;

/** One flag's value from its variable, refused with pflag's words (`invalid argument "x" for "--flag" flag: …`). */
class FlagReader {
  constructor(private readonly env: Env) {}

  private raw(flag: string): string | undefined {
    const v = this.env[`KUBE_${flag.toUpperCase().replace(/-/g, '_')}`];
    return v === undefined || v === '' ? undefined : v;
  }

  private invalid(flag: string, v: string, why: string): Error {
    return new Error(`KUBE_${flag.toUpperCase().replace(/-/g, '_')}: invalid argument "${v}" for "--${flag}" flag: ${why}`);
  }

  string(flag: string, def: string): string;
  string(flag: string, def?: string): string | undefined;
  string(flag: string, def?: string): string | undefined {
    return this.raw(flag) ?? def;
  }

  int(flag: string, def: number): number {
    const v = this.raw(flag);
    if (v === undefined) return def;
    if (!/^[+-]?\d+$/.test(v.trim())) throw this.invalid(flag, v, `strconv.ParseInt: parsing "${v}": invalid syntax`);
    return Number(v);
  }

  float(flag: string, def: number): number {
    const v = this.raw(flag);
    if (v === undefined) return def;
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n)) throw this.invalid(flag, v, `strconv.ParseFloat: parsing "${v}": invalid syntax`);
    return n;
  }

  bool(flag: string, def: boolean): boolean {
    const v = this.raw(flag);
    if (v === undefined) return def;
    if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
    if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
    throw this.invalid(flag, v, `strconv.ParseBool: parsing "${v}": invalid syntax`);
  }

  duration(flag: string, defMs: number): number {
    const v = this.raw(flag);
    if (v === undefined) return defMs;
    try {
      return parseGoDuration(v);
    } catch {
      throw this.invalid(flag, v, `time: invalid duration "${v}"`);
    }
  }
}

function batchFrom(f: FlagReader, plugin: string, d: AuditBatchOptions): AuditBatchOptions {
  return {
    mode: f.string(`audit-${plugin}-mode`, d.mode) as AuditMode,
    batch: {
      bufferSize: f.int(`audit-${plugin}-batch-buffer-size`, d.batch.bufferSize),
      maxBatchSize: f.int(`audit-${plugin}-batch-max-size`, d.batch.maxBatchSize),
      maxBatchWaitMs: f.duration(`audit-${plugin}-batch-max-wait`, d.batch.maxBatchWaitMs),
      throttleEnable: f.bool(`audit-${plugin}-batch-throttle-enable`, d.batch.throttleEnable),
      throttleQPS: f.float(`audit-${plugin}-batch-throttle-qps`, d.batch.throttleQPS),
      throttleBurst: f.int(`audit-${plugin}-batch-throttle-burst`, d.batch.throttleBurst),
      asyncDelegate: d.batch.asyncDelegate,
    },
  };
}

function truncateFrom(f: FlagReader, plugin: string, d: AuditTruncateOptions): AuditTruncateOptions {
  return {
    enabled: f.bool(`audit-${plugin}-truncate-enabled`, d.enabled),
    config: { maxBatchSize: f.int(`audit-${plugin}-truncate-max-batch-size`, d.config.maxBatchSize), maxEventSize: f.int(`audit-${plugin}-truncate-max-event-size`, d.config.maxEventSize) },
  };
}

/**
 * The audit flags of kube-apiserver from variables named after them, with kube's defaults, validated as kube
 * validates them: a bad value refuses to start with kube's message. The log: KUBE_AUDIT_LOG_PATH,
 * KUBE_AUDIT_LOG_MAXAGE, KUBE_AUDIT_LOG_MAXBACKUP, KUBE_AUDIT_LOG_MAXSIZE, KUBE_AUDIT_LOG_FORMAT,
 * KUBE_AUDIT_LOG_COMPRESS, KUBE_AUDIT_LOG_VERSION, KUBE_AUDIT_LOG_MODE, KUBE_AUDIT_LOG_BATCH_BUFFER_SIZE,
 * KUBE_AUDIT_LOG_BATCH_MAX_SIZE, KUBE_AUDIT_LOG_BATCH_MAX_WAIT, KUBE_AUDIT_LOG_BATCH_THROTTLE_ENABLE,
 * KUBE_AUDIT_LOG_BATCH_THROTTLE_QPS, KUBE_AUDIT_LOG_BATCH_THROTTLE_BURST, KUBE_AUDIT_LOG_TRUNCATE_ENABLED,
 * KUBE_AUDIT_LOG_TRUNCATE_MAX_BATCH_SIZE, KUBE_AUDIT_LOG_TRUNCATE_MAX_EVENT_SIZE. The webhook:
 * KUBE_AUDIT_WEBHOOK_CONFIG_FILE, KUBE_AUDIT_WEBHOOK_INITIAL_BACKOFF, KUBE_AUDIT_WEBHOOK_VERSION,
 * KUBE_AUDIT_WEBHOOK_MODE, KUBE_AUDIT_WEBHOOK_BATCH_BUFFER_SIZE, KUBE_AUDIT_WEBHOOK_BATCH_MAX_SIZE,
 * KUBE_AUDIT_WEBHOOK_BATCH_MAX_WAIT, KUBE_AUDIT_WEBHOOK_BATCH_THROTTLE_ENABLE, KUBE_AUDIT_WEBHOOK_BATCH_THROTTLE_QPS,
 * KUBE_AUDIT_WEBHOOK_BATCH_THROTTLE_BURST, KUBE_AUDIT_WEBHOOK_TRUNCATE_ENABLED,
 * KUBE_AUDIT_WEBHOOK_TRUNCATE_MAX_BATCH_SIZE, KUBE_AUDIT_WEBHOOK_TRUNCATE_MAX_EVENT_SIZE.
 */
export function auditOptionsFromEnv(env: Env = process.env): AuditOptions {
  const f = new FlagReader(env);
  const d = defaultAuditOptions();
  const options: AuditOptions = {
    log: {
      path: f.string('audit-log-path'),
      maxAge: f.int('audit-log-maxage', d.log.maxAge),
      maxBackups: f.int('audit-log-maxbackup', d.log.maxBackups),
      maxSize: f.int('audit-log-maxsize', d.log.maxSize),
      format: f.string('audit-log-format', d.log.format) as AuditLogFormat,
      compress: f.bool('audit-log-compress', d.log.compress),
      batch: batchFrom(f, 'log', d.log.batch),
      truncate: truncateFrom(f, 'log', d.log.truncate),
      version: f.string('audit-log-version', d.log.version),
    },
    webhook: {
      configFile: f.string('audit-webhook-config-file'),
      initialBackoffMs: f.duration('audit-webhook-initial-backoff', d.webhook.initialBackoffMs),
      batch: batchFrom(f, 'webhook', d.webhook.batch),
      truncate: truncateFrom(f, 'webhook', d.webhook.truncate),
      version: f.string('audit-webhook-version', d.webhook.version),
    },
  };
  const errs = validateAuditOptions(options);
  if (errs.length === 1) throw new Error(errs[0]);
  if (errs.length > 1) throw new Error(`[${errs.join(', ')}]`);
  return options;
}

function validateBatch(plugin: string, o: AuditBatchOptions): string | undefined {
  if (!AUDIT_MODES.includes(o.mode)) return `invalid audit ${plugin} mode ${o.mode}, allowed modes are "${AUDIT_MODES.join(',')}"`;
  if (o.mode !== 'batch') return undefined;
  const c = o.batch;
  if (c.bufferSize <= 0) return `invalid audit batch ${plugin} buffer size ${c.bufferSize}, must be a positive number`;
  if (c.maxBatchSize <= 0) return `invalid audit batch ${plugin} max batch size ${c.maxBatchSize}, must be a positive number`;
  if (c.throttleEnable) {
    if (c.throttleQPS <= 0) return `invalid audit batch ${plugin} throttle QPS ${c.throttleQPS}, must be a positive number`;
    if (c.throttleBurst <= 0) return `invalid audit batch ${plugin} throttle burst ${c.throttleBurst}, must be a positive number`;
  }
  return undefined;
}

function validateTruncate(plugin: string, o: AuditTruncateOptions): string | undefined {
  const c = o.config;
  if (c.maxEventSize <= 0) return `invalid audit truncate ${plugin} max event size ${c.maxEventSize}, must be a positive number`;
  if (c.maxBatchSize < c.maxEventSize) return `invalid audit truncate ${plugin} max batch size ${c.maxBatchSize}, must be greater than max event size (${c.maxEventSize})`;
  return undefined;
}

function validateVersion(version: string): string | undefined {
  if (version.split('/').length > 2) return `unexpected GroupVersion string: ${version}`;
  if (version !== AUDIT_V1) return `invalid group version, allowed versions are "[${AUDIT_V1}]"`;
  return undefined;
}

/** kube's AuditOptions.Validate: only the backends that are configured are checked. */
export function validateAuditOptions(o: AuditOptions): string[] {
  const errs: Array<string | undefined> = [];
  if (o.log.path) {
    errs.push(validateBatch('log', o.log.batch), validateTruncate('log', o.log.truncate), validateVersion(o.log.version));
    if (!AUDIT_LOG_FORMATS.includes(o.log.format)) errs.push(`invalid audit log format ${o.log.format}, allowed formats are "${AUDIT_LOG_FORMATS.join(',')}"`);
    if (o.log.maxAge < 0) errs.push(`--audit-log-maxage ${o.log.maxAge} can't be a negative number`);
    if (o.log.maxBackups < 0) errs.push(`--audit-log-maxbackup ${o.log.maxBackups} can't be a negative number`);
    if (o.log.maxSize < 0) errs.push(`--audit-log-maxsize ${o.log.maxSize} can't be a negative number`);
  }
  if (o.webhook.configFile) errs.push(validateBatch('webhook', o.webhook.batch), validateTruncate('webhook', o.webhook.truncate), validateVersion(o.webhook.version));
  return errs.filter((e): e is string => e !== undefined);
}

/** kube's AuditBatchOptions.wrapBackend: blocking-strict as is, blocking ignoring errors, batch buffered. */
function withMode(backend: AuditBackend, o: AuditBatchOptions): AuditBackend {
  if (o.mode === 'blocking-strict') return backend;
  if (o.mode === 'blocking') return ignoreErrors(backend);
  return new BufferedBackend(backend, o.batch);
}

function withTruncation(backend: AuditBackend, o: AuditTruncateOptions): AuditBackend {
  return o.enabled ? new TruncatingBackend(backend, o.config) : backend;
}

/** The log's destination: standard output, else the file, rotated unless maxSize is 0 (kube's getWriter). */
export function auditLogSink(o: Pick<AuditLogOptions, 'path' | 'maxAge' | 'maxBackups' | 'maxSize' | 'compress'> & { path: string }): AuditLogSink {
  if (o.path === '-') return { kind: 'stdout' };
  const rotation = o.maxSize === 0 ? { maxSizeBytes: 0, maxAgeDays: 0, maxBackups: 0, compress: false } : { maxSizeBytes: o.maxSize * MEGABYTE, maxAgeDays: o.maxAge, maxBackups: o.maxBackups, compress: o.compress };
  return { kind: 'file', path: o.path, rotation };
}

/**
 * kube's AuditOptions.ApplyTo: the log backend (format, mode, truncation) and the webhook backend (kubeconfig,
 * backoff, mode, truncation), both at once in a union when both are configured; undefined when neither is.
 * The log file is created owner-only at start (kube's ensureLogFile); a bad kubeconfig refuses to start.
 */
export function buildAuditBackend(o: AuditOptions): AuditBackend | undefined {
  const backends: AuditBackend[] = [];
  if (o.log.path) {
    if (o.log.path !== '-') {
      try {
        mkdirSync(dirname(o.log.path), { recursive: true, mode: 0o700 });
        closeSync(openSync(o.log.path, 'a', 0o600));
      } catch (err) {
        throw new Error(`ensureLogFile: ${(err as Error).message}`);
      }
    }
    const log = new LogBackend(auditLogSink({ ...o.log, path: o.log.path }), o.log.format);
    backends.push(withTruncation(withMode(log, o.log.batch), o.log.truncate));
  }
  if (o.webhook.configFile) {
    let connection;
    try {
      connection = loadWebhookKubeconfig(o.webhook.configFile);
    } catch (err) {
      throw new Error(`initializing audit webhook: ${(err as Error).message}`);
    }
    const webhook = new WebhookBackend(connection, defaultWebhookBackoff(o.webhook.initialBackoffMs));
    backends.push(withTruncation(withMode(webhook, o.webhook.batch), o.webhook.truncate));
  }
  return backends.length ? unionBackend(backends) : undefined;
}
