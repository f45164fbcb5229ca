/**
 * `node dist/scripts/healthcheck.js [--ca FILE | --insecure-skip-tls-verify] [--cert FILE --key FILE] [--timeout-ms N] URL`
 *
 * A container health probe for images without curl: GET URL (https, or http) and exit 0 on a 2xx answer,
 * 1 otherwise, printing the status and body (e.g. the failed checks of /readyz?verbose) to stderr.
 *
 * /healthz, /livez and /readyz answer anonymous callers (as kube's system:public-info-viewer allows), so the
 * client certificate is optional; pass one to probe an authenticated path. The server certificate is verified,
 * against --ca (or the system CAs without it), unless --insecure-skip-tls-verify says otherwise, as kubectl's.
 */
import { readFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { get as httpsGet, type RequestOptions } from 'node:https';
import { parseArgs } from 'node:util';

const USAGE = 'usage: healthcheck [--ca FILE | --insecure-skip-tls-verify] [--cert FILE --key FILE] [--timeout-ms N] URL';

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      ca: { type: 'string' },
      cert: { type: 'string' },
      key: { type: 'string' },
      'timeout-ms': { type: 'string', default: '3000' },
      'insecure-skip-tls-verify': { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1 || Boolean(values.cert) !== Boolean(values.key) || (values.ca && values['insecure-skip-tls-verify'])) fail(USAGE);
  const url = new URL(positionals[0]);
  const timeout = Number(values['timeout-ms']);
  const read = (path: string | undefined): string | undefined => (path ? readFileSync(path, 'utf8') : undefined);
  const tls: RequestOptions = {
    ca: read(values.ca),
    cert: read(values.cert),
    key: read(values.key),
    rejectUnauthorized: !values['insecure-skip-tls-verify'],
  };
  const get = url.protocol === 'http:' ? httpGet : httpsGet;
  const req = get(url, { ...(url.protocol === 'https:' ? tls : {}), agent: false, timeout }, (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) process.exit(0);
      fail(`GET ${url.href}: ${status}\n${Buffer.concat(chunks).toString('utf8').slice(0, 4000)}`);
    });
  });
  req.on('timeout', () => req.destroy(new Error(`no answer within ${timeout} ms`)));
  req.on('error', (err) => fail(`GET ${url.href}: ${err.message}`));
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

main();
