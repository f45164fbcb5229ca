/**
 * kube's AuthenticationConfiguration (apiserver.config.k8s.io v1alpha1, v1beta1, v1; --authentication-config):
 * its types, strict decoding and validation with kube's field paths and messages
 * (k8s.io/apiserver/pkg/apis/apiserver/validation), and the CEL each JWT authenticator compiles.
 */
import { X509Certificate } from 'node:crypto';
import { parse } from 'yaml';
import { FieldError } from '@kube/apimachinery';
import { compileClaimsExpression, type CompiledClaimsExpression } from './claims.cel';

export const AUTHENTICATION_CONFIG_GROUP = 'apiserver.config.k8s.io';
const VERSIONS = ['v1alpha1', 'v1beta1', 'v1'];

export interface Issuer {
  url: string;
  discoveryURL?: string;
  certificateAuthority?: string;
  audiences: string[];
  audienceMatchPolicy?: string;
  egressSelectorType?: string;
}

export interface PrefixedClaimOrExpression {
  claim?: string;
  prefix?: string;
  expression?: string;
}

export interface ClaimOrExpression {
  claim?: string;
  expression?: string;
}

export interface ExtraMapping {
  key: string;
  valueExpression: string;
}

export interface ClaimMappings {
  username: PrefixedClaimOrExpression;
  groups?: PrefixedClaimOrExpression;
  uid?: ClaimOrExpression;
  extra?: ExtraMapping[];
}

export interface ClaimValidationRule {
  claim?: string;
  requiredValue?: string;
  expression?: string;
  message?: string;
}

export interface UserValidationRule {
  expression: string;
  message?: string;
}

export interface JWTAuthenticator {
  issuer: Issuer;
  claimValidationRules?: ClaimValidationRule[];
  claimMappings: ClaimMappings;
  userValidationRules?: UserValidationRule[];
}

export interface AnonymousAuthCondition {
  path: string;
}

export interface AnonymousAuthConfig {
  enabled: boolean;
  conditions?: AnonymousAuthCondition[];
}

export interface AuthenticationConfiguration {
  apiVersion: string;
  kind: 'AuthenticationConfiguration';
  jwt: JWTAuthenticator[];
  anonymous?: AnonymousAuthConfig;
}

/** The CEL of one JWT authenticator, compiled (kube's authenticationcel.CELMapper). */
export interface CelMapper {
  username?: CompiledClaimsExpression;
  groups?: CompiledClaimsExpression;
  uid?: CompiledClaimsExpression;
  extra: { key: string; expression: CompiledClaimsExpression }[];
  claimValidationRules: { expression: CompiledClaimsExpression; message: string }[];
  userValidationRules: { expression: CompiledClaimsExpression; message: string }[];
}

/** Accepted keys per object, for kube's strict decoding ("unknown field"). */
const FIELDS: Record<string, readonly string[]> = {
  '': ['apiVersion', 'kind', 'jwt', 'anonymous'],
  'jwt[*]': ['issuer', 'claimValidationRules', 'claimMappings', 'userValidationRules'],
  'jwt[*].issuer': ['url', 'discoveryURL', 'certificateAuthority', 'audiences', 'audienceMatchPolicy', 'egressSelectorType'],
  'jwt[*].claimValidationRules[*]': ['claim', 'requiredValue', 'expression', 'message'],
  'jwt[*].claimMappings': ['username', 'groups', 'uid', 'extra'],
  'jwt[*].claimMappings.username': ['claim', 'prefix', 'expression'],
  'jwt[*].claimMappings.groups': ['claim', 'prefix', 'expression'],
  'jwt[*].claimMappings.uid': ['claim', 'expression'],
  'jwt[*].claimMappings.extra[*]': ['key', 'valueExpression'],
  'jwt[*].userValidationRules[*]': ['expression', 'message'],
  anonymous: ['enabled', 'conditions'],
  'anonymous.conditions[*]': ['path'],
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The unknown fields of a decoded document, as Go's strict JSON decoding names them. */
function unknownFields(value: unknown, schemaPath: string, path: string, out: string[]): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => unknownFields(v, `${schemaPath}[*]`, `${path}[${i}]`, out));
    return;
  }
  if (!isRecord(value)) return;
  const allowed = FIELDS[schemaPath];
  if (!allowed) return;
  for (const [k, v] of Object.entries(value)) {
    const child = path ? `${path}.${k}` : k;
    if (!allowed.includes(k)) out.push(`unknown field "${child}"`);
    else unknownFields(v, schemaPath ? `${schemaPath}.${k}` : k, child, out);
  }
}

