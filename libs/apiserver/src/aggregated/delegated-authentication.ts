import type { V1ConfigMap } from '@kubernetes/client-node';
import type { AuthenticationOptions } from '../authentication';
import { EXTENSION_APISERVER_AUTHENTICATION, requestHeaderFromConfigMap } from '../authentication.configmap';
import { retrying } from '../retrying';
import { ApiClient, type RegistrationTarget } from './api.client';

/** The front door may still be starting (compose, Helm): retry for a minute before giving up. */
const ATTEMPTS = 30;
const RETRY_DELAY_MS = 2_000;

/**
 * kube's delegating authentication: what is not configured locally (client CA, front-proxy CA and allowed
 * names) is taken from kube-system/extension-apiserver-authentication, read through the front door.
 * Local files win; read once at start-up (kube also follows later changes).
 */
export async function delegatedAuthentication(local: AuthenticationOptions, target: RegistrationTarget): Promise<AuthenticationOptions> {
  if (local.clientCAPem && local.requestHeader) return local;
  const client = new ApiClient(target);
  try {
    const { namespace, name } = EXTENSION_APISERVER_AUTHENTICATION;
    const configMap = await retrying(() => client.read<V1ConfigMap & { metadata: object }>('v1', 'ConfigMap', name, namespace), ATTEMPTS, RETRY_DELAY_MS);
    return {
      ...local,
      clientCAPem: local.clientCAPem ?? configMap.data?.['client-ca-file'],
      requestHeader: local.requestHeader ?? requestHeaderFromConfigMap(configMap.data),
    };
  } finally {
    client.close();
  }
}

