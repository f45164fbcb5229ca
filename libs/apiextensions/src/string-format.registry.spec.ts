import { describe, expect, it } from 'vitest';
import { effectiveFormat, isCIDR, isDate, isDateTime, isDuration, isEmail, isHostname, isRequestURI, parseIP, validatesFormat } from './string-format.registry';

describe('string formats', () => {
  it('date and date-time follow RFC 3339 full-date and strfmt.IsDateTime', () => {
    expect(isDate('2024-02-29')).toBe(true);
    expect(isDate('2023-02-29')).toBe(false);
    expect(isDate('2024-2-01')).toBe(false);
    expect(isDateTime('2024-01-02T03:04:05Z')).toBe(true);
    expect(isDateTime('2024-01-02t03:04:05.123+02:00')).toBe(true);
    expect(isDateTime('2024-01-02T24:00:00Z')).toBe(false);
    expect(isDateTime('2024-01-02 03:04:05Z')).toBe(false);
  });

  it('duration accepts Go durations and strfmt "<n> <unit>" forms', () => {
    expect(isDuration('1h30m')).toBe(true);
    expect(isDuration('-1.5s')).toBe(true);
    expect(isDuration('3 days')).toBe(true);
    expect(isDuration('forever')).toBe(false);
  });

  it('IPs, CIDRs and hostnames', () => {
    expect(parseIP('10.0.0.1')).toBe(true);
    expect(parseIP('010.0.0.1')).toBe(false);
    expect(parseIP('010.0.0.1', true)).toBe(true);
    expect(parseIP('::ffff:10.0.0.1')).toBe(true);
    expect(parseIP('fe80::1::2')).toBe(false);
    expect(isCIDR('10.0.0.0/8')).toBe(true);
    expect(isCIDR('2001:db8::/129')).toBe(false);
    expect(isHostname('example.com')).toBe(true);
    expect(isHostname('-example.com')).toBe(false);
    expect(validatesFormat('ipv4', '::1')).toBe(false);
    expect(validatesFormat('ipv6', '::1')).toBe(true);
  });

  it('uri is an absolute URI or an absolute path; email needs local@domain', () => {
    expect(isRequestURI('https://example.com:8443/x?y=1')).toBe(true);
    expect(isRequestURI('/healthz')).toBe(true);
    expect(isRequestURI('relative/path')).toBe(false);
    expect(isRequestURI('http://host:port/')).toBe(false);
    expect(isEmail('Jane <jane@example.com>')).toBe(true);
    expect(isEmail('jane.example.com')).toBe(false);
  });

  it('byte, uuid, k8s names', () => {
    expect(validatesFormat('byte', 'aGVsbG8=')).toBe(true);
    expect(validatesFormat('byte', 'hello!')).toBe(false);
    expect(validatesFormat('uuid', '123E4567-E89B-12D3-A456-426614174000')).toBe(true);
    expect(validatesFormat('k8s-short-name', 'my-name')).toBe(true);
    expect(validatesFormat('k8s-short-name', 'My-Name')).toBe(false);
  });

  it('keeps only the formats kube enforces for the type', () => {
    expect(effectiveFormat('string', 'date-time')).toBe('date-time');
    expect(effectiveFormat('string', 'int32')).toBe('');
    expect(effectiveFormat('integer', 'int32')).toBe('int32');
    expect(effectiveFormat('integer', 'uint8')).toBe('');
    expect(effectiveFormat('number', 'double')).toBe('double');
    expect(effectiveFormat('boolean', 'byte')).toBe('');
    expect(effectiveFormat('integer', 'uuid', true)).toBe('uuid');
  });
});
