/**
 * The default EncryptionConfiguration of `npm start` (scripts/start.ts) and compose's `pki` one-shot
 * (scripts/generate-pki.ts): encryption at rest by default, beyond kube's default. The Helm chart makes the same
 * file in a template (deploy/helm/kube-ts/templates/pki/encryption-config-secret.yaml).
 */
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { parse, stringify } from 'yaml';

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

/** npm start's key file for the example KMS v2 plugin (KUBE_KMS_PLUGIN=true), beside the PKI. */
export const KMS_KEYS_FILE = 'kms-keys';
/** npm start's EncryptionConfiguration with KMS v2 first, beside the PKI. */
export const KMS_ENCRYPTION_CONFIG_FILE = 'encryption-config-kms.yaml';

/** scripts/kms-plugin.ts's key file with one random key, written once (mode 0600): losing it loses every Secret. */
export async function writeDefaultKmsKeys(path: string): Promise<boolean> {
  try {
    await writeFile(path, `key-1 ${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  }
}

/**
 * The default configuration with a `kms` provider (apiVersion v2, the plugin's socket) put first in every rule: new
 * writes go through the plugin, values written before with the default key stay readable (and move to KMS on their
 * next update). Rewritten on every start from the default file (mode 0600: it holds that key too).
 */
export async function writeKmsEncryptionConfig(path: string, defaultConfigPath: string, socket: string): Promise<void> {
  const config = parse(await readFile(defaultConfigPath, 'utf8')) as { resources: Array<{ providers: unknown[] }> };
  for (const rule of config.resources) rule.providers = [{ kms: { apiVersion: 'v2', name: 'npm-start', endpoint: `unix://${socket}`, timeout: '3s' } }, ...rule.providers];
  await writeFile(path, stringify(config), { mode: 0o600 });
}
