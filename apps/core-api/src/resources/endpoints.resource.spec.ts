import { describe, expect, it } from 'vitest';
import { endpointsResource, type Endpoints } from './endpoints.resource';
import { cells, create, messages, meta } from './strategy.testing';

const ep = (subsets: Endpoints['subsets']): Endpoints => ({ metadata: meta('web', 'default'), subsets });

describe('endpoints', () => {
  it('is namespaced with the ep short name and an EndpointsList', () => {
    expect(endpointsResource).toMatchObject({ kind: 'Endpoints', listKind: 'EndpointsList', plural: 'endpoints', shortNames: ['ep'] });
  });

  it('defaults port protocols to TCP and accepts valid subsets', () => {
    const obj = ep([{ addresses: [{ ip: '10.0.0.1', hostname: 'web-0' }], ports: [{ name: 'http', port: 80 }] }]);
    expect(create(endpointsResource, obj)).toEqual([]);
    expect(obj.subsets?.[0].ports?.[0].protocol).toBe('TCP');
  });

  it('rejects empty subsets, bad addresses and bad ports', () => {
    const obj = ep([
      {},
      { addresses: [{ ip: 'nope' }, { ip: '127.0.0.1' }], ports: [{ port: 0, protocol: 'HTTP' }, { name: 'Bad_Name', port: 8080 }] },
    ]);
    expect(messages(create(endpointsResource, obj))).toEqual([
      'subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`',
      'subsets[1].addresses[0].ip: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'subsets[1].addresses[1].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'subsets[1].ports[0].name: Required value',
      'subsets[1].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'subsets[1].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      expect.stringMatching(/^subsets\[1\]\.ports\[1\]\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 label/),
    ]);
  });

  it('prints up to three endpoints, then how many more', () => {
    const addresses = ['10.0.0.1', '10.0.0.2'].map((ip) => ({ ip }));
    expect(cells(endpointsResource, ep([{ addresses, ports: [{ port: 80 }] }]))).toEqual({ Endpoints: '10.0.0.1:80,10.0.0.2:80' });
    expect(cells(endpointsResource, ep([{ addresses, ports: [{ port: 80 }, { port: 443 }] }]))).toEqual({ Endpoints: '10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 1 more...' });
    expect(cells(endpointsResource, ep([{ addresses: [{ ip: '2001:db8::1' }], ports: [{ port: 53 }] }]))).toEqual({ Endpoints: '[2001:db8::1]:53' });
    expect(cells(endpointsResource, ep([{ addresses }]))).toEqual({ Endpoints: '10.0.0.1,10.0.0.2' });
    expect(cells(endpointsResource, ep(undefined))).toEqual({ Endpoints: '<none>' });
  });
});
