import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { describe, expect, it } from 'vitest';
import { isStatusError } from '@kube/apimachinery';
import type { AdmissionAttributes, AuthorizationAttributes, Authorizer } from '@kube/apiserver';
import type { CertificateSigningRequest } from '@kube/pki';
import { CertificateApprovalAdmission, CertificateSigningAdmission, CertificateSubjectRestrictionAdmission } from './certificates.admission';
import { certificateSigningRequestsResource } from './certificates.resources';

/** Allows exactly the (verb, signers name) pairs given, and records what it was asked. */
function authorizerAllowing(...allowed: string[]): Authorizer & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    authorize: (a: AuthorizationAttributes) => {
      asked.push(`${a.verb} ${a.apiGroup}/${a.resource}/${a.name}`);
      return { decision: allowed.includes(`${a.verb} ${a.name}`) ? 'Allow' : 'NoOpinion', reason: '' };
    },
  };
}

async function requestFor(subject: string): Promise<string> {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: subject, keys, signingAlgorithm: alg });
  return Buffer.from(csr.toString('pem')).toString('base64');
}

function csr(signerName: string, request = '', status: CertificateSigningRequest['status'] = {}): CertificateSigningRequest {
  return { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'r' }, spec: { signerName, request, usages: ['client auth'] }, status };
}

function attrs(operation: AdmissionAttributes['operation'], subresource: string, object: CertificateSigningRequest, oldObject?: CertificateSigningRequest): AdmissionAttributes {
  return { operation, resource: certificateSigningRequestsResource, subresource, namespace: '', name: 'r', object, oldObject, ctx: { user: { name: 'u', groups: [] }, dryRun: false, warnings: [] } };
}

async function refusal(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (err) {
    if (isStatusError(err)) return `${err.code} ${err.message}`;
    throw err;
  }
  return 'allowed';
}

describe('CertificateApproval', () => {
  it('needs approve on signers/<signerName> or signers/<domain>/*, of the stored request', async () => {
    const old = csr('example.com/a');
    const next = csr('example.com/b', '', { conditions: [{ type: 'Approved', status: 'True' }] });
    const none = authorizerAllowing();
    expect(await refusal(() => new CertificateApprovalAdmission(none).validate(attrs('UPDATE', 'approval', next, old)))).toBe(
      '403 certificatesigningrequests.certificates.k8s.io "r" is forbidden: user not permitted to approve requests with signerName "example.com/a"',
    );
    expect(none.asked).toEqual(['approve certificates.k8s.io/signers/example.com/a', 'approve certificates.k8s.io/signers/example.com/*']);
    expect(await refusal(() => new CertificateApprovalAdmission(authorizerAllowing('approve example.com/*')).validate(attrs('UPDATE', 'approval', next, old)))).toBe('allowed');
    // Only the approval subresource: the resource itself and other operations are another plugin's business.
    expect(await refusal(() => new CertificateApprovalAdmission(none).validate(attrs('UPDATE', '', next, old)))).toBe('allowed');
  });
});

describe('CertificateSigning', () => {
  it('needs sign when status.certificate or the conditions change through status', async () => {
    const old = csr('kubernetes.io/kube-apiserver-client');
    const signed = csr('kubernetes.io/kube-apiserver-client', '', { certificate: 'Y2VydA==' });
    const plugin = new CertificateSigningAdmission(authorizerAllowing());
    expect(await refusal(() => plugin.validate(attrs('UPDATE', 'status', signed, old)))).toBe(
      '403 certificatesigningrequests.certificates.k8s.io "r" is forbidden: user not permitted to sign requests with signerName "kubernetes.io/kube-apiserver-client"',
    );
    expect(await refusal(() => plugin.validate(attrs('UPDATE', 'status', csr('kubernetes.io/kube-apiserver-client'), old)))).toBe('allowed');
    expect(await refusal(() => new CertificateSigningAdmission(authorizerAllowing('sign kubernetes.io/kube-apiserver-client')).validate(attrs('UPDATE', 'status', signed, old)))).toBe('allowed');
  });
});

describe('CertificateSubjectRestriction', () => {
  it('refuses system:masters for kubernetes.io/kube-apiserver-client only', async () => {
    const masters = await requestFor('CN=m, O=devs, O=system:masters');
    const plugin = new CertificateSubjectRestrictionAdmission();
    expect(await refusal(() => plugin.validate(attrs('CREATE', '', csr('kubernetes.io/kube-apiserver-client', masters))))).toBe(
      '403 certificatesigningrequests.certificates.k8s.io "r" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed',
    );
    expect(await refusal(() => plugin.validate(attrs('CREATE', '', csr('example.com/x', masters))))).toBe('allowed');
    const devs = await requestFor('CN=m, O=devs');
    expect(await refusal(() => plugin.validate(attrs('CREATE', '', csr('kubernetes.io/kube-apiserver-client', devs))))).toBe('allowed');
  });
});
