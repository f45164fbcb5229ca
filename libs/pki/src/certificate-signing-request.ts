/** certificates.k8s.io/v1 CertificateSigningRequest as its API server and its signers both read it. */
import type { KubeObject } from '@kube/apimachinery';

export interface CSRCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export interface CertificateSigningRequest extends KubeObject {
  spec?: {
    request?: string;
    signerName?: string;
    expirationSeconds?: number;
    usages?: string[];
    username?: string;
    uid?: string;
    groups?: string[];
    extra?: Record<string, string[]>;
  };
  status?: { conditions?: CSRCondition[]; certificate?: string };
}

/** kube's well-known signer names (k8s.io/api/certificates/v1) that the API server and our signer use. */
export const KUBE_APISERVER_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client';
export const LEGACY_UNKNOWN_SIGNER = 'kubernetes.io/legacy-unknown';

/** The request PEM the spec carries (base64 in JSON). */
export function requestPem(csr: CertificateSigningRequest): string {
  return Buffer.from(csr.spec?.request ?? '', 'base64').toString('utf8');
}
