/**
 * Validation of registration messages. Every message received is checked here before it can change any state:
 * NATS is open to every service on the bus, so a malformed or hostile message must not reach the routing table.
 * Unknown fields are dropped (v1 may gain optional fields, see docs/registration.md); an unknown apiVersion is
 * "ignored", not "invalid", so a newer sender on the same subject is tolerated quietly.
 */
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain } from '@kube/apimachinery';
import {
  type AnnouncedGroupVersion,
  type Announcement,
  REGISTRATION_API_VERSION,
  REGISTRATION_SOURCES,
  type RegistrationGroupVersionRef,
  type RegistrationSource,
  type ResyncRequest,
  type Withdrawal,
} from './registration.types';

/** Larger messages are refused on both sides (NATS max_payload is 1 MiB; registration must stay small). */
export const MAX_MESSAGE_BYTES = 256 * 1024;
/** Upper bound of group/versions in one message. */
export const MAX_GROUP_VERSIONS = 1000;
export const MIN_TTL_SECONDS = 1;
export const MAX_TTL_SECONDS = 3600;

export type DecodeResult<T> =
  | { readonly kind: 'valid'; readonly message: T }
  /** A message of another contract version: skipped without complaint. */
  | { readonly kind: 'ignored'; readonly reason: string }
  | { readonly kind: 'invalid'; readonly reason: string };

/** Thrown inside the parsers only; turned into an 'invalid' result at the boundary. */
class SchemaViolation extends Error {}
class UnknownApiVersion extends Error {}

type Json = Record<string, unknown>;

const INSTANCE_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const RFC3339_RE = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function fail(path: string, message: string): never {
  throw new SchemaViolation(`${path}: ${message}`);
}

function object(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'must be an object');
  return value as Json;
}

function string(obj: Json, key: string, path: string, check?: (s: string) => string[]): string {
  const value = obj[key];
  if (typeof value !== 'string') fail(`${path}.${key}`, 'must be a string');
  const errors = check?.(value) ?? [];
  if (errors.length > 0) fail(`${path}.${key}`, `invalid value ${JSON.stringify(value)}: ${errors.join('; ')}`);
  return value;
}

function integer(obj: Json, key: string, path: string, min: number, max: number): number {
  const value = obj[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    fail(`${path}.${key}`, `must be an integer in ${min}..${max}`);
  }
  return value;
}

function array(obj: Json, key: string, path: string, maxItems: number): unknown[] {
  const value = obj[key];
  if (!Array.isArray(value)) fail(`${path}.${key}`, 'must be an array');
  if (value.length > maxItems) fail(`${path}.${key}`, `must have at most ${maxItems} items`);
  return value;
}

const checkGroup = (group: string): string[] => (group === '' ? [] : isDNS1123Subdomain(group));
const checkInstance = (s: string): string[] => (INSTANCE_RE.test(s) ? [] : ['must be 1-128 of [A-Za-z0-9._-] starting alphanumeric']);
const checkSource = (s: string): string[] => (REGISTRATION_SOURCES.includes(s as RegistrationSource) ? [] : [`must be one of ${REGISTRATION_SOURCES.join(', ')}`]);

function checkTimestamp(s: string): string[] {
  return RFC3339_RE.test(s) && !Number.isNaN(Date.parse(s)) ? [] : ['must be an RFC 3339 timestamp'];
}

function checkEndpoint(s: string): string[] {
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return ['must be an absolute URL'];
  }
  if (url.protocol !== 'https:') return ['must use https'];
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') return ['must be scheme://host[:port] only'];
  return [];
}

/** caBundle is base64 of PEM text (as APIService.spec.caBundle in JSON); an empty or non-PEM bundle is refused. */
function checkCaBundle(s: string): string[] {
  if (s === '' || !BASE64_RE.test(s)) return ['must be non-empty base64'];
  return Buffer.from(s, 'base64').toString('utf8').includes('-----BEGIN CERTIFICATE-----') ? [] : ['must be base64 of a PEM certificate bundle'];
}

/** Checks apiVersion first: an unknown version says nothing about the rest of the shape. */
function header(value: unknown): Json {
  const obj = object(value, '$');
  const apiVersion = string(obj, 'apiVersion', '$');
  if (apiVersion !== REGISTRATION_API_VERSION) throw new UnknownApiVersion(`unknown apiVersion ${JSON.stringify(apiVersion)}`);
  return obj;
}

function groupVersionRef(value: unknown, path: string): RegistrationGroupVersionRef {
  const obj = object(value, path);
  return { group: string(obj, 'group', path, checkGroup), version: string(obj, 'version', path, isDNS1035Label) };
}

