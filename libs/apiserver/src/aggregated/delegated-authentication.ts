import type { V1ConfigMap } from '@kubernetes/client-node';
import type { AuthenticationOptions } from '../authentication';
import { EXTENSION_APISERVER_AUTHENTICATION, requestHeaderFromConfigMap } from '../authentication.configmap';
import { ApiClient, type RegistrationTarget } from './api.client';

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
    const configMap = await readWithRetries(() => client.read<V1ConfigMap & { metadata: object }>('v1', 'ConfigMap', name, namespace));
    return {
      ...local,
      clientCAPem: local.clientCAPem ?? configMap.data?.['client-ca-file'],
      requestHeader: local.requestHeader ?? requestHeaderFromConfigMap(configMap.data),
    };
  } finally {
    client.close();
  }
}

const ATTEMPTS = 30;
const RETRY_DELAY_MS = 2_000;

/** The front door may still be starting (compose, Helm): retry for a minute before giving up. */
async function readWithRetries<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (err) {
      if (attempt >= ATTEMPTS) throw err;
      await new Promise((r) => setTimeout(r, RETRY_DELAY_MS));
    }
  }
}
