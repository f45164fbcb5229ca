import type { AuthenticationOptions, RequestHeaderOptions } from './authentication';

/** kube-system/extension-apiserver-authentication: where the control plane tells aggregated servers whom to trust. */
export const EXTENSION_APISERVER_AUTHENTICATION = { namespace: 'kube-system', name: 'extension-apiserver-authentication' } as const;

/** The front-proxy headers this server family reads (authentication.ts), as kube's --requestheader-* flags name them. */
const REQUEST_HEADERS = { username: ['X-Remote-User'], group: ['X-Remote-Group'], extraPrefix: ['X-Remote-Extra-'] } as const;

/**
 * The ConfigMap's data as kube's cluster-authentication-trust controller writes it: the client CA PEM and,
 * when a front proxy is trusted, its CA, allowed names and header names as JSON string lists.
 */
export function extensionApiserverAuthenticationData(auth: AuthenticationOptions): Record<string, string> {
  const data: Record<string, string> = {};
  if (auth.clientCAPem) data['client-ca-file'] = auth.clientCAPem;
  if (auth.requestHeader) {
    data['requestheader-client-ca-file'] = auth.requestHeader.caPem;
    data['requestheader-allowed-names'] = JSON.stringify(auth.requestHeader.allowedNames);
    data['requestheader-username-headers'] = JSON.stringify(REQUEST_HEADERS.username);
    data['requestheader-group-headers'] = JSON.stringify(REQUEST_HEADERS.group);
    data['requestheader-extra-headers-prefix'] = JSON.stringify(REQUEST_HEADERS.extraPrefix);
  }
  return data;
}

/** The front-proxy trust the ConfigMap publishes, as kube's delegating authentication reads it; undefined without one. */
export function requestHeaderFromConfigMap(data: Readonly<Record<string, string>> | undefined): RequestHeaderOptions | undefined {
  const caPem = data?.['requestheader-client-ca-file'];
  if (!caPem) return undefined;
  const names: unknown = JSON.parse(data['requestheader-allowed-names'] || '[]');
  const allowedNames = Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
  return { caPem, allowedNames };
}
