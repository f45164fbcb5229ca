import { Agent } from 'node:https';

/** Where a group/version is served: one HTTPS endpoint and how to trust it. */
export interface BackendTarget {
  /** For logs and Status messages: "core-api", "default/wardle-server". */
  name: string;
  url: URL;
  /** PEM bundle to verify the backend; undefined = the system roots (unless insecure). */
  caPem?: string;
  insecureSkipTLSVerify?: boolean;
  /** TLS server name to verify, e.g. "<service>.<namespace>.svc". */
  serverName?: string;
  /** Every live instance of the service (NATS announcements): requests are spread over them. */
  instances?: BackendTarget[];
}

/** The aggregator's client certificate for the backends' front-proxy (requestheader) authentication. */
export interface ProxyClientCertificate {
  certPem: string;
  keyPem: string;
}

/** Keep-alive connection pools, one per backend endpoint and trust setting; created once, reused by every request. */
export class BackendAgents {
  private readonly agents = new Map<string, Agent>();

  constructor(private readonly client: ProxyClientCertificate) {}

  agentFor(t: BackendTarget): Agent {
    const key = `${t.url.host}|${t.serverName ?? ''}|${t.insecureSkipTLSVerify ? 'insecure' : (t.caPem ?? 'system')}`;
    let agent = this.agents.get(key);
    if (!agent) {
      agent = new Agent({
        keepAlive: true,
        maxSockets: Infinity,
        maxFreeSockets: 64,
        cert: this.client.certPem,
        key: this.client.keyPem,
        ca: t.caPem,
        rejectUnauthorized: !t.insecureSkipTLSVerify,
        servername: t.serverName,
      });
      this.agents.set(key, agent);
    }
    return agent;
  }

  destroy(): void {
    this.agents.forEach((a) => a.destroy());
    this.agents.clear();
  }
}
