import { describe, expect, it } from 'vitest';
import { IPv4Range, ipToNumber, isIPv4, numberToIp } from './ip-range';

describe('IPv4Range', () => {
  it('covers the usable addresses of a CIDR', () => {
    const r = new IPv4Range('10.96.0.0/12');
    expect(r.at(0)).toBe('10.96.0.1');
    expect(r.contains('10.96.0.1')).toBe(true);
    expect(r.contains('10.111.255.254')).toBe(true);
    expect(r.contains('10.111.255.255')).toBe(false);
    expect(r.contains('10.112.0.1')).toBe(false);
    expect(r.last - r.first + 1).toBe(2 ** 20 - 2);
  });

  it('parses and prints addresses', () => {
    expect(numberToIp(ipToNumber('192.168.1.20'))).toBe('192.168.1.20');
    expect(isIPv4('1.2.3')).toBe(false);
    expect(isIPv4('01.2.3.4')).toBe(false);
    expect(() => new IPv4Range('nope')).toThrow();
  });
});
