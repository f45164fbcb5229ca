import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'node:https';
import type { Socket } from 'node:net';
import { pipeline } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import { Errors, StatusError } from '@kube/apimachinery';
import type { UserInfo } from '@kube/apiserver';
import type { BackendAgents, BackendTarget, ProxyClientCertificate } from './backend.target';

/** Hop-by-hop headers (RFC 9110) and credentials that must never be forwarded. */
const DROPPED_REQUEST_HEADERS = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'authorization', 'host']);
const DROPPED_RESPONSE_HEADERS = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/**
 * The headers a backend sees: the client's, minus credentials, impersonation and any client-sent X-Remote-*,
 * plus the authenticated identity (kube's SetAuthProxyHeaders) and X-Forwarded-*.
 */
export function backendHeaders(req: IncomingMessage, user: UserInfo, upgrade = false): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(req.headers as IncomingHttpHeaders)) {
    if (v === undefined || DROPPED_REQUEST_HEADERS.has(k) || k.startsWith('x-remote-') || k.startsWith('impersonate-')) continue;
    out[k] = v;
  }
  if (upgrade) {
    out.connection = 'Upgrade';
    if (req.headers.upgrade) out.upgrade = req.headers.upgrade;
  }
  out['x-remote-user'] = user.name;
  if (user.uid) out['x-remote-uid'] = user.uid;
  if (user.groups.length) out['x-remote-group'] = user.groups;
  for (const [key, values] of Object.entries(user.extra ?? {})) out[`x-remote-extra-${encodeURIComponent(key)}`] = values;
  const remote = req.socket.remoteAddress ?? '';
  const prior = req.headers['x-forwarded-for'];
  out['x-forwarded-for'] = prior ? `${String(prior)}, ${remote}` : remote;
  out['x-forwarded-host'] = req.headers.host ?? '';
  out['x-forwarded-proto'] = 'https';
  out['x-forwarded-uri'] = req.url ?? '/';
  return out;
}

function responseHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !DROPPED_RESPONSE_HEADERS.has(k)) out[k] = v;
  return out;
}

/**
 * Proxies one request to a backend, streaming both bodies with backpressure (a slow client slows the backend
 * read instead of growing the aggregator's memory; watch events pass as they come, with no timeout). A backend
 * redirect is refused (502, CVE-2022-3172); 304 passes. A connection failure rejects with a 503 Status error for
 * the caller to write. When the response is finished or closed by someone else (the request timed out, the
 * client went away) the backend request is cancelled, and a late backend answer is dropped.
 */
export function proxyRequest(req: IncomingMessage, res: ServerResponse, target: BackendTarget, user: UserInfo, agents: BackendAgents): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const upstream = request({
      agent: agents.agentFor(target),
      host: target.url.hostname,
      port: target.url.port || 443,
      servername: target.serverName,
      method: req.method,
      path: req.url,
      headers: backendHeaders(req, user),
    });
    let responded = false;
    let relayed = false;
    const answeredElsewhere = (): boolean => res.headersSent || res.writableEnded || res.destroyed;
    upstream.on('response', (up) => {
      responded = true;
      const status = up.statusCode ?? 502;
      if (answeredElsewhere()) {
        // Too late: a timeout answered already, or the client is gone.
        up.destroy();
        resolve(res.statusCode);
        return;
      }
      if (status >= 300 && status < 400 && status !== 304 && up.headers.location) {
        up.resume();
        reject(new StatusError(502, 'InternalError', 'the backend attempted to redirect this request, which is not permitted'));
        return;
      }
      res.writeHead(status, responseHeaders(up.headers));
      // Streams (watches: no Content-Length) get their headers at once; sized answers send headers and body
      // together, saving a TLS record per request.
      if (up.headers['content-length'] === undefined) res.flushHeaders();
      // Set before pipe ends the response, so our own end never cancels a finished (pooled) exchange.
      up.once('end', () => (relayed = true));
      pipeline(up, res, () => resolve(status));
    });
    upstream.on('error', (err) => {
      if (responded) return;
      if (answeredElsewhere()) {
        resolve(res.statusCode);
        return;
      }
      reject(Errors.serviceUnavailable(`error trying to reach service: ${err.message}`));
    });
    // The response ended without us (timeout, client gone): stop the backend request too (ends watches on both sides).
    res.on('close', () => {
      if (!relayed) upstream.destroy();
    });
    req.pipe(upstream);
  });
}

/**
 * Upgrade requests (exec/attach/port-forward over SPDY or WebSocket): a dedicated TLS connection per request,
 * head forwarded with the identity headers, then bytes piped both ways. A non-101 answer is relayed and both
 * sockets are closed, so a connection that failed to upgrade is never reused (CVE-2018-1002105).
 */
export function proxyUpgrade(req: IncomingMessage, client: Socket, head: Buffer, target: BackendTarget, user: UserInfo, cert: ProxyClientCertificate): void {
  const backend = tlsConnect({
    host: target.url.hostname,
    port: Number(target.url.port || 443),
    servername: target.serverName ?? (target.url.hostname.match(/^[\d.]+$/) ? undefined : target.url.hostname),
    cert: cert.certPem,
    key: cert.keyPem,
    ca: target.caPem,
    rejectUnauthorized: !target.insecureSkipTLSVerify,
  });
  const fail = (): void => {
    client.destroy();
    backend.destroy();
  };
  backend.once('error', () => {
    client.end('HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n' + JSON.stringify(Errors.serviceUnavailable('error trying to reach service').status));
    backend.destroy();
  });
  client.once('error', fail);
  backend.once('secureConnect', () => {
    const headers = backendHeaders(req, user, true);
    const lines = [`${req.method} ${req.url} HTTP/1.1`, `Host: ${target.url.host}`];
    for (const [k, v] of Object.entries(headers)) for (const value of Array.isArray(v) ? v : [v]) lines.push(`${k}: ${value}`);
    backend.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length) backend.write(head);
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      backend.off('data', onData);
      const statusLine = buffered.subarray(0, buffered.indexOf('\r\n')).toString();
      client.write(buffered);
      if (!/^HTTP\/1\.[01] 101/.test(statusLine)) {
        client.end();
        backend.destroy();
        return;
      }
      backend.pipe(client);
      client.pipe(backend);
    };
    backend.on('data', onData);
  });
  client.once('close', () => backend.destroy());
  backend.once('close', () => client.destroy());
}
