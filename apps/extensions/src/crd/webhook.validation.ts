/**
 * Conversion webhook client config checks with kube's messages (k8s.io/apiserver pkg/util/webhook/validation.go,
 * client-go transport for the CA bundle). URLs are split the way Go's net/url.Parse does, since WHATWG URL
 * parsing accepts and rejects different strings.
 */
import { X509Certificate } from 'node:crypto';
import { FieldError, isDNS1123Subdomain } from '@kube/apimachinery';

const DESIRED_URL_FORMAT = '; desired format: https://host[/path]';

/** The parts of a URL the webhook rules look at, as Go's url.Parse splits them. */
interface GoURL {
  scheme: string;
  host: string;
  user?: string;
  fragment: string;
  rawQuery: string;
}

/** Go's getScheme: `scheme:` when the prefix is a valid scheme, none otherwise; a leading ':' is an error. */
function splitScheme(raw: string): { scheme: string; rest: string } | string {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) return { scheme: '', rest: raw };
      continue;
    }
    if (c === ':') return i === 0 ? 'missing protocol scheme' : { scheme: raw.slice(0, i).toLowerCase(), rest: raw.slice(i + 1) };
    return { scheme: '', rest: raw };
  }
  return { scheme: '', rest: raw };
}

/** The subset of net/url.Parse the webhook checks need; returns Go's error text on failure. */
export function parseGoURL(raw: string): GoURL | string {
  const fail = (msg: string): string => `parse ${JSON.stringify(raw)}: ${msg}`;
  const hash = raw.indexOf('#');
  const fragment = hash >= 0 ? raw.slice(hash + 1) : '';
  const withoutFragment = hash >= 0 ? raw.slice(0, hash) : raw;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(withoutFragment)) return fail('net/url: invalid control character in URL');
  const split = splitScheme(withoutFragment);
  if (typeof split === 'string') return fail(split);
  const question = split.rest.indexOf('?');
  const rawQuery = question >= 0 ? split.rest.slice(question + 1) : '';
  const rest = question >= 0 ? split.rest.slice(0, question) : split.rest;
  if (!rest.startsWith('//')) return { scheme: split.scheme, host: '', fragment, rawQuery };
  const authorityEnd = rest.indexOf('/', 2);
  const authority = authorityEnd >= 0 ? rest.slice(2, authorityEnd) : rest.slice(2);
  const at = authority.lastIndexOf('@');
  const host = at >= 0 ? authority.slice(at + 1) : authority;
  const port = /:([^\]]*)$/.exec(host)?.[1];
  if (port !== undefined && !/^\d*$/.test(port)) return fail(`invalid port ${JSON.stringify(`:${port}`)} after host`);
  return { scheme: split.scheme, host, user: at >= 0 ? authority.slice(0, at) : undefined, fragment, rawQuery };
}

/** ValidateWebhookURL with forceHttps. */
export function validateWebhookURL(path: string, url: string, forceHttps: boolean): FieldError[] {
  const u = parseGoURL(url);
  if (typeof u === 'string') return [FieldError.required(path, `url must be a valid URL: ${u}${DESIRED_URL_FORMAT}`)];
  const errs: FieldError[] = [];
  if (forceHttps && u.scheme !== 'https') errs.push(FieldError.invalid(path, u.scheme, `'https' is the only allowed URL scheme${DESIRED_URL_FORMAT}`));
  if (!u.host) errs.push(FieldError.invalid(path, u.host, `host must be specified${DESIRED_URL_FORMAT}`));
  if (u.user !== undefined) errs.push(FieldError.invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment) errs.push(FieldError.invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery) errs.push(FieldError.invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

export interface WebhookServiceFields {
  namespace?: string;
  name?: string;
  path?: string;
  port?: number;
}

/** ValidateWebhookService: name, namespace, port and a path of DNS-subdomain segments. */
export function validateWebhookService(path: string, service: WebhookServiceFields): FieldError[] {
  const errs: FieldError[] = [];
  if (!service.name) errs.push(FieldError.required(`${path}.name`, 'service name is required'));
  if (!service.namespace) errs.push(FieldError.required(`${path}.namespace`, 'service namespace is required'));
  const port = service.port ?? 0;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    errs.push(FieldError.invalid(`${path}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'));
  }
  if (service.path !== undefined) errs.push(...validateServicePath(`${path}.path`, service.path));
  return errs;
}

function validateServicePath(path: string, urlPath: string): FieldError[] {
  if (urlPath === '/' || urlPath === '') return [];
  if (urlPath === '//') return [FieldError.invalid(path, urlPath, 'segment[0] may not be empty')];
  const errs: FieldError[] = [];
  if (!urlPath.startsWith('/')) errs.push(FieldError.invalid(path, urlPath, "must start with a '/'"));
  const trimmed = urlPath.slice(1).replace(/\/$/, '');
  trimmed.split('/').forEach((step, i) => {
    if (!step) {
      errs.push(FieldError.invalid(path, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step)) errs.push(FieldError.invalid(path, urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}

const PEM_BLOCK = /-----BEGIN ([^-]+)-----\r?\n([\s\S]*?)-----END \1-----/g;

/** Why client-go would refuse these bytes as root CAs (transport.TLSConfigFor), or undefined when usable. */
export function caBundleError(pem: string): string | undefined {
  const blocks = [...pem.matchAll(PEM_BLOCK)];
  const certs = blocks.filter((b) => b[1] === 'CERTIFICATE' && !/^[\w-]+:/m.test(b[2]));
  const parses = (block: RegExpMatchArray): boolean => {
    try {
      new X509Certificate(block[0]);
      return true;
    } catch {
      return false;
    }
  };
  if (certs.some(parses)) return undefined;
  const reason = blocks.length === 0 ? 'unable to parse bytes as PEM block' : certs.length > 0 ? 'failed to parse certificate: x509: malformed certificate' : 'no valid certificate authority data seen';
  return `unable to load root certificates: ${reason}`;
}

/** ValidateCABundle: the base64 caBundle must hold at least one parseable PEM certificate. */
export function validateCABundle(path: string, caBundle: string): FieldError[] {
  const reason = caBundleError(Buffer.from(caBundle, 'base64').toString('latin1'));
  return reason ? [FieldError.invalid(path, caBundle, reason)] : [];
}
