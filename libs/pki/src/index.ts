export {
  type CertificateAuthority,
  type CreateCertificateAuthorityOptions,
  createCertificateAuthority,
  loadCertificateAuthority,
  parseCertificateAuthority,
} from './certificate-authority';
export { type CertificateUsage, type IssueCertificateOptions, type IssuedCertificate, issueCertificate } from './certificate.issuer';
export { type Kubeconfig, type KubeconfigOptions, buildKubeconfig, writeKubeconfig } from './kubeconfig.writer';
export { APISERVER_DNS_NAMES, APISERVER_IP_ADDRESSES, type ClientIdentity, type EnsurePkiOptions, type PkiPaths, clientCertPaths, ensurePki, etcdClientPaths, natsClientPaths, pkiPaths, servingCertPaths } from './pki.bootstrap';
export type { SigningKey } from './private-key.codec';
export { type CertificateRequestInfo, type SignRequestOptions, parseCertificateRequest, signCertificateRequest } from './csr.signer';
export {
  type CertificateSigningRequest,
  type CSRCondition,
  KUBE_APISERVER_CLIENT_SIGNER,
  LEGACY_UNKNOWN_SIGNER,
  requestPem,
} from './certificate-signing-request';
