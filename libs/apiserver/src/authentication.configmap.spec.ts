import { describe, expect, it } from 'vitest';
import { extensionApiserverAuthenticationData, requestHeaderFromConfigMap } from './authentication.configmap';

describe('extension-apiserver-authentication data', () => {
  it('is kube\'s keys, header names and allowed names as JSON string lists', () => {
    const data = extensionApiserverAuthenticationData({ clientCAPem: 'CLIENT CA', requestHeader: { caPem: 'PROXY CA', allowedNames: ['front-proxy-client'] } });
    expect(data).toEqual({
      'client-ca-file': 'CLIENT CA',
      'requestheader-client-ca-file': 'PROXY CA',
      'requestheader-allowed-names': '["front-proxy-client"]',
      'requestheader-username-headers': '["X-Remote-User"]',
      'requestheader-group-headers': '["X-Remote-Group"]',
      'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
    });
    expect(requestHeaderFromConfigMap(data)).toEqual({ caPem: 'PROXY CA', allowedNames: ['front-proxy-client'] });
  });

  it('has only the client CA without a front proxy, and then no request-header trust is read back', () => {
    const data = extensionApiserverAuthenticationData({ clientCAPem: 'CLIENT CA' });
    expect(data).toEqual({ 'client-ca-file': 'CLIENT CA' });
    expect(requestHeaderFromConfigMap(data)).toBeUndefined();
    expect(requestHeaderFromConfigMap(undefined)).toBeUndefined();
    expect(requestHeaderFromConfigMap({ 'requestheader-client-ca-file': 'PROXY CA' })).toEqual({ caPem: 'PROXY CA', allowedNames: [] });
  });
});
