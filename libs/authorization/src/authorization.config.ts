/**
 * kube's AuthorizationConfiguration (apiserver.config.k8s.io v1alpha1, v1beta1, v1; --authorization-config):
 * loading, defaulting and validation with kube's messages (k8s.io/apiserver/pkg/apis/apiserver/validation and
 * pkg/kubeapiserver/authorizer's LoadAndValidateData).
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { FieldError, isDNS1123Subdomain } from '@kube/apimachinery';
import { parseGoDuration } from '@kube/storage';
import { parse } from 'yaml';
import { compileMatchCondition, type CompiledMatchCondition } from './webhook.match';

export const AUTHORIZATION_CONFIG_GROUP = 'apiserver.config.k8s.io';
const VERSIONS = ['v1alpha1', 'v1beta1', 'v1'];

/** pkg/kubeapiserver/authorizer/modes.AuthorizationModeChoices (ABAC is refused when built, as kube does without a policy file). */
export const AUTHORIZER_TYPES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'];
/** Only Webhook may appear more than once (repeatableAuthorizerTypes). */
const REPEATABLE_TYPES = new Set(['Webhook']);

export type FailurePolicy = 'NoOpinion' | 'Deny';

export interface WebhookConnectionInfo {
  type: 'KubeConfigFile' | 'InClusterConfig';
  kubeConfigFile?: string;
}

/** WebhookConfiguration after defaulting, durations in milliseconds. */
export interface WebhookConfiguration {
  authorizedTTLMs: number;
  cacheAuthorizedRequests: boolean;
  unauthorizedTTLMs: number;
  cacheUnauthorizedRequests: boolean;
  timeoutMs: number;
  subjectAccessReviewVersion: 'v1' | 'v1beta1';
  matchConditionSubjectAccessReviewVersion?: 'v1';
  failurePolicy: FailurePolicy;
  connectionInfo: WebhookConnectionInfo;
  matchConditions: CompiledMatchCondition[];
}

export interface AuthorizerConfiguration {
  type: string;
  name: string;
  webhook?: WebhookConfiguration;
}

export interface AuthorizationConfiguration {
  authorizers: AuthorizerConfiguration[];
}

type Raw = Record<string, unknown>;

