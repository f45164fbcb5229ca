import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';

/**
 * The baseline for GET: a raw node:https server with the same TLS setup (serving cert, client certs
 * requested and verified) answering one fixed JSON document. Run as a child process by bench/run.ts.
 */
const [certFile, keyFile, caFile, bodyFile] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile), ca: readFileSync(caFile), requestCert: true, rejectUnauthorized: false }, (_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`${typeof addr === 'object' && addr ? addr.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
