import { describe, expect, it } from 'vitest';
import { caBundleError, parseGoURL, validateWebhookService, validateWebhookURL } from './webhook.validation';

const messages = (errs: ReturnType<typeof validateWebhookURL>): string[] => errs.map((e) => e.toString());
const FORMAT = '; desired format: https://host[/path]';

/** A self-signed P-256 CA (CN=conversion-ca, valid until 2126). */
const CA_PEM = `-----BEGIN CERTIFICATE-----
MIIBhjCCAS2gAwIBAgIUDxfoOVg5hJ58OEthp5X5YMvPjtUwCgYIKoZIzj0EAwIw
GDEWMBQGA1UEAwwNY29udmVyc2lvbi1jYTAgFw0yNjExMjIwNzQ3MTdaGA8yMTI2
MTAyOTA3NDcxN1owGDEWMBQGA1UEAwwNY29udmVyc2lvbi1jYTBZMBMGByqGSM49
AgEGCCqGSM49AwEHA0IABGTR4avMrW9ViosqiR0l25czX7KCK1WvCnxft/V2Si7h
qN3sGkLahja46LX5Vx97zS6pwkYwxfnnplWEIP42XnijUzBRMB0GA1UdDgQWBBQ0
PNqL8hm0t3kWxpbuMUfTTo+EZDAfBgNVHSMEGDAWgBQ0PNqL8hm0t3kWxpbuMUfT
To+EZDAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0cAMEQCICkuQA+eziHO
fYX1vxlLG2YqI+BycTgmY3Y4HenAgoGwAiAsL9MIpDsPvLKsFvtpp/4x8Po8+LrL
8bc6wRCt20sa0g==
-----END CERTIFICATE-----
`;

describe('conversion webhook client config', () => {
  it('splits URLs the way Go net/url does', () => {
    expect(parseGoURL('https://user:pw@conv.example.com:8443/convert?a=1#top')).toEqual({
      scheme: 'https',
      host: 'conv.example.com:8443',
      user: 'user:pw',
      fragment: 'top',
      rawQuery: 'a=1',
    });
    expect(parseGoURL('conv.example.com/convert')).toEqual({ scheme: '', host: '', fragment: '', rawQuery: '' });
    expect(parseGoURL(':8443')).toBe('parse ":8443": missing protocol scheme');
    expect(parseGoURL('https://conv.example.com:port/')).toBe('parse "https://conv.example.com:port/": invalid port ":port" after host');
  });

  it('accepts an https URL with a host and path', () => {
    expect(validateWebhookURL('url', 'https://conv.example.com/convert', true)).toEqual([]);
  });

  it('reports scheme, host, user info, fragment and query', () => {
    expect(messages(validateWebhookURL('url', 'http://me@/convert?x=1#f', true))).toEqual([
      `url: Invalid value: "http": 'https' is the only allowed URL scheme${FORMAT}`,
      `url: Invalid value: "": host must be specified${FORMAT}`,
      'url: Invalid value: "me": user information is not permitted in the URL',
      'url: Invalid value: "f": fragments are not permitted in the URL',
      'url: Invalid value: "x=1": query parameters are not permitted in the URL',
    ]);
    expect(messages(validateWebhookURL('url', ':443', true))).toEqual([`url: Required value: url must be a valid URL: parse ":443": missing protocol scheme${FORMAT}`]);
  });

  it('checks service name, namespace, port and path segments', () => {
    expect(validateWebhookService('svc', { namespace: 'ns', name: 'conv', port: 443, path: '/convert/v1/' })).toEqual([]);
    expect(messages(validateWebhookService('svc', { port: 70000, path: '/a//B_c' }))).toEqual([
      'svc.name: Required value: service name is required',
      'svc.namespace: Required value: service namespace is required',
      'svc.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
      'svc.path: Invalid value: "/a//B_c": segment[1] may not be empty',
      `svc.path: Invalid value: "/a//B_c": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ]);
    expect(messages(validateWebhookService('svc', { namespace: 'ns', name: 'conv', port: 443, path: '//' }))).toEqual(['svc.path: Invalid value: "//": segment[0] may not be empty']);
  });

  it('accepts a CA bundle holding a certificate and explains the rest as client-go does', () => {
    expect(caBundleError(CA_PEM)).toBeUndefined();
    expect(caBundleError(`garbage before\n${CA_PEM}`)).toBeUndefined();
    expect(caBundleError('garbage')).toBe('unable to load root certificates: unable to parse bytes as PEM block');
    expect(caBundleError('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n')).toBe('unable to load root certificates: no valid certificate authority data seen');
  });
});
