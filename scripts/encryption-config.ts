/**
 * The default EncryptionConfiguration of `npm start` (scripts/start.ts) and compose's `pki` one-shot
 * (scripts/generate-pki.ts): encryption at rest by default, beyond kube's default. The Helm chart makes the same
 * file in a template (deploy/helm/kube-ts/templates/pki/encryption-config-secret.yaml).
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';

/** Its name beside the PKI (.local/pki/, compose's pki volume, then core-api's own). */
export const ENCRYPTION_CONFIG_FILE = 'encryption-config.yaml';

/**
 * Secrets with a random 32-byte aescbc key, then identity, so that Secrets stored before encryption was on stay
 * readable (and are rewritten encrypted on their next update).
 */
export function defaultEncryptionConfig(key: Buffer = randomBytes(32)): string {
  return [
    'apiVersion: apiserver.config.k8s.io/v1',
    'kind: EncryptionConfiguration',
    'resources:',
    '  - resources:',
    '      - secrets',
    '    providers:',
    '      - aescbc:',
    '          keys:',
    '            - name: key1',
    `              secret: ${key.toString('base64')}`,
    '      - identity: {}',
    '',
  ].join('\n');
}

/**
 * Writes the default EncryptionConfiguration to `path` once (mode 0600). Never rewritten: losing the key loses
 * every Secret stored with it. Returns whether it wrote a new file.
 */
export async function writeDefaultEncryptionConfig(path: string): Promise<boolean> {
  try {
    await writeFile(path, defaultEncryptionConfig(), { mode: 0o600, flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  }
}
