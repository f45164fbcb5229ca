import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { runKubectl, tempDir } from '@kube/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ensurePki, type PkiPaths } from './pki.bootstrap';
import { writeKubeconfig } from './kubeconfig.writer';

const VERSION = { major: '1', minor: '33', gitVersion: 'v1.33.0-kube-ts' };

describe('writeKubeconfig', () => {
  const dir = tempDir('kubeconfig-spec');
  const kubeconfig = join(dir, 'nested', 'kubeconfig');
  let paths: PkiPaths;
  let server: Server;

  beforeAll(async () => {
    paths = await ensurePki(join(dir, 'pki'));
    const read = (path: string): Promise<string> => readFile(path, 'utf8');
    server = createServer(
      { cert: await read(paths.apiserverCert), key: await read(paths.apiserverKey), ca: await read(paths.caCert), requestCert: true },
      (req, res) => {
        const user = (req.socket as TLSSocket).getPeerCertificate().subject?.CN;
        res.writeHead(user === 'kubernetes-admin' && req.url === '/version' ? 200 : 403, { 'content-type': 'application/json' });
        res.end(JSON.stringify(VERSION));
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await writeKubeconfig(kubeconfig, {
      server: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
      caPem: await read(paths.caCert),
      clientCertPem: await read(paths.adminCert),
      clientKeyPem: await read(paths.adminKey),
    });
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('writes a standard kubeconfig readable only by the owner', async () => {
    expect((await stat(kubeconfig)).mode & 0o777).toBe(0o600);
    const config = parse(await readFile(kubeconfig, 'utf8'));
    expect(config['current-context']).toBe('kubernetes-admin@kubernetes');
    expect(Buffer.from(config.clusters[0].cluster['certificate-authority-data'], 'base64').toString()).toBe(
      await readFile(paths.caCert, 'utf8'),
    );
  });

  it('lets the real kubectl reach a server over mutual TLS', async () => {
    const result = await runKubectl(['get', '--raw', '/version'], { kubeconfig, timeoutMs: 20_000 });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(VERSION);
    expect(result.code).toBe(0);
  });
});
