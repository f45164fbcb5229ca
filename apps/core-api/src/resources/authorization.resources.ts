/**
 * The review APIs (create-only, never stored), as kube serves them from pkg/registry/authorization and
 * pkg/registry/authentication: authorization.k8s.io/v1 SubjectAccessReview, LocalSubjectAccessReview,
 * SelfSubjectAccessReview, SelfSubjectRulesReview, and authentication.k8s.io TokenReview and SelfSubjectReview
 * (v1 and v1beta1, which kubectl 1.27's `auth whoami` asks for).
 */
import { Errors, FieldError, type KubeObject } from '@kube/apimachinery';
import { nowTimestamp, type AuthorizationAttributes, type RequestContext, type ResourceDefinition, type UserInfo } from '@kube/apiserver';
import type { AuthorizationSet } from '@kube/authorization';
import { isRecord } from './validation.helpers';

interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

interface AccessReviewSpec {
  resourceAttributes?: ResourceAttributes | null;
  nonResourceAttributes?: { path?: string; verb?: string } | null;
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
}

type AccessReview = KubeObject & { spec?: AccessReviewSpec };

const AUTHZ = 'authorization.k8s.io';
const AUTHN = 'authentication.k8s.io';

/** ValidateSubjectAccessReviewSpec / ValidateSelfSubjectAccessReviewSpec. */
function validateSpec(spec: AccessReviewSpec, withSubject: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.resourceAttributes && spec.nonResourceAttributes) errs.push(FieldError.invalid('spec.nonResourceAttributes', spec.nonResourceAttributes, 'cannot be specified in combination with resourceAttributes'));
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) errs.push(FieldError.invalid('spec.resourceAttributes', spec.nonResourceAttributes ?? null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  if (withSubject && !spec.user && !(spec.groups ?? []).length) errs.push(FieldError.invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
  return errs;
}

/** The object's metadata must be empty (LocalSubjectAccessReview: but for its namespace). */
function validateEmptyMeta(obj: KubeObject, allowNamespace: boolean): FieldError[] {
  const { managedFields: _m, namespace, creationTimestamp, ...rest } = obj.metadata;
  const extra = Object.values(rest).some((v) => v !== undefined && v !== null && v !== '') || (!allowNamespace && !!namespace) || !!creationTimestamp;
  return extra ? [FieldError.invalid('metadata', obj.metadata, allowNamespace ? 'must be empty except for namespace' : 'must be empty')] : [];
}

function specOf(obj: KubeObject): AccessReviewSpec {
  const spec = (obj as AccessReview).spec;
  return isRecord(spec) ? spec : {};
}

function check(kind: string, obj: KubeObject, errs: FieldError[]): void {
  if (errs.length) throw Errors.invalid({ group: AUTHZ, kind }, obj.metadata.name ?? '', errs);
}

/** authorizationutil.AuthorizationAttributesFrom: the spec's resource or non-resource attributes for a user. */
function attributesFrom(user: UserInfo, spec: AccessReviewSpec): AuthorizationAttributes {
  const r = spec.resourceAttributes;
  if (r) {
    return { user, verb: r.verb ?? '', resourceRequest: true, path: '', apiGroup: r.group ?? '', apiVersion: r.version ?? '', resource: r.resource ?? '', subresource: r.subresource ?? '', namespace: r.namespace ?? '', name: r.name ?? '' };
  }
  const n = spec.nonResourceAttributes ?? {};
  return { user, verb: n.verb ?? '', resourceRequest: false, path: n.path ?? '', apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '' };
}

function specUser(spec: AccessReviewSpec): UserInfo {
  return { name: spec.user ?? '', uid: spec.uid || undefined, groups: spec.groups ?? [], extra: spec.extra ?? {} };
}

async function review(authz: AuthorizationSet, obj: KubeObject, user: UserInfo): Promise<KubeObject> {
  const result = await authz.authorizer.authorize(attributesFrom(user, specOf(obj)));
  const status: Record<string, unknown> = { allowed: result.decision === 'Allow' };
  if (result.decision === 'Deny') status.denied = true;
  if (result.reason) status.reason = result.reason;
  if (result.error !== undefined) status.evaluationError = result.error;
  return { ...obj, metadata: { ...obj.metadata, creationTimestamp: undefined }, status };
}

const reviewResource = (kind: string, plural: string, namespaced: boolean, group: string, version: string, createOnly: ResourceDefinition['createOnly']): ResourceDefinition => ({
  group,
  version,
  kind,
  plural,
  singular: kind.toLowerCase(),
  namespaced,
  verbs: ['create'],
  createOnly,
});

export function authorizationResources(authz: AuthorizationSet): ResourceDefinition[] {
  return [
    reviewResource('SelfSubjectReview', 'selfsubjectreviews', false, AUTHN, 'v1', (_obj, ctx) => selfSubjectReview(ctx, 'v1')),
    reviewResource('SelfSubjectReview', 'selfsubjectreviews', false, AUTHN, 'v1beta1', (_obj, ctx) => selfSubjectReview(ctx, 'v1beta1')),
    reviewResource('LocalSubjectAccessReview', 'localsubjectaccessreviews', true, AUTHZ, 'v1', (obj, ctx) => {
      const spec = specOf(obj);
      check('LocalSubjectAccessReview', obj, [...validateSpec(spec, true), ...validateEmptyMeta(obj, true)]);
      const namespace = ctx.namespace ?? '';
      if (!namespace) throw Errors.badRequest(`namespace is required on this type: ${namespace}`);
      if (namespace !== (obj.metadata.namespace ?? '')) throw Errors.badRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`);
      if (spec.resourceAttributes && (spec.resourceAttributes.namespace ?? '') !== namespace) throw Errors.badRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`);
      return review(authz, obj, specUser(spec));
    }),
    reviewResource('SelfSubjectAccessReview', 'selfsubjectaccessreviews', false, AUTHZ, 'v1', (obj, ctx) => {
      check('SelfSubjectAccessReview', obj, validateSpec(specOf(obj), false));
      return review(authz, obj, ctx.user);
    }),
    reviewResource('SelfSubjectRulesReview', 'selfsubjectrulesreviews', false, AUTHZ, 'v1', (obj, ctx) => {
      const spec = (isRecord((obj as AccessReview).spec) ? (obj as AccessReview).spec : {}) as { namespace?: string };
      if (!spec.namespace) throw Errors.badRequest('no namespace on request');
      const rules = authz.authorizer.rulesFor(ctx.user, spec.namespace);
      const status: Record<string, unknown> = {
        resourceRules: rules.resourceRules.map(({ resourceNames, apiGroups, resources, verbs }) => ({ verbs, ...(apiGroups.length ? { apiGroups } : {}), ...(resources.length ? { resources } : {}), ...(resourceNames.length ? { resourceNames } : {}) })),
        nonResourceRules: rules.nonResourceRules,
        incomplete: rules.incomplete,
      };
      if (rules.errors.length) status.evaluationError = rules.errors.length === 1 ? rules.errors[0] : `[${[...new Set(rules.errors)].join(', ')}]`;
      return { apiVersion: `${AUTHZ}/v1`, kind: 'SelfSubjectRulesReview', metadata: {}, spec: {}, status };
    }),
    reviewResource('SubjectAccessReview', 'subjectaccessreviews', false, AUTHZ, 'v1', (obj) => {
      const spec = specOf(obj);
      check('SubjectAccessReview', obj, [...validateSpec(spec, true), ...validateEmptyMeta(obj, false)]);
      return review(authz, obj, specUser(spec));
    }),
  ];
}

/** Who a bearer token is, for the audiences asked (all of the server's when none); a promise for a JWT authenticator's token. */
export type TokenAuthenticator = (token: string, audiences?: readonly string[]) => UserInfo | undefined | Promise<UserInfo | undefined>;

/** TokenReview (pkg/registry/authentication/tokenreview): whether a token authenticates, and as whom. */
export function tokenReviewResource(authenticate: TokenAuthenticator, apiAudiences: readonly string[]): ResourceDefinition {
  return reviewResource('TokenReview', 'tokenreviews', false, AUTHN, 'v1', async (obj) => {
    const spec = (isRecord((obj as KubeObject & { spec?: unknown }).spec) ? (obj as KubeObject & { spec?: unknown }).spec : {}) as { token?: unknown; audiences?: unknown };
    if (typeof spec.token !== 'string' || !spec.token) throw Errors.badRequest('token is required for TokenReview in authentication');
    const asked = Array.isArray(spec.audiences) ? spec.audiences.filter((a): a is string => typeof a === 'string') : [];
    const user = await authenticate(spec.token, asked.length ? asked : undefined);
    const status: Record<string, unknown> = { user: {} };
    if (user) {
      const u: Record<string, unknown> = { username: user.name };
      if (user.uid) u.uid = user.uid;
      if (user.groups.length) u.groups = user.groups;
      if (user.extra && Object.keys(user.extra).length) u.extra = user.extra;
      status.authenticated = true;
      status.user = u;
      status.audiences = asked.length ? asked : [...apiAudiences];
    }
    return { ...obj, metadata: { ...obj.metadata, creationTimestamp: undefined }, spec: { ...spec }, status };
  });
}

/** SelfSubjectReview: who the server thinks the caller is (`kubectl auth whoami`). */
function selfSubjectReview(ctx: RequestContext, version: string): KubeObject {
  const u = ctx.user;
  const userInfo: Record<string, unknown> = { username: u.name };
  if (u.uid) userInfo.uid = u.uid;
  if (u.groups.length) userInfo.groups = u.groups;
  if (u.extra && Object.keys(u.extra).length) userInfo.extra = u.extra;
  return { apiVersion: `${AUTHN}/${version}`, kind: 'SelfSubjectReview', metadata: { creationTimestamp: nowTimestamp() }, status: { userInfo } };
}
