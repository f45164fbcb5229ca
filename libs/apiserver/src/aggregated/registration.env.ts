/** The registration settings an aggregated server reads from its environment (docs/aggregated-api-server.md). */
import { readFileSync } from 'node:fs';
import type { RegistrationTarget } from './registration.client';

type Env = Readonly<Record<string, string | undefined>>;

const TARGET_FILES = {
  certPem: 'KUBE_REGISTER_CERT_FILE',
  keyPem: 'KUBE_REGISTER_KEY_FILE',
  caPem: 'KUBE_REGISTER_CA_FILE',
} as const;

/**
 * KUBE_REGISTER_URL (the aggregator) with the client certificate, key and CA files to reach it as an admin,
 * or undefined when KUBE_REGISTER_URL is not set (registered by a manifest instead).
 */
export function registrationTargetFromEnv(env: Env): RegistrationTarget | undefined {
  const url = env.KUBE_REGISTER_URL;
  if (!url) return undefined;
  const missing = Object.values(TARGET_FILES).filter((name) => !env[name]);
  if (missing.length) throw new Error(`KUBE_REGISTER_URL is set but ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not`);
  const read = (name: string): string => readFileSync(env[name] as string, 'utf8');
  return { url, certPem: read(TARGET_FILES.certPem), keyPem: read(TARGET_FILES.keyPem), caPem: read(TARGET_FILES.caPem) };
}