/** kube's utilerrors.NewAggregate text: one error alone, several in brackets. */
export function aggregate(errors: readonly (FieldError | string)[]): string {
  const texts = errors.map(String);
  return texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
}

/**
 * Decodes a configuration file (YAML or JSON): apiVersion/kind checked, unknown fields refused (kube decodes it
 * strictly). Throws with kube's wording; the result is not validated yet (validateAuthenticationConfiguration).
 */
export function decodeAuthenticationConfiguration(text: string): AuthenticationConfiguration {
  if (!text.trim()) throw new Error('empty config data');
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new Error(`error converting YAML to JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!isRecord(doc)) throw new Error("Object 'Kind' is missing in config");
  const apiVersion = typeof doc.apiVersion === 'string' ? doc.apiVersion : '';
  const kind = typeof doc.kind === 'string' ? doc.kind : '';
  if (!kind) throw new Error(`Object 'Kind' is missing in '${text.trim().slice(0, 200)}'`);
  const [group, version] = apiVersion.split('/');
  if (group !== AUTHENTICATION_CONFIG_GROUP || !VERSIONS.includes(version) || kind !== 'AuthenticationConfiguration') {
    throw new Error(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/kubeapiserver/options/authentication.go"`);
  }
  const unknown: string[] = [];
  unknownFields(doc, '', '', unknown);
  if (unknown.length) throw new Error(`strict decoding error: ${unknown.join(', ')}`);
  const jwt = Array.isArray(doc.jwt) ? (doc.jwt as unknown[]).map((j) => jwtAuthenticatorOf(j)) : [];
  const anonymous = isRecord(doc.anonymous)
    ? { enabled: doc.anonymous.enabled === true, conditions: Array.isArray(doc.anonymous.conditions) ? (doc.anonymous.conditions as unknown[]).map((c) => ({ path: str(isRecord(c) ? c.path : undefined) ?? '' })) : undefined }
    : undefined;
  return { apiVersion, kind: 'AuthenticationConfiguration', jwt, anonymous };
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : v === undefined || v === null ? undefined : String(v);
}

function jwtAuthenticatorOf(raw: unknown): JWTAuthenticator {
  const j = isRecord(raw) ? raw : {};
  const issuer = isRecord(j.issuer) ? j.issuer : {};
  const mappings = isRecord(j.claimMappings) ? j.claimMappings : {};
  const prefixed = (v: unknown): PrefixedClaimOrExpression => (isRecord(v) ? { claim: str(v.claim), prefix: str(v.prefix), expression: str(v.expression) } : {});
  const uid = isRecord(mappings.uid) ? { claim: str(mappings.uid.claim), expression: str(mappings.uid.expression) } : undefined;
  return {
    issuer: {
      url: str(issuer.url) ?? '',
      discoveryURL: str(issuer.discoveryURL),
      certificateAuthority: str(issuer.certificateAuthority),
      audiences: Array.isArray(issuer.audiences) ? issuer.audiences.map((a) => str(a) ?? '') : [],
      audienceMatchPolicy: str(issuer.audienceMatchPolicy),
      egressSelectorType: str(issuer.egressSelectorType),
    },
    claimValidationRules: Array.isArray(j.claimValidationRules)
      ? j.claimValidationRules.map((r) => (isRecord(r) ? { claim: str(r.claim), requiredValue: str(r.requiredValue), expression: str(r.expression), message: str(r.message) } : {}))
      : undefined,
    claimMappings: {
      username: prefixed(mappings.username),
      groups: mappings.groups === undefined ? undefined : prefixed(mappings.groups),
      uid,
      extra: Array.isArray(mappings.extra) ? mappings.extra.map((e) => (isRecord(e) ? { key: str(e.key) ?? '', valueExpression: str(e.valueExpression) ?? '' } : { key: '', valueExpression: '' })) : undefined,
    },
    userValidationRules: Array.isArray(j.userValidationRules) ? j.userValidationRules.map((r) => (isRecord(r) ? { expression: str(r.expression) ?? '', message: str(r.message) } : { expression: '' })) : undefined,
  };
}

/**
 * kube's ValidateAuthenticationConfiguration: every JWT authenticator (issuer, claim rules, mappings, user rules,
 * their CEL compiled), issuers and discovery URLs unique, the anonymous section. `disallowedIssuers` are the
 * service-account issuers (a JWT authenticator may not claim them). Returns the compiled CEL per authenticator.
 */
