/**
 * serviceaccounts/token: kube's TokenRequest (pkg/registry/core/serviceaccount/storage/token.go and
 * pkg/apis/authentication/validation): create-only, answers an authentication.k8s.io/v1 TokenRequest with a
 * bound, expiring token for the ServiceAccount, stores nothing.
 */
import { Errors, FieldError, type KubeObject } from '@kube/apimachinery';
import { formatTimestamp, type BoundObject, type ObjectReader, type ServiceAccountTokens, type SubresourceStrategy } from '@kube/apiserver';
import { isRecord } from './validation.helpers';

const AUTHN = 'authentication.k8s.io';
const TOKEN_REQUEST = { group: AUTHN, version: 'v1', kind: 'TokenRequest' };
/** kube's defaults and bounds for spec.expirationSeconds. */
const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;

interface TokenRequestSpec {
  audiences?: string[] | null;
  expirationSeconds?: number;
  boundObjectRef?: { kind?: string; apiVersion?: string; name?: string; uid?: string } | null;
}

/** Where bound objects are read from. */
export interface BoundObjectStores {
  pods: ObjectReader;
  secrets: ObjectReader;
}

/** ValidateTokenRequest. */
function validate(spec: TokenRequestSpec): FieldError[] {
  const errs: FieldError[] = [];
  const exp = spec.expirationSeconds;
  if (typeof exp !== 'number' || !Number.isInteger(exp)) errs.push(FieldError.invalid('spec.expirationSeconds', exp ?? null, 'must be an integer'));
  else if (exp < MIN_EXPIRATION_SECONDS) errs.push(FieldError.invalid('spec.expirationSeconds', exp, 'may not specify a duration less than 10 minutes'));
  else if (exp > MAX_EXPIRATION_SECONDS) errs.push(FieldError.invalid('spec.expirationSeconds', exp, 'may not specify a duration larger than 2^32 seconds'));
  if (spec.audiences != null && (!Array.isArray(spec.audiences) || spec.audiences.some((a) => typeof a !== 'string'))) errs.push(FieldError.invalid('spec.audiences', spec.audiences, 'must be a list of strings'));
  return errs;
}

/** The object a token is bound to, checked as kube does: it exists, runs as this ServiceAccount (a Pod), and has the given uid. */
async function boundObject(stores: BoundObjectStores, namespace: string, saName: string, ref: NonNullable<TokenRequestSpec['boundObjectRef']>): Promise<BoundObject> {
  const kind = ref.kind ?? '';
  const apiVersion = ref.apiVersion ?? '';
  if ((kind !== 'Pod' && kind !== 'Secret') || (apiVersion !== 'v1' && apiVersion !== '')) {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
    throw Errors.badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
  }
  const name = ref.name ?? '';
  const plural = kind === 'Pod' ? 'pods' : 'secrets';
  const obj = await (kind === 'Pod' ? stores.pods : stores.secrets).tryGet(namespace, name);
  if (!obj) throw Errors.notFound({ group: '', resource: plural }, name);
  if (kind === 'Pod' && (obj.spec as { serviceAccountName?: string } | undefined)?.serviceAccountName !== saName) {
    throw Errors.badRequest(`cannot bind token for serviceaccount "${saName}" to pod running with different serviceaccount name.`);
  }
  const uid = obj.metadata.uid ?? '';
  if (ref.uid && ref.uid !== uid) {
    throw Errors.conflict({ group: '', resource: kind }, name, `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  return { kind, name, uid };
}

/** The `token` subresource of serviceaccounts, issuing with `tokens` (create only). */
export function serviceAccountTokenSubresource(tokens: ServiceAccountTokens, stores: BoundObjectStores): SubresourceStrategy {
  return {
    verbs: ['create'],
    discovered: true,
    prepareForUpdate: (_incoming, old) => old,
    creater: {
      kind: TOKEN_REQUEST,
      create: async (sa: KubeObject, body: unknown): Promise<KubeObject> => {
        const req = (isRecord(body) ? body : {}) as KubeObject & { spec?: TokenRequestSpec };
        if (req.kind !== undefined && req.kind !== 'TokenRequest') throw Errors.badRequest(`the body of the request was in an unknown format - accepted media types include: application/json, application/yaml`);
        const spec: TokenRequestSpec = { ...(isRecord(req.spec) ? req.spec : {}) };
        spec.expirationSeconds ??= DEFAULT_EXPIRATION_SECONDS;
        const name = sa.metadata.name ?? '';
        const errs = validate(spec);
        if (errs.length) throw Errors.invalid({ group: AUTHN, kind: 'TokenRequest' }, name, errs);
        if (!tokens.canIssue) throw Errors.internal(new Error('no service account signing key is configured (KUBE_SERVICE_ACCOUNT_SIGNING_KEY_FILE)'));
        const namespace = sa.metadata.namespace ?? '';
        const bound = spec.boundObjectRef ? await boundObject(stores, namespace, name, spec.boundObjectRef) : undefined;
        const audiences = spec.audiences?.length ? spec.audiences : tokens.apiAudiences;
        const issued = tokens.issue({ namespace, serviceAccount: { name, uid: sa.metadata.uid ?? '' }, audiences, expirationSeconds: spec.expirationSeconds, boundObject: bound });
        return {
          apiVersion: `${AUTHN}/v1`,
          kind: 'TokenRequest',
          metadata: { name, namespace },
          spec: { audiences, expirationSeconds: spec.expirationSeconds, boundObjectRef: spec.boundObjectRef ?? null },
          status: { token: issued.token, expirationTimestamp: formatTimestamp(issued.expirationTimestamp) },
        };
      },
    },
  };
}
