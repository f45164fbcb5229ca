import { spawnSync } from 'node:child_process';
import { EXECUTABLE_DIRS, findExecutable } from '@kube/testing';

/** A binary the local stack and the tests need, and the Debian package that provides it. */
export interface RequiredBinary {
  readonly name: string;
  readonly debianPackage: string;
}

export const REQUIRED_BINARIES: readonly RequiredBinary[] = [
  { name: 'etcd', debianPackage: 'etcd-server' },
  { name: 'nats-server', debianPackage: 'nats-server' },
];

/** Absolute paths of the required binaries, by name. */
export type BinaryPaths = Readonly<Record<string, string>>;

export interface EnsureBinariesOptions {
  /** Where install progress goes (never called when everything is present). */
  readonly log?: (line: string) => void;
  /** What to resolve (default REQUIRED_BINARIES: what the stack and the tests need). */
  readonly binaries?: readonly RequiredBinary[];
}

/** Debian installs nats-server into /usr/sbin, which is not on a non-root user's PATH. */

export class MissingBinariesError extends Error {
  constructor(
    readonly missing: readonly RequiredBinary[],
    reason?: string,
  ) {
    super([...(reason ? [reason] : []), installInstructions(missing)].join('\n'));
    this.name = 'MissingBinariesError';
  }
}

export { findExecutable };

/**
 * Resolves every required binary; when some are missing and we are root on a system with apt-get, installs
 * them, otherwise throws MissingBinariesError whose message says exactly what to install.
 */
export function ensureBinaries(opts: EnsureBinariesOptions = {}): BinaryPaths {
  const binaries = opts.binaries ?? REQUIRED_BINARIES;
  const missing = missingBinaries(binaries);
  if (missing.length > 0) {
    if (!canAptInstall()) throw new MissingBinariesError(missing);
    try {
      aptInstall(missing, opts.log ?? ((line) => console.error(line)));
    } catch (err) {
      throw new MissingBinariesError(missing, (err as Error).message);
    }
    const stillMissing = missingBinaries(binaries);
    if (stillMissing.length > 0) throw new MissingBinariesError(stillMissing);
  }
  return Object.fromEntries(binaries.map((b) => [b.name, findExecutable(b.name) as string]));
}

function missingBinaries(binaries: readonly RequiredBinary[]): RequiredBinary[] {
  return binaries.filter((binary) => !findExecutable(binary.name));
}

function canAptInstall(): boolean {
  return process.getuid?.() === 0 && findExecutable('apt-get') !== undefined;
}

function aptInstall(missing: readonly RequiredBinary[], log: (line: string) => void): void {
  const packages = missing.map((b) => b.debianPackage);
  log(`Installing ${packages.join(' ')} with apt-get …`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', ...packages]]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
  }
}

function installInstructions(missing: readonly RequiredBinary[]): string {
  const names = missing.map((b) => b.name).join(', ');
  const packages = missing.map((b) => b.debianPackage).join(' ');
  return [
    `Missing required binaries: ${names} (looked on PATH and in ${EXECUTABLE_DIRS.join(', ')}).`,
    'Install them, on Debian/Ubuntu:',
    `  sudo apt-get update && sudo apt-get install -y ${packages}`,
    ...(missing.some((b) => b.name === 'etcd' || b.name === 'nats-server') ? ['or put etcd (3.4+) and nats-server (2.9+) binaries on PATH.'] : []),
  ].join('\n');
}


function main(): void {
  try {
    ensureBinaries();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
}

if (require.main === module) main();