export function validateAuthenticationConfiguration(c: AuthenticationConfiguration, disallowedIssuers: readonly string[] = []): { errors: FieldError[]; mappers: CelMapper[] } {
  const errors: FieldError[] = [];
  const mappers: CelMapper[] = [];
  if (c.jwt.length > 64) return { errors: [FieldError.tooMany('jwt', c.jwt.length, 64)], mappers };
  const seenIssuers = new Set<string>();
  const seenDiscovery = new Set<string>();
  c.jwt.forEach((a, i) => {
    const path = `jwt[${i}]`;
    const { mapper, errors: errs } = validateJWTAuthenticator(a, path, new Set(disallowedIssuers));
    errors.push(...errs);
    mappers.push(mapper);
    if (seenIssuers.has(a.issuer.url)) errors.push(FieldError.duplicate(`${path}.issuer.url`, a.issuer.url));
    seenIssuers.add(a.issuer.url);
    if (a.issuer.discoveryURL) {
      if (seenDiscovery.has(a.issuer.discoveryURL)) errors.push(FieldError.duplicate(`${path}.issuer.discoveryURL`, a.issuer.discoveryURL));
      seenDiscovery.add(a.issuer.discoveryURL);
    }
  });
  if (c.anonymous) {
    if (!c.anonymous.enabled && c.anonymous.conditions?.length) {
      errors.push(FieldError.invalid('anonymous.conditions', c.anonymous.conditions, 'enabled should be set to true when conditions are defined'));
    }
    const seenPaths = new Set<string>();
    c.anonymous.conditions?.forEach((cond, i) => {
      if (!cond.path) errors.push(FieldError.required(`anonymous.conditions[${i}].path`, ''));
      else if (seenPaths.has(cond.path)) errors.push(FieldError.duplicate(`anonymous.conditions[${i}].path`, cond.path));
      seenPaths.add(cond.path);
    });
  }
  return { errors, mappers };
}

