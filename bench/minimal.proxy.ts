import { readFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:https';

/**
 * The ceiling for any Node proxy on this machine: a minimal HTTPS reverse proxy (the same TLS on both hops and
 * a keep-alive pool, but no authentication, routing, identity headers or limits) in front of the same backend.
 * Run as a child process by bench/run.ts; prints its port.
 */
const [certFile, keyFile, caFile, backendPort, clientCertFile, clientKeyFile] = process.argv.slice(2);
const agent = new Agent({ keepAlive: true, maxSockets: 64, ca: readFileSync(caFile), cert: readFileSync(clientCertFile), key: readFileSync(clientKeyFile) });
const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile), ca: readFileSync(caFile), requestCert: true, rejectUnauthorized: false }, (req, res) => {
  const upstream = request({ agent, host: '127.0.0.1', port: Number(backendPort), method: req.method, path: req.url, headers: { accept: req.headers.accept ?? '*/*' } }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
  upstream.on('error', () => res.writeHead(502).end());
  req.pipe(upstream);
});
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`${typeof addr === 'object' && addr ? addr.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
