/**
 * kube's Certificates API admission (plugin/pkg/admission/certificates/{approval,signing,subjectrestriction}):
 * approving or signing a CertificateSigningRequest is authorized on the synthetic `signers` resource of its
 * signerName, not by the right to write the subresource, and nobody may ask the kube-apiserver-client signer for
 * a system:masters certificate.
 */
import { Errors, type KubeObject, type StatusError, type UserInfo } from '@kube/apimachinery';
import type { AdmissionAttributes, AdmissionPlugin, Authorizer } from '@kube/apiserver';
import { KUBE_APISERVER_CLIENT_SIGNER, parseCertificateRequest, requestPem, type CertificateSigningRequest } from '@kube/pki';
import { semanticEqual } from './validation.helpers';

const CERTIFICATES_GROUP = 'certificates.k8s.io';
const CSRS = { group: CERTIFICATES_GROUP, resource: 'certificatesigningrequests' };
const SYSTEM_MASTERS = 'system:masters';

function isCSR(attrs: AdmissionAttributes): boolean {
  return attrs.resource.group === CERTIFICATES_GROUP && attrs.resource.plural === CSRS.resource;
}

/** admission.NewForbidden: the object's name, else its generateName, else "Unknown". */
function forbidden(attrs: AdmissionAttributes, why: string): StatusError {
  const meta: KubeObject['metadata'] | undefined = attrs.object?.metadata;
  return Errors.forbidden(CSRS, meta?.name || meta?.generateName || 'Unknown', why);
}

/**
 * certauthorization.IsAuthorizedForSignerName: `verb` on signers/<signerName>, else on signers/<domain>/* (so a
 * role can cover every signer of a domain). An authorizer error counts as a refusal.
 */
export async function isAuthorizedForSignerName(authorizer: Authorizer, user: UserInfo, verb: string, signerName: string): Promise<boolean> {
  for (const name of [signerName, `${signerName.split('/')[0]}/*`]) {
    try {
      const { decision } = await authorizer.authorize({ user, verb, resourceRequest: true, path: '', apiGroup: CERTIFICATES_GROUP, apiVersion: '*', resource: 'signers', subresource: '', namespace: '', name });
      if (decision === 'Allow') return true;
    } catch {
      // kube logs and goes on to the next attribute set.
    }
  }
  return false;
}

/** CertificateApproval: an update of `approval` needs `approve` on the signer of the stored request. */
export class CertificateApprovalAdmission implements AdmissionPlugin {
  readonly name = 'CertificateApproval';

  constructor(private readonly authorizer: Authorizer) {}

  async validate(attrs: AdmissionAttributes): Promise<void> {
    if (attrs.operation !== 'UPDATE' || attrs.subresource !== 'approval' || !isCSR(attrs)) return;
    // The old object's signer: the approval subresource cannot change the spec, whatever the request carries.
    const signerName = (attrs.oldObject as CertificateSigningRequest | undefined)?.spec?.signerName ?? '';
    if (!(await isAuthorizedForSignerName(this.authorizer, attrs.ctx.user, 'approve', signerName))) {
      throw forbidden(attrs, `user not permitted to approve requests with signerName "${signerName}"`);
    }
  }
}

/** CertificateSigning: a `status` write that changes the certificate or the conditions needs `sign` on the signer. */
export class CertificateSigningAdmission implements AdmissionPlugin {
  readonly name = 'CertificateSigning';

  constructor(private readonly authorizer: Authorizer) {}

  async validate(attrs: AdmissionAttributes): Promise<void> {
    if (attrs.operation !== 'UPDATE' || attrs.subresource !== 'status' || !isCSR(attrs)) return;
    const old = attrs.oldObject as CertificateSigningRequest | undefined;
    const csr = attrs.object as CertificateSigningRequest | undefined;
    if ((old?.status?.certificate ?? '') === (csr?.status?.certificate ?? '') && semanticEqual(old?.status?.conditions ?? [], csr?.status?.conditions ?? [])) return;
    const signerName = old?.spec?.signerName ?? '';
    if (!(await isAuthorizedForSignerName(this.authorizer, attrs.ctx.user, 'sign', signerName))) {
      throw forbidden(attrs, `user not permitted to sign requests with signerName "${signerName}"`);
    }
  }
}

/** CertificateSubjectRestriction: no kubernetes.io/kube-apiserver-client request with the system:masters organization. */
export class CertificateSubjectRestrictionAdmission implements AdmissionPlugin {
  readonly name = 'CertificateSubjectRestriction';

  validate(attrs: AdmissionAttributes): void {
    if (attrs.operation !== 'CREATE' || attrs.subresource !== '' || !isCSR(attrs)) return;
    const csr = attrs.object as CertificateSigningRequest | undefined;
    if (csr?.spec?.signerName !== KUBE_APISERVER_CLIENT_SIGNER) return;
    let organizations: readonly string[];
    try {
      organizations = parseCertificateRequest(requestPem(csr)).organizations;
    } catch (err) {
      throw forbidden(attrs, `failed to parse CSR: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (organizations.includes(SYSTEM_MASTERS)) {
      throw forbidden(attrs, `use of ${KUBE_APISERVER_CLIENT_SIGNER} signer with ${SYSTEM_MASTERS} group is not allowed`);
    }
  }
}

/** The three plugins in kube's order (CertificateApproval, CertificateSigning, CertificateSubjectRestriction). */
export function certificatesAdmission(authorizer: Authorizer): AdmissionPlugin[] {
  return [new CertificateApprovalAdmission(authorizer), new CertificateSigningAdmission(authorizer), new CertificateSubjectRestrictionAdmission()];
}