function validateJWTAuthenticator(a: JWTAuthenticator, path: string, disallowed: Set<string>): { mapper: CelMapper; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const mapper: CelMapper = { extra: [], claimValidationRules: [], userValidationRules: [] };
  const state = { usesEmail: false, usesEmailVerified: false };
  // validateIssuer
  const ip = `${path}.issuer`;
  if (!a.issuer.url) errors.push(FieldError.required(`${ip}.url`, ''));
  else errors.push(...validateURL(a.issuer.url, disallowed, `${ip}.url`));
  if (a.issuer.discoveryURL) {
    if (a.issuer.url && a.issuer.url.replace(/\/+$/, '') === a.issuer.discoveryURL.replace(/\/+$/, '')) {
      errors.push(FieldError.invalid(`${ip}.discoveryURL`, a.issuer.discoveryURL, 'discoveryURL must be different from URL'));
    }
    errors.push(...validateURL(a.issuer.discoveryURL, new Set(), `${ip}.discoveryURL`));
  }
  errors.push(...validateAudiences(a.issuer.audiences, a.issuer.audienceMatchPolicy, `${ip}.audiences`, `${ip}.audienceMatchPolicy`));
  if (a.issuer.certificateAuthority) {
    const err = caError(a.issuer.certificateAuthority);
    if (err) errors.push(FieldError.invalid(`${ip}.certificateAuthority`, '<omitted>', err));
  }
  if (a.issuer.egressSelectorType && a.issuer.egressSelectorType !== 'controlplane' && a.issuer.egressSelectorType !== 'cluster') {
    errors.push(FieldError.invalid(`${ip}.egressSelectorType`, a.issuer.egressSelectorType, 'egress selector must be either controlplane or cluster'));
  }
  // validateClaimValidationRules
  const seenClaims = new Set<string>();
  const seenExpressions = new Set<string>();
  (a.claimValidationRules ?? []).forEach((rule, i) => {
    const rp = `${path}.claimValidationRules[${i}]`;
    if (rule.claim && rule.expression) errors.push(FieldError.invalid(rp, rule.claim, "claim and expression can't both be set"));
    else if (!rule.claim && !rule.expression) errors.push(FieldError.required(rp, 'claim or expression is required'));
    else if (rule.claim) {
      if (rule.message) errors.push(FieldError.invalid(`${rp}.message`, rule.message, 'may not be specified when claim is set'));
      if (seenClaims.has(rule.claim)) errors.push(FieldError.duplicate(`${rp}.claim`, rule.claim));
      seenClaims.add(rule.claim);
    } else if (rule.expression) {
      if (rule.requiredValue) errors.push(FieldError.invalid(`${rp}.requiredValue`, rule.requiredValue, 'may not be specified when expression is set'));
      if (seenExpressions.has(rule.expression)) {
        errors.push(FieldError.duplicate(`${rp}.expression`, rule.expression));
        return;
      }
      seenExpressions.add(rule.expression);
      const compiled = compile(rule.expression, 'claims', 'bool', `${rp}.expression`, errors);
      if (compiled) {
        mapper.claimValidationRules.push({ expression: compiled, message: rule.message ?? '' });
        state.usesEmailVerified ||= usesClaim(rule.expression, 'email_verified');
      }
    }
  });
  // validateClaimMappings
  const m = a.claimMappings;
  const mp = `${path}.claimMappings`;
  const username = prefixedClaimOrExpression(m.username, `${mp}.username`, true, errors);
  if (username) {
    mapper.username = username;
    state.usesEmail ||= usesClaim(username.source, 'email');
    state.usesEmailVerified ||= usesClaim(username.source, 'email_verified');
  }
  const groups = m.groups ? prefixedClaimOrExpression(m.groups, `${mp}.groups`, false, errors) : undefined;
  if (groups) mapper.groups = groups;
  if (m.uid?.claim && m.uid.expression) errors.push(FieldError.invalid(`${mp}.uid`, '', "claim and expression can't both be set"));
  else if (m.uid?.expression) mapper.uid = compile(m.uid.expression, 'claims', 'any', `${mp}.uid.expression`, errors);
  const seenKeys = new Set<string>();
  (m.extra ?? []).forEach((e, i) => {
    const ep = `${mp}.extra[${i}]`;
    errors.push(...domainPrefixedPath(`${ep}.key`, e.key));
    if (e.key !== e.key.toLowerCase()) errors.push(FieldError.invalid(`${ep}.key`, e.key, 'must be lowercase'));
    if (isKubernetesDomainPrefix(e.key)) errors.push(FieldError.invalid(`${ep}.key`, e.key, 'k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use'));
    if (seenKeys.has(e.key)) {
      errors.push(FieldError.duplicate(`${ep}.key`, e.key));
      return;
    }
    seenKeys.add(e.key);
    if (!e.valueExpression) {
      errors.push(FieldError.required(`${ep}.valueExpression`, ''));
      return;
    }
    const compiled = compile(e.valueExpression, 'claims', 'any', `${ep}.valueExpression`, errors);
    if (compiled) {
      mapper.extra.push({ key: e.key, expression: compiled });
      state.usesEmailVerified ||= usesClaim(e.valueExpression, 'email_verified');
    }
  });
  if (state.usesEmail && !state.usesEmailVerified) {
    errors.push(
      FieldError.invalid(
        `${mp}.username.expression`,
        m.username.expression,
        'claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression',
      ),
    );
  }
  // validateUserValidationRules
  const seenUserExpressions = new Set<string>();
  (a.userValidationRules ?? []).forEach((rule, i) => {
    const rp = `${path}.userValidationRules[${i}]`;
    if (!rule.expression) {
      errors.push(FieldError.required(`${rp}.expression`, ''));
      return;
    }
    if (seenUserExpressions.has(rule.expression)) {
      errors.push(FieldError.duplicate(`${rp}.expression`, rule.expression));
      return;
    }
    seenUserExpressions.add(rule.expression);
    const compiled = compile(rule.expression, 'user', 'bool', `${rp}.expression`, errors);
    if (compiled) mapper.userValidationRules.push({ expression: compiled, message: rule.message ?? '' });
  });
  return { mapper, errors };
}

function compile(source: string, variable: 'claims' | 'user', returns: 'bool' | 'any', path: string, errors: FieldError[]): CompiledClaimsExpression | undefined {
  const compiled = compileClaimsExpression(source, variable, returns);
  if ('error' in compiled) {
    errors.push(FieldError.invalid(path, source, compiled.error));
    return undefined;
  }
  return compiled;
}

