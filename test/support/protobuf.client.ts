/**
 * A client speaking what client-go's protobuf clients speak (no Go here: raw HTTPS with its headers), decoding
 * answers with the codec checked byte for byte against kube's testdata vectors.
 */
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { decodeKubeProtobuf, decodeWatchEventFrames, type JsonObject } from '@kube/apimachinery';
import type { PkiPaths } from '@kube/pki';

/** client-go's Accept for a protobuf client (rest.Config ContentType protobuf, AcceptContentTypes default). */
export const CLIENT_GO_ACCEPT = 'application/vnd.kubernetes.protobuf,application/json';

export interface RawResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The decoded protobuf object, or the JSON one: whatever the Content-Type says. */
  object(): JsonObject;
}

export function protobufClient(url: string, pki: PkiPaths): { request(method: string, path: string, o?: { body?: Buffer | string; headers?: Record<string, string> }): Promise<RawResult> } {
  const { port } = new URL(url);
  const ca = readFileSync(pki.caCert);
  const cert = readFileSync(pki.adminCert);
  const key = readFileSync(pki.adminKey);
  return {
    request: (method, path, o = {}) =>
      new Promise<RawResult>((resolve, reject) => {
        const headers: Record<string, string> = { Accept: CLIENT_GO_ACCEPT, ...(o.body !== undefined ? { 'Content-Length': String(Buffer.byteLength(o.body)) } : {}), ...o.headers };
        const req = httpsRequest({ host: '127.0.0.1', port, method, path, ca, cert, key, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const body = Buffer.concat(chunks);
            const type = String(res.headers['content-type'] ?? '');
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body,
              object: () => (type.startsWith('application/vnd.kubernetes.protobuf') ? decodeKubeProtobuf(body).object : (JSON.parse(body.toString('utf8')) as JsonObject)),
            });
          });
        });
        req.on('error', reject);
        if (o.body !== undefined) req.write(o.body);
        req.end();
      }),
  };
}

/** The events of a protobuf watch (timeoutSeconds in the path ends it), with the response's Content-Type. */
export async function protobufWatch(client: ReturnType<typeof protobufClient>, path: string): Promise<{ contentType: string; events: Array<{ type: string; object: JsonObject }> }> {
  const r = await client.request('GET', path);
  if (r.status !== 200) throw new Error(`watch ${path}: ${r.status} ${r.body.toString('utf8')}`);
  return { contentType: String(r.headers['content-type']), events: decodeWatchEventFrames(r.body) };
}
