/** Test support for the proxy specs: HTTPS backends on loopback with certificates from a throw-away CA. */
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createCertificateAuthority, issueCertificate, type IssuedCertificate } from '@kube/pki';
import { BackendAgents, type BackendTarget } from './backend.target';

export class TestBackends {
  private readonly servers: Server[] = [];
  readonly agents: BackendAgents;

  private constructor(
    private readonly caPem: string,
    private readonly serving: IssuedCertificate,
    readonly client: IssuedCertificate,
  ) {
    this.agents = new BackendAgents({ certPem: client.certPem, keyPem: client.keyPem });
  }

  static async create(): Promise<TestBackends> {
    const ca = await createCertificateAuthority({ commonName: 'proxy-spec-ca' });
    const serving = await issueCertificate(ca, { commonName: 'backend', ipAddresses: ['127.0.0.1'], usage: 'server' });
    const client = await issueCertificate(ca, { commonName: 'front-proxy-client', usage: 'client' });
    return new TestBackends(ca.certPem, serving, client);
  }

  /** Starts a backend answering with `handler` (and `upgrade` for upgrade requests); the target trusts it through the test CA. */
  async start(handler: (req: IncomingMessage, res: ServerResponse) => void, upgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void): Promise<BackendTarget> {
    const server = createServer({ cert: this.serving.certPem, key: this.serving.keyPem }, handler);
    if (upgrade) server.on('upgrade', upgrade);
    this.servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { name: 'spec-backend', url: new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}`), caPem: this.caPem };
  }

  async close(): Promise<void> {
    this.agents.destroy();
    for (const s of this.servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  }
}

/** Resolves when `check` holds, polling; fails after `limitMs`. */
export async function until(check: () => boolean, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
