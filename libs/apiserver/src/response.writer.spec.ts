import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { prettyPrint, warningHeaders, writeJsonText, writeObject } from './response.writer';

/** A header value as the client reads it: the bytes on the wire, decoded as UTF-8. */
const onTheWire = (values: string[]): string[] => values.map((v) => Buffer.from(v, 'latin1').toString('utf8'));

describe('warningHeaders (kube\'s warning recorder and net.NewWarningHeader)', () => {
  it('quotes each text once, escaping " and \\', () => {
    expect(warningHeaders(['a', 'unknown field "x\\y"', 'a'])).toEqual(['299 - "a"', '299 - "unknown field \\"x\\\\y\\""']);
  });

  it('sends user text beyond Latin-1 as UTF-8 bytes, and a lone surrogate as U+FFFD (as Go decoded it)', () => {
    const values = warningHeaders(['unknown field "名前"', 'unknown field "x\ud800"', 'emoji 😀']);
    // Every value is a valid Node header string (no character above U+00FF).
    for (const v of values) expect(v).toMatch(/^[\t\x20-\x7e\x80-\xff]*$/);
    expect(onTheWire(values)).toEqual(['299 - "unknown field \\"名前\\""', '299 - "unknown field \\"x\ufffd\\""', '299 - "emoji 😀"']);
  });

  it('drops a text holding control characters (C0, DEL, C1), as kube refuses to make such a header', () => {
    expect(warningHeaders(['a\u0000b', 'tab\there', 'del\u007f', 'c1\u0085', 'fine', ''])).toEqual(['299 - "fine"']);
  });

  it('cuts every text to 256 characters once they total more than 4096', () => {
    const long = 'x'.repeat(3000);
    expect(warningHeaders([long])).toEqual([`299 - "${long}"`]);
    const cut = warningHeaders([long, `${long}y`]);
    expect(cut).toEqual([`299 - "${'x'.repeat(256)}"`, `299 - "${'x'.repeat(256)}"`]);
  });
});

describe("pretty JSON (kube's isPrettyPrint)", () => {
  const req = (url: string, headers: IncomingHttpHeaders = {}): { url: string; headers: IncomingHttpHeaders } => ({ url, headers });

  it('is asked for by ?pretty=<Go bool>, which decides over the User-Agent, by Accept pretty=1, or by curl, Wget and browsers', () => {
    expect(prettyPrint(req('/api/v1/pods?pretty=true'))).toBe(true);
    expect(prettyPrint(req('/api/v1/pods?pretty=1'))).toBe(true);
    expect(prettyPrint(req('/api/v1/pods?pretty=false', { 'user-agent': 'curl/8.5.0' }))).toBe(false);
    expect(prettyPrint(req('/api/v1/pods?pretty=yes'))).toBe(false);
    expect(prettyPrint(req('/api/v1/pods?pretty=', { 'user-agent': 'curl/8.5.0' }))).toBe(true);
    expect(prettyPrint(req('/api/v1/pods', { accept: 'application/json;pretty=1' }))).toBe(true);
    for (const ua of ['curl/8.5.0', 'Wget/1.21', 'Mozilla/5.0 (X11; Linux x86_64)']) expect(prettyPrint(req('/api/v1/pods', { 'user-agent': ua })), ua).toBe(true);
    for (const ua of ['kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0', 'python-requests/2.31', undefined]) expect(prettyPrint(req('/api/v1/pods', { 'user-agent': ua })), ua).toBe(false);
  });

  it('indents as json.MarshalIndent does for such a client, objects and pre-serialized text alike', async () => {
    const server = createServer((r, res) => (r.url?.startsWith('/text') ? writeJsonText(res, 200, '{"kind":"List","items":[]}') : writeObject(res, 201, { status: { allowed: true }, metadata: {} })));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const get = (path: string, headers: Record<string, string>): Promise<string> =>
      new Promise((resolve, reject) => {
        const r = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path, headers }, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve(body));
        });
        r.on('error', reject);
        r.end();
      });
    try {
      expect(await get('/', { 'User-Agent': 'curl/8.5.0' })).toBe('{\n  "status": {\n    "allowed": true\n  },\n  "metadata": {}\n}');
      expect(await get('/text', { 'User-Agent': 'curl/8.5.0' })).toBe('{\n  "kind": "List",\n  "items": []\n}');
      expect(await get('/', { 'User-Agent': 'kubectl/v1.33.1' })).toBe('{"status":{"allowed":true},"metadata":{}}');
    } finally {
      server.close();
    }
  });
});
