import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { registrationObjects } from '@kube/apiserver';
import { WARDLE_API_SERVICE } from './sample-apiserver.module';

const MANIFEST = join(__dirname, '..', '..', '..', 'deploy', 'sample-apiserver', 'apiservice.yaml');
const CA_PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

describe('deploy/sample-apiserver/apiservice.yaml', () => {
  it('holds the objects the server registers itself, once its placeholders are filled in', () => {
    const values: Record<string, string> = { WARDLE_SERVER_IP: '10.0.0.12', WARDLE_SERVER_PORT: '6446', WARDLE_CA_BUNDLE: Buffer.from(CA_PEM).toString('base64') };
    const text = readFileSync(MANIFEST, 'utf8').replace(/\$\{(\w+)\}/g, (_, name: string) => values[name] ?? `<unknown ${name}>`);
    const expected = registrationObjects({ ...WARDLE_API_SERVICE, address: '10.0.0.12', port: 6446, caBundlePem: CA_PEM });
    expect(parseAllDocuments(text).map((doc) => doc.toJS())).toEqual(expected);
  });
});
