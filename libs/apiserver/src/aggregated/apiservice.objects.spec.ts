import { describe, expect, it } from 'vitest';
import { apiServiceName, registrationObjects, type ApiServiceRegistration } from './apiservice.objects';

const CA_PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const wardle: ApiServiceRegistration = {
  group: 'wardle.example.com',
  version: 'v1alpha1',
  serviceNamespace: 'default',
  serviceName: 'wardle-server',
  groupPriorityMinimum: 1000,
  versionPriority: 15,
  address: '10.0.0.12',
  port: 6446,
  caBundlePem: CA_PEM,
};

describe('registration objects', () => {
  it('of one replica among several list every replica in the Endpoints, the same whichever writes them', () => {
    const ofReplica = (port: number): unknown[] => registrationObjects({ ...wardle, address: '127.0.0.1', port, replicaPorts: [6446, 6546] }).slice(0, 2);
    expect(ofReplica(6546)).toEqual(ofReplica(6446));
    const [, endpoints] = ofReplica(6546) as Array<{ subsets: unknown }>;
    expect(endpoints.subsets).toEqual([6446, 6546].map((port) => ({ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', protocol: 'TCP', port }] })));
  });

  it('name the APIService <version>.<group>', () => {
    expect(apiServiceName(wardle)).toBe('v1alpha1.wardle.example.com');
  });

  it('are a selector-less Service on 443, its Endpoints at the server, and the APIService with the caBundle', () => {
    const [service, endpoints, apiService] = registrationObjects(wardle);
    expect(service).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'wardle-server', namespace: 'default' },
      spec: { ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6446 }] },
    });
    expect(endpoints.subsets).toEqual([{ addresses: [{ ip: '10.0.0.12' }], ports: [{ name: 'https', protocol: 'TCP', port: 6446 }] }]);
    expect(apiService).toMatchObject({
      metadata: { name: 'v1alpha1.wardle.example.com' },
      spec: { group: 'wardle.example.com', version: 'v1alpha1', groupPriorityMinimum: 1000, versionPriority: 15, service: { namespace: 'default', name: 'wardle-server', port: 443 } },
    });
    expect(Buffer.from(String((apiService.spec as { caBundle: string }).caBundle), 'base64').toString()).toBe(CA_PEM);
  });
});
