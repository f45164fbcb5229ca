import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onProcessExit } from './exit-cleanup.registry';

/**
 * Creates a fresh directory under the OS temp dir; it is removed when the process exits.
 * Synchronous so it can be used in field initialisers and describe blocks.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `${prefix.replace(/[^\w.-]/g, '-')}-`));
  onProcessExit(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