function announcedGroupVersion(value: unknown, path: string): AnnouncedGroupVersion {
  const obj = object(value, path);
  return {
    ...groupVersionRef(obj, path),
    groupPriorityMinimum: integer(obj, 'groupPriorityMinimum', path, 1, 20000),
    versionPriority: integer(obj, 'versionPriority', path, 1, 1000),
  };
}

function groupVersionList<T extends RegistrationGroupVersionRef>(obj: Json, path: string, item: (v: unknown, p: string) => T): T[] {
  const items = array(obj, 'groupVersions', path, MAX_GROUP_VERSIONS).map((v, i) => item(v, `${path}.groupVersions[${i}]`));
  const seen = new Set<string>();
  for (const gv of items) {
    const key = `${gv.group}/${gv.version}`;
    if (seen.has(key)) fail(`${path}.groupVersions`, `duplicate group/version ${key}`);
    seen.add(key);
  }
  return items;
}

function parseAnnouncementFields(value: unknown): Announcement {
  const obj = header(value);
  return {
    apiVersion: REGISTRATION_API_VERSION,
    service: string(obj, 'service', '$', isDNS1123Label),
    instance: string(obj, 'instance', '$', checkInstance),
    endpoint: string(obj, 'endpoint', '$', checkEndpoint),
    caBundle: string(obj, 'caBundle', '$', checkCaBundle),
    groupVersions: groupVersionList(obj, '$', announcedGroupVersion),
    source: string(obj, 'source', '$', checkSource) as RegistrationSource,
    ttlSeconds: integer(obj, 'ttlSeconds', '$', MIN_TTL_SECONDS, MAX_TTL_SECONDS),
    sentAt: string(obj, 'sentAt', '$', checkTimestamp),
  };
}

function parseWithdrawalFields(value: unknown): Withdrawal {
  const obj = header(value);
  const withdrawal: Withdrawal = {
    apiVersion: REGISTRATION_API_VERSION,
    service: string(obj, 'service', '$', isDNS1123Label),
    instance: string(obj, 'instance', '$', checkInstance),
    source: string(obj, 'source', '$', checkSource) as RegistrationSource,
    sentAt: string(obj, 'sentAt', '$', checkTimestamp),
  };
  return obj.groupVersions === undefined ? withdrawal : { ...withdrawal, groupVersions: groupVersionList(obj, '$', groupVersionRef) };
}

function parseResyncFields(value: unknown): ResyncRequest {
  const obj = header(value);
  return {
    apiVersion: REGISTRATION_API_VERSION,
    requester: string(obj, 'requester', '$', checkInstance),
    sentAt: string(obj, 'sentAt', '$', checkTimestamp),
  };
}

/** Runs a parser and turns its exceptions into a DecodeResult. */
function validate<T>(parse: (value: unknown) => T, value: unknown): DecodeResult<T> {
  try {
    return { kind: 'valid', message: parse(value) };
  } catch (err) {
    if (err instanceof UnknownApiVersion) return { kind: 'ignored', reason: err.message };
    if (err instanceof SchemaViolation) return { kind: 'invalid', reason: err.message };
    throw err;
  }
}

export const validateAnnouncement = (value: unknown): DecodeResult<Announcement> => validate(parseAnnouncementFields, value);
export const validateWithdrawal = (value: unknown): DecodeResult<Withdrawal> => validate(parseWithdrawalFields, value);
export const validateResyncRequest = (value: unknown): DecodeResult<ResyncRequest> => validate(parseResyncFields, value);

/** Decodes a NATS payload (UTF-8 JSON, at most MAX_MESSAGE_BYTES) and validates it. */
export function decodeMessage<T>(data: Uint8Array, validateFn: (value: unknown) => DecodeResult<T>): DecodeResult<T> {
  if (data.byteLength > MAX_MESSAGE_BYTES) return { kind: 'invalid', reason: `message of ${data.byteLength} bytes exceeds ${MAX_MESSAGE_BYTES}` };
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8'));
  } catch (err) {
    return { kind: 'invalid', reason: `not JSON: ${(err as Error).message}` };
  }
  return validateFn(value);
}

/** Encodes a message for NATS, refusing to send what receivers would drop (a bug on the sending side). */
export function encodeMessage<T>(message: T, validateFn: (value: unknown) => DecodeResult<T>): Uint8Array {
  const result = validateFn(message);
  if (result.kind !== 'valid') throw new Error(`refusing to publish an invalid registration message: ${result.reason}`);
  const data = Buffer.from(JSON.stringify(message), 'utf8');
  if (data.byteLength > MAX_MESSAGE_BYTES) throw new Error(`registration message of ${data.byteLength} bytes exceeds ${MAX_MESSAGE_BYTES}`);
  return data;
}