function prefixedClaimOrExpression(m: PrefixedClaimOrExpression, path: string, required: boolean, errors: FieldError[]): CompiledClaimsExpression | undefined {
  if (m.expression && m.claim) errors.push(FieldError.invalid(path, '', "claim and expression can't both be set"));
  else if (!m.expression && !m.claim && required) errors.push(FieldError.required(path, 'claim or expression is required'));
  else if (m.expression) {
    if (m.prefix !== undefined) errors.push(FieldError.invalid(`${path}.prefix`, m.prefix, 'may not be specified when expression is set'));
    return compile(m.expression, 'claims', 'any', `${path}.expression`, errors);
  } else if (m.claim && m.prefix === undefined) {
    errors.push(FieldError.required(`${path}.prefix`, 'prefix is required when claim is set. It can be set to an empty string to disable prefixing'));
  }
  return undefined;
}

/** Whether an expression reads `claims.<name>` (or `claims.?<name>`), as kube's hasSelectExp finds it in the AST. */
function usesClaim(source: string, name: string): boolean {
  return new RegExp(`\\bclaims\\s*\\.\\s*\\??\\s*${name}\\b`).test(source) || new RegExp(`\\bclaims\\s*\\[\\s*["']${name}["']\\s*\\]`).test(source);
}

function validateURL(raw: string, disallowed: Set<string>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (disallowed.has(raw)) errors.push(FieldError.invalid(path, raw, `URL must not overlap with disallowed issuers: [${[...disallowed].sort().join(' ')}]`));
  let u: URL;
  try {
    u = new URL(raw);
  } catch (err) {
    errors.push(FieldError.invalid(path, raw, `parse ${JSON.stringify(raw)}: ${(err as Error).message}`));
    return errors;
  }
  if (u.protocol !== 'https:') errors.push(FieldError.invalid(path, raw, 'URL scheme must be https'));
  if (u.username || u.password) errors.push(FieldError.invalid(path, raw, 'URL must not contain a username or password'));
  if (u.search.length > 1) errors.push(FieldError.invalid(path, raw, 'URL must not contain a query'));
  if (u.hash.length > 1) errors.push(FieldError.invalid(path, raw, 'URL must not contain a fragment'));
  return errors;
}

function validateAudiences(audiences: string[], policy: string | undefined, path: string, policyPath: string): FieldError[] {
  if (!audiences.length) return [FieldError.required(path, `at least one ${path} is required`)];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  audiences.forEach((a, i) => {
    if (!a) errors.push(FieldError.required(`${path}[${i}]`, ''));
    if (seen.has(a)) errors.push(FieldError.duplicate(`${path}[${i}]`, a));
    seen.add(a);
  });
  if (audiences.length > 1 && policy !== 'MatchAny') errors.push(FieldError.invalid(policyPath, policy ?? '', 'audienceMatchPolicy must be MatchAny for multiple audiences'));
  if (audiences.length === 1 && policy && policy !== 'MatchAny') errors.push(FieldError.invalid(policyPath, policy, 'audienceMatchPolicy must be empty or MatchAny for single audience'));
  return errors;
}

/** kube's cert.NewPoolFromBytes errors, for an inline PEM bundle. */
function caError(pem: string): string | undefined {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (!blocks.length) return 'data does not contain any valid RSA or ECDSA certificates';
  try {
    for (const b of blocks) new X509Certificate(b);
  } catch (err) {
    return (err as Error).message;
  }
  return undefined;
}

/** utilvalidation.IsDomainPrefixedPath. */
function domainPrefixedPath(path: string, key: string): FieldError[] {
  if (!key) return [FieldError.required(path, '')];
  const slash = key.indexOf('/');
  if (slash < 0) return [FieldError.invalid(path, key, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const host = key.slice(0, slash);
  const rest = key.slice(slash + 1);
  const errors: FieldError[] = [];
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(host) || host.length > 253) {
    errors.push(FieldError.invalid(path, host, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"));
  }
  if (!/^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/.test(rest)) errors.push(FieldError.invalid(path, key, 'Invalid path'));
  return errors;
}

function isKubernetesDomainPrefix(key: string): boolean {
  const slash = key.indexOf('/');
  const domain = slash < 0 ? '' : key.slice(0, slash);
  return domain === 'kubernetes.io' || domain.endsWith('.kubernetes.io') || domain === 'k8s.io' || domain.endsWith('.k8s.io');
}

/** Decodes and validates; throws with kube's aggregate of field errors. */
export function loadAuthenticationConfiguration(text: string, disallowedIssuers: readonly string[] = []): { config: AuthenticationConfiguration; mappers: CelMapper[] } {
  const config = decodeAuthenticationConfiguration(text);
  const { errors, mappers } = validateAuthenticationConfiguration(config, disallowedIssuers);
  if (errors.length) throw new Error(aggregate(errors));
  return { config, mappers };
}