const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Go's time.Duration.String, for kube's messages and the webhook's `?timeout=` ("3s", "500ms", "1m30s"). */
export function goDurationString(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let rest = Math.abs(ms);
  if (rest < 1000) return `${neg ? '-' : ''}${+rest.toFixed(6)}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = +(rest / 1000).toFixed(9);
  return `${neg ? '-' : ''}${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
}

function duration(v: unknown, path: string, errs: FieldError[]): number {
  if (v === undefined || v === null || v === '') return 0;
  try {
    return parseGoDuration(String(v).startsWith('-') ? String(v).slice(1) : String(v)) * (String(v).startsWith('-') ? -1 : 1);
  } catch {
    errs.push(FieldError.invalid(path, v, 'time: invalid duration'));
    return 0;
  }
}

/** The decoding error kube prints for a file that is no AuthorizationConfiguration it knows. */
function decode(data: string): Raw {
  let doc: unknown;
  try {
    doc = parse(data);
  } catch (err) {
    throw new Error(`failed to load AuthorizationConfiguration from file: ${(err as Error).message}`);
  }
  if (!isRecord(doc)) throw new Error("failed to load AuthorizationConfiguration from file: Object 'Kind' is missing in the file");
  const [group, version] = str(doc.apiVersion).includes('/') ? str(doc.apiVersion).split('/') : ['', str(doc.apiVersion)];
  if (!doc.kind) throw new Error(`failed to load AuthorizationConfiguration from file: Object 'Kind' is missing in '${data.trim().replace(/\n/g, ' ').slice(0, 200)}'`);
  if (group !== AUTHORIZATION_CONFIG_GROUP || !VERSIONS.includes(version) || doc.kind !== 'AuthorizationConfiguration') {
    throw new Error(`failed to load AuthorizationConfiguration from file: no kind "${str(doc.kind)}" is registered for version "${str(doc.apiVersion)}" in scheme "pkg/runtime/scheme.go:100"`);
  }
  return doc;
}

/** SetDefaults_WebhookConfiguration (v1beta1 and v1): TTLs 5m and 30s, both caches on. */
function webhookFrom(raw: Raw, path: string, errs: FieldError[]): WebhookConfiguration {
  const timeoutMs = duration(raw.timeout, `${path}.timeout`, errs);
  let authorizedTTLMs = duration(raw.authorizedTTL, `${path}.authorizedTTL`, errs);
  let unauthorizedTTLMs = duration(raw.unauthorizedTTL, `${path}.unauthorizedTTL`, errs);
  if (authorizedTTLMs === 0) authorizedTTLMs = 5 * 60_000;
  if (unauthorizedTTLMs === 0) unauthorizedTTLMs = 30_000;
  const conn = isRecord(raw.connectionInfo) ? raw.connectionInfo : {};
  const matchConditions: CompiledMatchCondition[] = [];
  const conditions = Array.isArray(raw.matchConditions) ? raw.matchConditions : [];
  if (timeoutMs === 0) errs.push(FieldError.required(`${path}.timeout`));
  else if (timeoutMs > 30_000 || timeoutMs < 0) errs.push(FieldError.invalid(`${path}.timeout`, goDurationString(timeoutMs), 'must be > 0s and <= 30s'));
  if (authorizedTTLMs < 0) errs.push(FieldError.invalid(`${path}.authorizedTTL`, goDurationString(authorizedTTLMs), 'must be > 0s'));
  if (unauthorizedTTLMs < 0) errs.push(FieldError.invalid(`${path}.unauthorizedTTL`, goDurationString(unauthorizedTTLMs), 'must be > 0s'));
  const sarVersion = str(raw.subjectAccessReviewVersion);
  if (!sarVersion) errs.push(FieldError.required(`${path}.subjectAccessReviewVersion`));
  else if (sarVersion !== 'v1' && sarVersion !== 'v1beta1') errs.push(FieldError.notSupported(`${path}.subjectAccessReviewVersion`, sarVersion, ['v1', 'v1beta1']));
  const mcVersion = str(raw.matchConditionSubjectAccessReviewVersion);
  if (!mcVersion) {
    if (conditions.length > 0) errs.push(FieldError.required(`${path}.matchConditionSubjectAccessReviewVersion`, 'required if match conditions are specified'));
  } else if (mcVersion !== 'v1') errs.push(FieldError.notSupported(`${path}.matchConditionSubjectAccessReviewVersion`, mcVersion, ['v1']));
  const failurePolicy = str(raw.failurePolicy);
  if (!failurePolicy) errs.push(FieldError.required(`${path}.failurePolicy`));
  else if (failurePolicy !== 'NoOpinion' && failurePolicy !== 'Deny') errs.push(FieldError.notSupported(`${path}.failurePolicy`, failurePolicy, ['NoOpinion', 'Deny']));
  const connType = str(conn.type);
  const kubeConfigFile = conn.kubeConfigFile === undefined || conn.kubeConfigFile === null ? undefined : str(conn.kubeConfigFile);
  const kcPath = `${path}.connectionInfo.kubeConfigFile`;
  if (!connType) errs.push(FieldError.required(`${path}.connectionInfo.type`));
  else if (connType === 'InClusterConfig') {
    if (kubeConfigFile !== undefined) errs.push(FieldError.invalid(kcPath, kubeConfigFile, 'can only be set when type=KubeConfigFile'));
  } else if (connType === 'KubeConfigFile') {
    if (!kubeConfigFile) errs.push(FieldError.required(kcPath));
    else if (!isAbsolute(kubeConfigFile)) errs.push(FieldError.invalid(kcPath, kubeConfigFile, 'must be an absolute path'));
    else if (!existsSync(kubeConfigFile)) errs.push(FieldError.invalid(kcPath, kubeConfigFile, `error loading file: stat ${kubeConfigFile}: no such file or directory`));
    else if (!statSync(kubeConfigFile).isFile()) errs.push(FieldError.invalid(kcPath, kubeConfigFile, 'must be a regular file'));
  } else errs.push(FieldError.notSupported(`${path}.connectionInfo.type`, connType, ['InClusterConfig', 'KubeConfigFile']));
  if (conditions.length > 64) errs.push(FieldError.tooMany(`${path}.matchConditions`, conditions.length, 64));
  else {
    const seen = new Set<string>();
    conditions.forEach((c, i) => {
      const expression = str(isRecord(c) ? c.expression : undefined);
      const p = `${path}.matchConditions[${i}].expression`;
      if (!expression.trim()) return errs.push(FieldError.required(p));
      if (seen.has(expression)) return errs.push(FieldError.duplicate(p, expression));
      seen.add(expression);
      const compiled = compileMatchCondition(expression);
      if ('error' in compiled) return errs.push(FieldError.invalid(p, expression, compiled.error));
      matchConditions.push(compiled);
    });
  }
  return {
    authorizedTTLMs,
    cacheAuthorizedRequests: raw.cacheAuthorizedRequests !== false,
    unauthorizedTTLMs,
    cacheUnauthorizedRequests: raw.cacheUnauthorizedRequests !== false,
    timeoutMs,
    subjectAccessReviewVersion: sarVersion as WebhookConfiguration['subjectAccessReviewVersion'],
    matchConditionSubjectAccessReviewVersion: (mcVersion || undefined) as WebhookConfiguration['matchConditionSubjectAccessReviewVersion'],
    failurePolicy: failurePolicy as FailurePolicy,
    connectionInfo: { type: connType as WebhookConnectionInfo['type'], kubeConfigFile },
    matchConditions,
  };
}

/** Go's utilerrors aggregate text: one error alone, several in brackets. */
function aggregate(messages: string[]): string {
  return messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
}

/**
 * LoadAndValidateData: decodes, defaults and validates a file's content; throws kube's error text. The
 * compiled match conditions ride along, so nothing is compiled per request.
 */
export function loadAuthorizationConfiguration(data: string, requireNonWebhookTypes?: ReadonlySet<string>): AuthorizationConfiguration {
  const doc = decode(data);
  const errs: FieldError[] = [];
  const raws = Array.isArray(doc.authorizers) ? doc.authorizers : [];
  if (raws.length === 0) errs.push(FieldError.required('authorizers', 'at least one authorization mode must be defined'));
  const seenTypes = new Set<string>();
  const seenNames = new Set<string>();
  const authorizers: AuthorizerConfiguration[] = [];
  raws.forEach((r, i) => {
    const a = isRecord(r) ? r : {};
    const path = `authorizers[${i}]`;
    const type = str(a.type);
    const name = str(a.name);
    if (!type) return errs.push(FieldError.required(`${path}.type`));
    if (!AUTHORIZER_TYPES.includes(type)) return errs.push(FieldError.notSupported(`${path}.type`, type, [...AUTHORIZER_TYPES].sort()));
    if (seenTypes.has(type) && !REPEATABLE_TYPES.has(type)) return errs.push(FieldError.duplicate(`${path}.type`, type));
    seenTypes.add(type);
    if (!name) errs.push(FieldError.required(`${path}.name`));
    else if (seenNames.has(name)) errs.push(FieldError.duplicate(`${path}.name`, name));
    else {
      const bad = isDNS1123Subdomain(name);
      if (bad.length) errs.push(FieldError.invalid(`${path}.name`, name, `authorizer name is invalid: ${bad.join(', ')}`));
    }
    seenNames.add(name);
    const entry: AuthorizerConfiguration = { type, name };
    if (type === 'Webhook') {
      if (!isRecord(a.webhook)) return errs.push(FieldError.required(`${path}.webhook`, 'required when type=Webhook'));
      entry.webhook = webhookFrom(a.webhook, path, errs);
    } else if (a.webhook !== undefined && a.webhook !== null) errs.push(FieldError.invalid(`${path}.webhook`, 'non-null', 'may only be specified when type=Webhook'));
    authorizers.push(entry);
  });
  if (errs.length) throw new Error(aggregate(errs.map(String)));
  // kube-apiserver's own checks: non-webhook authorizers are named after their type, lower-cased.
  const problems: string[] = [];
  const seenModes = new Set<string>();
  for (const a of authorizers) {
    if (a.type === 'Webhook') continue;
    seenModes.add(a.type);
    if (a.name !== a.type.toLowerCase()) problems.push(`expected name ${a.type.toLowerCase()} for authorizer ${a.type} instead of ${a.name}`);
  }
  const missing = [...(requireNonWebhookTypes ?? [])].filter((t) => !seenModes.has(t)).sort();
  if (missing.length) problems.push(`missing required types: [${missing.join(' ')}]`);
  if (problems.length) throw new Error(aggregate(problems));
  return { authorizers };
}
