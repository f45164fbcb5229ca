import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Debian puts nats-server in /usr/sbin, which is not on a non-root PATH. */
export const EXECUTABLE_DIRS: readonly string[] = ['/usr/sbin', '/usr/local/sbin', '/usr/local/bin', '/usr/bin'];

/** Absolute path of an executable found on PATH (then in the sbin folders), or undefined. */
export function findExecutable(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...EXECUTABLE_DIRS];
  return dirs.map((dir) => join(dir, name)).find(isExecutable);
}

export function requireExecutable(name: string, hint: string): string {
  const path = findExecutable(name);
  if (!path) throw new Error(`${name} not found on PATH or in ${EXECUTABLE_DIRS.join(', ')}: ${hint}`);
  return path;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
