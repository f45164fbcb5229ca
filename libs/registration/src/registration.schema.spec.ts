import { describe, expect, it } from 'vitest';
import { decodeMessage, encodeMessage, MAX_MESSAGE_BYTES, validateAnnouncement, validateResyncRequest, validateWithdrawal } from './registration.schema';
import { type Announcement, REGISTRATION_API_VERSION } from './registration.types';

const caBundle = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n').toString('base64');

const announcement: Announcement = {
  apiVersion: REGISTRATION_API_VERSION,
  service: 'core-api',
  instance: '5f0c6f5e-6f43-4c1b-9d51-7a3f1c0f9a11',
  endpoint: 'https://127.0.0.1:6443',
  caBundle,
  groupVersions: [
    { group: '', version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 },
    { group: 'coordination.k8s.io', version: 'v1', groupPriorityMinimum: 16500, versionPriority: 15 },
  ],
  source: 'onstart',
  ttlSeconds: 15,
  sentAt: '2025-01-02T03:04:05.678Z',
};

const reasonOf = (value: unknown): string => {
  const result = validateAnnouncement(value);
  return result.kind === 'valid' ? 'valid' : `${result.kind}: ${result.reason}`;
};

describe('validateAnnouncement', () => {
  it('accepts the documented example and drops unknown fields', () => {
    const result = validateAnnouncement({ ...announcement, futureField: true });
    expect(result).toEqual({ kind: 'valid', message: announcement });
  });

  it('ignores another apiVersion instead of calling it invalid', () => {
    expect(reasonOf({ apiVersion: 'registration.kube-ts.io/v2', anything: 1 })).toMatch(/^ignored: unknown apiVersion/);
  });

  it.each([
    ['missing service', { service: undefined }, /\$\.service: must be a string/],
    ['bad service name', { service: 'Core_API' }, /\$\.service: invalid value/],
    ['http endpoint', { endpoint: 'http://127.0.0.1:6443' }, /must use https/],
    ['endpoint with a path', { endpoint: 'https://127.0.0.1:6443/api' }, /scheme:\/\/host/],
    ['caBundle not base64', { caBundle: 'not base64!' }, /caBundle.*base64/],
    ['caBundle not PEM', { caBundle: Buffer.from('hello').toString('base64') }, /PEM/],
    ['unknown source', { source: 'manual' }, /source.*onstart, crd/],
    ['ttl zero', { ttlSeconds: 0 }, /ttlSeconds: must be an integer in 1\.\.3600/],
    ['sentAt not RFC 3339', { sentAt: 'yesterday' }, /sentAt.*RFC 3339/],
    ['groupVersions not an array', { groupVersions: {} }, /groupVersions: must be an array/],
    ['priority out of range', { groupVersions: [{ group: 'a.io', version: 'v1', groupPriorityMinimum: 0, versionPriority: 1 }] }, /groupPriorityMinimum: must be an integer in 1\.\.20000/],
    ['bad version', { groupVersions: [{ group: 'a.io', version: 'V1', groupPriorityMinimum: 1, versionPriority: 1 }] }, /groupVersions\[0\]\.version/],
    ['duplicate group/version', { groupVersions: [announcement.groupVersions[0], announcement.groupVersions[0]] }, /duplicate group\/version \/v1/],
  ])('refuses %s', (_name, patch, reason) => {
    expect(reasonOf({ ...announcement, ...patch })).toMatch(reason);
  });

  it('refuses what is not an object', () => {
    expect(reasonOf([announcement])).toBe('invalid: $: must be an object');
  });
});

describe('validateWithdrawal and validateResyncRequest', () => {
  const base = { apiVersion: REGISTRATION_API_VERSION, service: 'core-api', instance: 'i-1', source: 'crd', sentAt: '2025-01-02T03:04:05Z' };

  it('accepts a withdrawal of everything (no groupVersions) and of some', () => {
    expect(validateWithdrawal(base).kind).toBe('valid');
    const some = validateWithdrawal({ ...base, groupVersions: [{ group: 'stable.example.com', version: 'v1' }] });
    expect(some.kind === 'valid' && some.message.groupVersions).toEqual([{ group: 'stable.example.com', version: 'v1' }]);
  });

  it('refuses a withdrawal without source', () => {
    expect(validateWithdrawal({ ...base, source: undefined }).kind).toBe('invalid');
  });

  it('checks resync requests', () => {
    expect(validateResyncRequest({ apiVersion: REGISTRATION_API_VERSION, requester: 'aggregator-1', sentAt: '2025-01-02T03:04:05+01:00' }).kind).toBe('valid');
    expect(validateResyncRequest({ apiVersion: REGISTRATION_API_VERSION, requester: '', sentAt: '2025-01-02T03:04:05Z' }).kind).toBe('invalid');
  });
});

describe('decodeMessage / encodeMessage', () => {
  it('round-trips a message', () => {
    expect(decodeMessage(encodeMessage(announcement, validateAnnouncement), validateAnnouncement)).toEqual({ kind: 'valid', message: announcement });
  });

  it('refuses non-JSON and oversized payloads', () => {
    expect(decodeMessage(Buffer.from('{nope'), validateAnnouncement).kind).toBe('invalid');
    expect(decodeMessage(new Uint8Array(MAX_MESSAGE_BYTES + 1), validateAnnouncement)).toMatchObject({ kind: 'invalid', reason: /exceeds/ });
  });

  it('refuses to encode an invalid message', () => {
    expect(() => encodeMessage({ ...announcement, ttlSeconds: -1 }, validateAnnouncement)).toThrow(/refusing to publish/);
  });
});
