import { describe, expect, it } from 'vitest';
import {
  base64ErrorOffset,
  isConfigMapKey,
  isValidPortName,
  semanticEqual,
  validateCIDR,
  validateIP,
  validateNonSpecialIP,
  validateStricterName,
} from './validation.helpers';
import { isDNS1035Label } from '@kube/apimachinery';
import { messages } from './strategy.testing';

describe('isConfigMapKey', () => {
  it('accepts config keys and rejects others with kube\'s message', () => {
    expect(isConfigMapKey('app.properties')).toEqual([]);
    expect(isConfigMapKey('KEY_NAME-1')).toEqual([]);
    expect(isConfigMapKey('a b')).toEqual([
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    ]);
  });

  it('rejects dot names and over-long keys', () => {
    expect(isConfigMapKey('.')).toEqual(["must not be '.'"]);
    expect(isConfigMapKey('..')).toEqual(["must not be '..'"]);
    expect(isConfigMapKey('..x')).toEqual(["must not start with '..'"]);
    expect(isConfigMapKey('k'.repeat(254))).toEqual(['must be no more than 253 characters']);
  });
});

describe('isValidPortName', () => {
  it('follows IANA service name rules', () => {
    expect(isValidPortName('http')).toEqual([]);
    expect(isValidPortName('80')).toEqual(['must contain at least one letter (a-z)']);
    expect(isValidPortName('-a--b-')).toEqual(['must not contain consecutive hyphens', 'must not begin or end with a hyphen']);
    expect(isValidPortName('a-very-long-port-name')).toEqual(['must be no more than 15 characters']);
  });
});

describe('base64ErrorOffset', () => {
  it('returns -1 for valid input, newlines included', () => {
    expect(base64ErrorOffset('aGVsbG8=')).toBe(-1);
    expect(base64ErrorOffset('aGVs\nbG8=')).toBe(-1);
    expect(base64ErrorOffset('')).toBe(-1);
  });

  it('reports the corrupt byte as Go does', () => {
    expect(base64ErrorOffset('abc')).toBe(0);
    expect(base64ErrorOffset('abcde')).toBe(4);
    expect(base64ErrorOffset('ab!d')).toBe(2);
    expect(base64ErrorOffset('ab=')).toBe(3);
    expect(base64ErrorOffset('aGVsbG8=x')).toBe(8);
  });
});

describe('IP validation', () => {
  it('accepts IPv4 and IPv6, rejects the rest with kube\'s messages', () => {
    expect(validateIP('ip', '10.0.0.1')).toEqual([]);
    expect(validateIP('ip', '2001:db8::1')).toEqual([]);
    expect(messages(validateIP('ip', '10.0.0'))).toEqual(['ip: Invalid value: "10.0.0": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']);
    expect(messages(validateIP('ip', '010.0.0.1'))).toEqual(['ip: Invalid value: "010.0.0.1": must not have leading 0s']);
    expect(messages(validateIP('ip', '::ffff:1.2.3.4'))).toEqual(['ip: Invalid value: "::ffff:1.2.3.4": must not be an IPv4-mapped IPv6 address']);
  });

  it('rejects special addresses where endpoints need real ones', () => {
    expect(validateNonSpecialIP('10.1.2.3', 'ip')).toEqual([]);
    expect(messages(validateNonSpecialIP('127.0.0.1', 'ip'))).toEqual(['ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)']);
    expect(messages(validateNonSpecialIP('0.0.0.0', 'ip'))).toEqual(['ip: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)']);
    expect(messages(validateNonSpecialIP('fe80::1', 'ip'))).toEqual(['ip: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)']);
  });

  it('checks CIDR syntax', () => {
    expect(validateCIDR('r', '10.0.0.0/8')).toEqual([]);
    expect(messages(validateCIDR('r', '10.0.0.0/33'))).toEqual(['r: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)']);
  });
});

describe('semanticEqual', () => {
  it('treats absent, null and empty values alike', () => {
    expect(semanticEqual({ a: [], b: null }, {})).toBe(true);
    expect(semanticEqual({ a: [1] }, { a: [1], b: '' })).toBe(true);
    expect(semanticEqual({ a: [1] }, { a: [2] })).toBe(false);
  });
});

describe('validateStricterName', () => {
  it('reports only names the generic subdomain check let through', () => {
    expect(messages(validateStricterName('1abc', isDNS1035Label))).toHaveLength(1);
    expect(validateStricterName('UPPER', isDNS1035Label)).toEqual([]);
    expect(validateStricterName('web', isDNS1035Label)).toEqual([]);
  });
});
