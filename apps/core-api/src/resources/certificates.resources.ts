/**
 * certificates.k8s.io/v1 CertificateSigningRequest (pkg/apis/certificates/validation, pkg/registry/certificates):
 * the requester recorded on create, `approval` and `status` subresources, printCertificateSigningRequest. The
 * signer for kubernetes.io/kube-apiserver-client is kube-controller-manager's csrsigning controller, in
 * apps/controller-manager (controllers/certificate-signing.controller.ts). Who may approve or sign for a signer,
 * and which subjects kube-apiserver-client refuses, is admission's (certificates.admission.ts).
 */
import { FieldError, isDNS1123Subdomain, type KubeObject } from '@kube/apimachinery';
import { nowTimestamp, statusSubresource, type RequestContext, type ResourceDefinition, type SubresourceStrategy } from '@kube/apiserver';
import { LEGACY_UNKNOWN_SIGNER, parseCertificateRequest, requestPem, type CertificateSigningRequest, type CSRCondition } from '@kube/pki';
import { column } from './cluster.helpers';
import { ageColumn, NONE } from './table.helpers';
import { child, index, listOf, semanticEqual } from './validation.helpers';
import { fieldLabelNotSupported } from './field-labels';

const VALID_USAGES = [
  'any', 'cert sign', 'client auth', 'code signing', 'content commitment', 'crl sign', 'data encipherment', 'decipher only', 'digital signature', 'email protection',
  'encipher only', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'key agreement', 'key encipherment', 'microsoft sgc', 'netscape sgc', 'ocsp signing', 's/mime',
  'server auth', 'signing', 'timestamping',
];
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];

