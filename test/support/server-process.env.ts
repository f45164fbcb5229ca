import type { PkiPaths } from '@kube/pki';

/**
 * The environment an API server process (a compiled main) shares with its peers in a test: etcd, the listen
 * address, serving and client trust from the test PKI, the front proxy's CA, loopback endpoints allowed.
 * Add KUBE_SECURE_PORT and the service's own variables.
 */
export function serverProcessEnv(pki: PkiPaths, etcdEndpoint: string, bindAddress = '127.0.0.1'): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    KUBE_ETCD_ENDPOINTS: etcdEndpoint,
    KUBE_BIND_ADDRESS: bindAddress,
    KUBE_TLS_CERT_FILE: pki.apiserverCert,
    KUBE_TLS_PRIVATE_KEY_FILE: pki.apiserverKey,
    KUBE_CLIENT_CA_FILE: pki.caCert,
    KUBE_REQUESTHEADER_CLIENT_CA_FILE: pki.frontProxyCaCert,
    KUBE_REQUESTHEADER_ALLOWED_NAMES: 'front-proxy-client',
    KUBE_ALLOW_LOOPBACK_ENDPOINTS: 'true',
  };
}
