import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { issueCertificate, loadCertificateAuthority, type PkiPaths } from '@kube/pki';

export interface SeenRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface TestAggregatedServer {
  port: number;
  caPem: string;
  seen: SeenRequest[];
  /** Answer every request with a redirect (to check the aggregator refuses it). */
  redirect: boolean;
  /**
   * Serve discovery as servers on older libraries do: no aggregated form (406 when it is all the client
   * accepts, the legacy APIGroupList when application/json is also acceptable).
   */
  legacyDiscoveryOnly: boolean;
  stop(): Promise<void>;
  start(): Promise<void>;
}

const GROUP = 'wardle.test';

/** The Service, Endpoints and APIService (v1.wardle.test) that register a running test server with a stack. */
export function testAggregatedServerManifests(server: Pick<TestAggregatedServer, 'port' | 'caPem'>): Array<Record<string, unknown>> {
  return [
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'wardle-server', namespace: 'default' }, spec: { ports: [{ name: 'https', port: 443, targetPort: server.port }] } },
    { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'wardle-server', namespace: 'default' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: server.port }] }] },
    {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1.wardle.test' },
      spec: { group: GROUP, version: 'v1', groupPriorityMinimum: 1000, versionPriority: 15, service: { namespace: 'default', name: 'wardle-server', port: 443 }, caBundle: Buffer.from(server.caPem).toString('base64') },
    },
  ];
}
const VERSION = 'v1';

/**
 * A minimal aggregated API server for tests: HTTPS with its own serving certificate (issued for
 * wardle-server.default.svc by the cluster CA), discovery for wardle.test/v1 and a list of flunders whose
 * items echo the identity headers it received.
 */
export async function startTestAggregatedServer(pki: PkiPaths, port = 0): Promise<TestAggregatedServer> {
  const ca = await loadCertificateAuthority(pki.caCert, pki.caKey);
  const cert = await issueCertificate(ca, { commonName: 'wardle-server', dnsNames: ['wardle-server.default.svc'], ipAddresses: ['127.0.0.1'], usage: 'server' });
  const seen: SeenRequest[] = [];
  let server: Server | undefined;
  const state: TestAggregatedServer = {
    port,
    caPem: ca.certPem,
    seen,
    redirect: false,
    legacyDiscoveryOnly: false,
    stop: () => new Promise<void>((resolve) => (server ? (server.closeAllConnections(), server.close(() => resolve())) : resolve())),
    start: async () => {
      server = createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
        seen.push({ path: req.url ?? '', headers: req.headers });
        if (state.redirect) {
          res.writeHead(302, { Location: 'https://example.invalid/' });
          res.end();
          return;
        }
        const json = (code: number, body: unknown, type = 'application/json'): void => {
          res.writeHead(code, { 'Content-Type': type });
          res.end(JSON.stringify(body));
        };
        const path = (req.url ?? '').split('?')[0];
        if (path === `/apis/${GROUP}/${VERSION}`) {
          return json(200, {
            kind: 'APIResourceList',
            apiVersion: 'v1',
            groupVersion: `${GROUP}/${VERSION}`,
            resources: [
              { name: 'flunders', singularName: 'flunder', namespaced: true, kind: 'Flunder', verbs: ['get', 'list'], shortNames: ['fl'], categories: ['wardle'] },
              { name: 'flunders/status', singularName: '', namespaced: true, kind: 'Flunder', verbs: ['get', 'patch', 'update'] },
            ],
          });
        }
        const accept = String(req.headers.accept);
        if (path === '/apis' && state.legacyDiscoveryOnly) {
          if (!accept.split(',').some((a) => a.trim().split(';')[0] === 'application/json' && !a.includes('as='))) return json(406, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotAcceptable', code: 406 });
          return json(200, { kind: 'APIGroupList', apiVersion: 'v1', groups: [{ name: GROUP, versions: [{ groupVersion: `${GROUP}/${VERSION}`, version: VERSION }], preferredVersion: { groupVersion: `${GROUP}/${VERSION}`, version: VERSION } }] });
        }
        if (path === '/apis' && accept.includes('APIGroupDiscoveryList')) {
          return json(
            200,
            { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items: [{ metadata: { name: GROUP }, versions: [{ version: VERSION, resources: [{ resource: 'flunders', responseKind: { group: GROUP, version: VERSION, kind: 'Flunder' }, scope: 'Namespaced', singularResource: 'flunder', verbs: ['get', 'list'] }] }] }] },
            'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
          );
        }
        if (path === `/apis/${GROUP}/${VERSION}/namespaces/default/flunders`) {
          const items = [{ apiVersion: `${GROUP}/${VERSION}`, kind: 'Flunder', metadata: { name: 'echo', namespace: 'default' }, user: req.headers['x-remote-user'], groups: req.headers['x-remote-group'], authorization: req.headers.authorization ?? null }];
          return json(200, { kind: 'FlunderList', apiVersion: `${GROUP}/${VERSION}`, metadata: { resourceVersion: '1' }, items });
        }
        json(404, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', code: 404 });
      });
      // exec/attach/port-forward style upgrades: answer 101 and echo every byte back.
      server.on('upgrade', (req, socket) => {
        seen.push({ path: req.url ?? '', headers: req.headers });
        if (state.redirect) return void socket.end('HTTP/1.1 302 Found\r\nLocation: https://example.invalid/\r\nContent-Length: 0\r\n\r\n');
        socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
        socket.pipe(socket);
      });
      await new Promise<void>((resolve) => server!.listen(state.port, '127.0.0.1', () => resolve()));
      state.port = (server!.address() as AddressInfo).port;
    },
  };
  await state.start();
  return state;
}