/** ValidateSignerName: a fully qualified domain and a path. */
function validateSignerName(name: string | undefined, path: string): FieldError[] {
  if (!name) return [FieldError.required(path)];
  const [domain, ...rest] = name.split('/');
  const errs: FieldError[] = [];
  if (rest.length === 0 || !rest.join('/')) return [FieldError.invalid(path, name, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  errs.push(...isDNS1123Subdomain(domain).map((msg) => FieldError.invalid(path, name, `validating domain component: ${msg}`)));
  if (!domain.includes('.')) errs.push(FieldError.invalid(path, name, 'should be a domain with at least two segments separated by dots'));
  return errs;
}

function validateConditions(conditions: readonly CSRCondition[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  conditions.forEach((c, i) => {
    const path = index('status.conditions', i);
    if (!c.type) errs.push(FieldError.required(child(path, 'type')));
    if (c.type && seen.has(c.type) && ['Approved', 'Denied', 'Failed'].includes(c.type)) errs.push(FieldError.duplicate(child(path, 'type'), c.type));
    if (c.type) seen.add(c.type);
    if (!CONDITION_STATUSES.includes(c.status ?? '')) errs.push(FieldError.notSupported(child(path, 'status'), c.status ?? '', CONDITION_STATUSES));
  });
  if (conditions.some((c) => c.type === 'Approved' && c.status === 'True') && conditions.some((c) => c.type === 'Denied' && c.status === 'True')) {
    errs.push(FieldError.invalid('status.conditions', conditions, 'Approved and Denied conditions are mutually exclusive'));
  }
  return errs;
}

/** ValidateCertificateSigningRequestCreate. */
export function validateCertificateSigningRequest(csr: CertificateSigningRequest): FieldError[] {
  const spec = csr.spec ?? {};
  const errs: FieldError[] = [];
  try {
    parseCertificateRequest(requestPem(csr));
  } catch (err) {
    errs.push(FieldError.invalid('spec.request', spec.request ?? '', err instanceof Error ? err.message : String(err)));
  }
  const usages = listOf(spec.usages);
  if (usages.length === 0) errs.push(FieldError.required('spec.usages', 'usages must be provided'));
  usages.forEach((u, i) => {
    if (!VALID_USAGES.includes(u)) errs.push(FieldError.notSupported(index('spec.usages', i), u, VALID_USAGES));
    if (usages.indexOf(u) !== i) errs.push(FieldError.duplicate(index('spec.usages', i), u));
  });
  if (spec.signerName === LEGACY_UNKNOWN_SIGNER) errs.push(FieldError.invalid('spec.signerName', spec.signerName, 'the legacy signerName is not allowed via this API version'));
  else errs.push(...validateSignerName(spec.signerName, 'spec.signerName'));
  if (spec.expirationSeconds !== undefined && spec.expirationSeconds < 600) errs.push(FieldError.invalid('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  errs.push(...validateConditions(listOf(csr.status?.conditions)));
  return errs;
}

/** SetDefaults_CertificateSigningRequestCondition, plus the timestamps kube's strategies fill. */
function defaultConditions(conditions: CSRCondition[] | undefined, old: readonly CSRCondition[] = []): void {
  const now = nowTimestamp();
  for (const c of listOf(conditions)) {
    c.status ||= 'True';
    const before = old.find((o) => o.type === c.type);
    c.lastUpdateTime ||= now;
    if (!c.lastTransitionTime) c.lastTransitionTime = before && before.status === c.status ? (before.lastTransitionTime ?? now) : now;
  }
}

/** The requester, recorded from the request (kube's PrepareForCreate). */
function recordRequester(csr: CertificateSigningRequest, ctx: RequestContext): void {
  const spec = (csr.spec ??= {});
  spec.username = ctx.user.name;
  spec.uid = ctx.user.uid ?? '';
  spec.groups = [...(ctx.user.groups ?? [])];
  if (ctx.user.extra && Object.keys(ctx.user.extra).length) spec.extra = { ...ctx.user.extra };
  else delete spec.extra;
  delete csr.status;
}

/** `approval`: writes change status.conditions only (kubectl certificate approve / deny). */
const approvalSubresource: SubresourceStrategy = {
  verbs: ['get', 'patch', 'update'],
  discovered: true,
  prepareForUpdate(incoming, old) {
    const next = structuredClone(old) as CertificateSigningRequest;
    const conditions = structuredClone(listOf((incoming as CertificateSigningRequest).status?.conditions)) as CSRCondition[];
    defaultConditions(conditions, listOf(next.status?.conditions));
    next.status = { ...next.status, conditions };
    return next;
  },
  validateUpdate: (obj, old) => {
    const [conds, prev] = [listOf((obj as CertificateSigningRequest).status?.conditions), listOf((old as CertificateSigningRequest).status?.conditions)];
    const errs = validateConditions(conds);
    for (const type of ['Approved', 'Denied']) {
      if (prev.some((c) => c.type === type) && !conds.some((c) => c.type === type)) errs.push(FieldError.forbidden('status.conditions', `updates may not remove a condition of type "${type}"`));
    }
    return errs;
  },
};

function conditionSummary(csr: CertificateSigningRequest): string {
  const conds = listOf(csr.status?.conditions);
  const has = (type: string): boolean => conds.some((c) => c.type === type && c.status === 'True');
  const parts: string[] = [];
  if (has('Approved')) parts.push('Approved');
  if (has('Denied')) parts.push('Denied');
  if (!parts.length) parts.push('Pending');
  if (has('Failed')) parts.push('Failed');
  if (csr.status?.certificate) parts.push('Issued');
  return parts.join(',');
}

/** duration.HumanDuration for whole seconds. */
function humanDuration(seconds: number): string {
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return `${minutes}m${seconds % 60 ? `${seconds % 60}s` : ''}`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return `${hours}h${minutes % 60 ? `${minutes % 60}m` : ''}`;
  if (hours < 48) return `${hours}h`;
  return `${Math.floor(hours / 24)}d`;
}

export const certificateSigningRequestsResource: ResourceDefinition = {
  group: 'certificates.k8s.io',
  version: 'v1',
  kind: 'CertificateSigningRequest',
  plural: 'certificatesigningrequests',
  singular: 'certificatesigningrequest',
  shortNames: ['csr'],
  namespaced: false,
  subresources: { approval: approvalSubresource, status: statusSubresource() },
  strategy: {
    allowCreateOnUpdate: false,
    prepareForCreate: (obj, ctx) => recordRequester(obj as CertificateSigningRequest, ctx),
    prepareForUpdate: (obj, old) => {
      // The spec never changes after creation.
      (obj as CertificateSigningRequest).spec = structuredClone((old as CertificateSigningRequest).spec);
    },
    validate: (obj) => validateCertificateSigningRequest(obj as CertificateSigningRequest),
    validateUpdate: (obj, old) => (semanticEqual((obj as CertificateSigningRequest).spec, (old as CertificateSigningRequest).spec) ? [] : [FieldError.forbidden('spec', 'field is immutable')]),
    fields: (obj) => ({ 'spec.signerName': (obj as CertificateSigningRequest).spec?.signerName ?? '' }),
    unknownFieldLabel: fieldLabelNotSupported,
  },
  tableColumns: [
    ageColumn,
    column<CertificateSigningRequest>('SignerName', 'string', 'signerName indicates the requested signer, and is a qualified name.', (c) => c.spec?.signerName ?? NONE),
    column<CertificateSigningRequest>('Requestor', 'string', 'request contains an x509 certificate signing request encoded in a "CERTIFICATE REQUEST" PEM block.', (c) => c.spec?.username ?? ''),
    column<CertificateSigningRequest>('RequestedDuration', 'string', 'expirationSeconds is the requested duration of validity of the issued certificate.', (c) => (c.spec?.expirationSeconds !== undefined ? humanDuration(c.spec.expirationSeconds) : NONE)),
    column<CertificateSigningRequest>('Condition', 'string', 'conditions applied to the request. Known conditions are "Approved", "Denied", and "Failed".', conditionSummary),
  ],
};
