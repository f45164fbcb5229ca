import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { tempDir } from '@kube/testing';
import { backupName, RotatingFileWriter, type RotationOptions } from './rotating-file.writer';

const options = (o: Partial<RotationOptions> = {}): RotationOptions => ({ maxSizeBytes: 100, maxAgeDays: 0, maxBackups: 0, compress: false, ...o });
/** A clock the test moves: each rotation gets its own backup name. */
function clock(start = Date.UTC(2026, 10, 28, 4, 30, 0, 0)): { now: () => Date; advance: (ms: number) => void } {
  let t = start;
  return { now: () => new Date(t), advance: (ms) => (t += ms) };
}
const line = (n: number, width = 40): string => `${String(n).padStart(width - 1, '0')}\n`;

describe('RotatingFileWriter (lumberjack, as kube rotates its audit log)', () => {
  it("names backups as lumberjack does: <name>-<UTC time, 2006-01-02T15-04-05.000><ext>", () => {
    expect(backupName('/var/log/audit.log', new Date(Date.UTC(2026, 10, 28, 4, 30, 0, 7)))).toBe('/var/log/audit-2026-11-28T04-30-00.007.log');
    expect(backupName('/var/log/audit', new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 600)))).toBe('/var/log/audit-2026-01-02T03-04-05.600');
  });

  it('rotates before a write would pass maxSize; every file is 0600 and no line is split or lost', async () => {
    const dir = tempDir('rotate');
    const path = join(dir, 'audit.log');
    const c = clock();
    const w = new RotatingFileWriter(path, options({ maxSizeBytes: 100 }), () => undefined, c.now);
    for (let i = 0; i < 6; i++) {
      w.write(line(i));
      await w.idle();
      c.advance(1_000);
    }
    await w.close();
    const files = readdirSync(dir).sort();
    expect(files).toEqual(['audit-2026-11-28T04-30-02.000.log', 'audit-2026-11-28T04-30-04.000.log', 'audit.log']);
    const all = files.map((f) => readFileSync(join(dir, f), 'utf8')).join('');
    expect(all.split('\n').filter(Boolean).sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => line(i).trim()));
    for (const f of files) {
      expect(statSync(join(dir, f)).size).toBeLessThanOrEqual(100);
      expect(statSync(join(dir, f)).mode & 0o777, f).toBe(0o600);
    }
  });

  it('rotates an existing file that is already full when first opened', async () => {
    const dir = tempDir('rotate-existing');
    const path = join(dir, 'audit.log');
    writeFileSync(path, 'x'.repeat(90), { mode: 0o644 });
    const w = new RotatingFileWriter(path, options({ maxSizeBytes: 100 }), () => undefined, clock().now);
    w.write(line(1));
    await w.close();
    expect(readdirSync(dir).sort()).toEqual(['audit-2026-11-28T04-30-00.000.log', 'audit.log']);
    expect(readFileSync(path, 'utf8')).toBe(line(1));
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('keeps at most maxBackups backups, the newest by the time in their names', async () => {
    const dir = tempDir('rotate-backups');
    const path = join(dir, 'audit.log');
    const c = clock();
    const w = new RotatingFileWriter(path, options({ maxSizeBytes: 50, maxBackups: 2 }), () => undefined, c.now);
    for (let i = 0; i < 6; i++) {
      w.write(line(i));
      await w.idle();
      c.advance(60_000);
    }
    await w.close();
    expect(readdirSync(dir).sort()).toEqual(['audit-2026-11-28T04-34-00.000.log', 'audit-2026-11-28T04-35-00.000.log', 'audit.log']);
  });

  it('removes backups older than maxAge days and leaves other files alone', async () => {
    const dir = tempDir('rotate-age');
    const path = join(dir, 'audit.log');
    for (const f of ['audit-2026-11-01T00-00-00.000.log', 'audit-2026-11-27T00-00-00.000.log', 'audit-2026-01-01T00-00-00.000.log.gz', 'other.log', 'audit-notatime.log']) writeFileSync(join(dir, f), 'old\n');
    const w = new RotatingFileWriter(path, options({ maxSizeBytes: 1_000, maxAgeDays: 7 }), () => undefined, clock().now);
    w.write(line(1));
    await w.close();
    expect(readdirSync(dir).sort()).toEqual(['audit-2026-11-27T00-00-00.000.log', 'audit-notatime.log', 'audit.log', 'other.log']);
  });

  it('gzips backups when compress is set', async () => {
    const dir = tempDir('rotate-gzip');
    const path = join(dir, 'audit.log');
    const c = clock();
    const w = new RotatingFileWriter(path, options({ maxSizeBytes: 50, compress: true }), () => undefined, c.now);
    w.write(line(1));
    await w.idle();
    c.advance(1_000);
    w.write(line(2));
    await w.close();
    expect(readdirSync(dir).sort()).toEqual(['audit-2026-11-28T04-30-01.000.log.gz', 'audit.log']);
    expect(gunzipSync(readFileSync(join(dir, 'audit-2026-11-28T04-30-01.000.log.gz'))).toString()).toBe(line(1));
  });

  it("refuses a line longer than maxSize with lumberjack's error; a path it cannot open is an error, not a throw", async () => {
    const dir = tempDir('rotate-errors');
    const errors: string[] = [];
    const w = new RotatingFileWriter(join(dir, 'audit.log'), options({ maxSizeBytes: 10 }), (err) => errors.push(err.message), clock().now);
    w.write('01234567890123456789\n');
    await w.close();
    expect(errors).toEqual(['write length 21 exceeds maximum file size 10']);
    mkdirSync(join(dir, 'is-a-directory'));
    const bad = new RotatingFileWriter(join(dir, 'is-a-directory'), options({ maxSizeBytes: 0 }), (err) => errors.push(err.message), clock().now);
    bad.write('x\n');
    await bad.close();
    expect(errors[1]).toMatch(/EISDIR/);
    expect(bad.failed).toBe(true);
    expect(bad.write('after close\n')).toBe(false);
    // lumberjack checks the length before it opens anything.
    expect(existsSync(join(dir, 'audit.log'))).toBe(false);
  });
});
