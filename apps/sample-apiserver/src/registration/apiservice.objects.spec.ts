import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { WARDLE_API_SERVICE } from '../sample-apiserver.module';
import { apiServiceName, registrationObjects, type ApiServiceRegistration } from './apiservice.objects';

const MANIFEST = join(__dirname, '..', '..', '..', '..', 'deploy', 'sample-apiserver', 'apiservice.yaml');
const CA_PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const wardle: ApiServiceRegistration = { ...WARDLE_API_SERVICE, address: '10.0.0.12', port: 6446, caBundlePem: CA_PEM };

describe('registration objects', () => {
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

  it('match deploy/sample-apiserver/apiservice.yaml once its placeholders are filled in', () => {
    const values: Record<string, string> = { WARDLE_SERVER_IP: '10.0.0.12', WARDLE_SERVER_PORT: '6446', WARDLE_CA_BUNDLE: Buffer.from(CA_PEM).toString('base64') };
    const text = readFileSync(MANIFEST, 'utf8').replace(/\$\{(\w+)\}/g, (_, name: string) => values[name] ?? `<unknown ${name}>`);
    expect(parseAllDocuments(text).map((doc) => doc.toJS())).toEqual(registrationObjects(wardle));
  });
});
