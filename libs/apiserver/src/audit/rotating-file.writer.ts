import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

/** lumberjack.Logger's options as kube's --audit-log-max* set them. */
export interface RotationOptions {
  /** Bytes before the file is rotated (kube: --audit-log-maxsize megabytes); 0 never rotates. */
  maxSizeBytes: number;
  /** Days a backup is kept, by the time in its name; 0 keeps them. */
  maxAgeDays: number;
  /** Backups kept; 0 keeps them all. */
  maxBackups: number;
  /** Backups gzipped (kube's --audit-log-compress). */
  compress: boolean;
}

const COMPRESS_SUFFIX = '.gz';
const DAY_MS = 24 * 60 * 60 * 1000;

/** lumberjack's backupTimeFormat "2006-01-02T15-04-05.000", in UTC. */
export function backupTimestamp(d: Date): string {
  return d.toISOString().slice(0, 23).replace(/:/g, '-');
}

/** `<dir>/<name>-<timestamp><ext>`: lumberjack's backupName (audit.log → audit-2026-11-28T04-30-00.000.log). */
export function backupName(filename: string, now: Date): string {
  const ext = extname(filename);
  return join(dirname(filename), `${basename(filename, ext)}-${backupTimestamp(now)}${ext}`);
}

function timeFromName(name: string, prefix: string, ext: string): number | undefined {
  if (!name.startsWith(prefix) || !name.endsWith(ext)) return undefined;
  const ts = name.slice(prefix.length, name.length - ext.length);
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})$/.exec(ts);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, ms] = m.map(Number);
  return Date.UTC(y, mo - 1, d, h, mi, s, ms);
}

/**
 * A log file rotated as lumberjack rotates kube-apiserver's audit log: before a write would take it past
 * maxSize the file is renamed to `<name>-<UTC time><ext>` and a new one started; backups beyond maxBackups
 * or older than maxAge (by the time in their name) are removed, the others gzipped when asked, after each
 * rotation and when the file is first opened. Files are owner-only (0600). Writes are queued in order and
 * written in batches; an error is handed to onError with the number of lines it cost.
 */
export class RotatingFileWriter {
  private fh?: fs.FileHandle;
  private size = 0;
  private queue: string[] = [];
  private flushing?: Promise<void>;
  private closed = false;
  private milling?: Promise<void>;
  private millAgain = false;
  /** The last write's failure, until a write succeeds: what blocking-strict mode fails requests for. */
  failed = false;

  constructor(
    private readonly filename: string,
    private readonly options: RotationOptions,
    private readonly onError: (err: Error, lines: number) => void,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Queues a line (with its newline); false once closed. */
  write(line: string): boolean {
    if (this.closed) return false;
    this.queue.push(line);
    this.flushing ??= this.flush();
    return true;
  }

  /** Resolves once every line queued so far is written (and the clean-up it started is done). */
  async idle(): Promise<void> {
    while (this.flushing || this.milling) {
      await this.flushing;
      await this.milling;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.flushing;
    await this.milling;
    await this.fh?.close().catch(() => undefined);
    this.fh = undefined;
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length) {
        const lines = this.queue;
        this.queue = [];
        await this.writeLines(lines);
      }
    } finally {
      this.flushing = undefined;
    }
  }

  /** lumberjack's Write for each line, lines that fit in the current file written together. */
  private async writeLines(lines: string[]): Promise<void> {
    const max = this.options.maxSizeBytes;
    let pending: string[] = [];
    let pendingBytes = 0;
    const writePending = async (): Promise<void> => {
      if (!pending.length) return;
      const count = pending.length;
      const chunk = pending.join('');
      const bytes = pendingBytes;
      pending = [];
      pendingBytes = 0;
      try {
        // writeFile writes all of it (write may stop short).
        await this.fh!.writeFile(chunk);
        this.size += bytes;
        this.failed = false;
      } catch (err) {
        this.fail(err as Error, count);
      }
    };
    for (const line of lines) {
      const len = Buffer.byteLength(line);
      if (max > 0 && len > max) {
        this.fail(new Error(`write length ${len} exceeds maximum file size ${max}`), 1);
        continue;
      }
      if (!this.fh) {
        try {
          await this.openExistingOrNew(len);
        } catch (err) {
          this.fail(err as Error, 1);
          continue;
        }
      }
      if (max > 0 && this.size + pendingBytes + len > max) {
        await writePending();
        try {
          await this.rotate();
        } catch (err) {
          this.fail(err as Error, 1);
          continue;
        }
      }
      pending.push(line);
      pendingBytes += len;
    }
    await writePending();
  }

  private fail(err: Error, lines: number): void {
    this.failed = true;
    this.onError(err, lines);
  }

  private async openExistingOrNew(writeLen: number): Promise<void> {
    this.mill();
    let size: number;
    try {
      size = (await fs.stat(this.filename)).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return this.openNew();
      throw new Error(`error getting log file info: ${(err as Error).message}`);
    }
    if (this.options.maxSizeBytes > 0 && size + writeLen >= this.options.maxSizeBytes) return this.rotate();
    const fh = await fs.open(this.filename, 'a', 0o600);
    // One left readable by an older version is narrowed: audit events carry users, objects and bodies.
    await fh.chmod(0o600).catch(() => undefined);
    this.fh = fh;
    this.size = size;
  }

  private async rotate(): Promise<void> {
    const fh = this.fh;
    this.fh = undefined;
    await fh?.close();
    await this.openNew();
    this.mill();
  }

  private async openNew(): Promise<void> {
    await fs.mkdir(dirname(this.filename), { recursive: true, mode: 0o700 });
    try {
      await fs.stat(this.filename);
      await fs.rename(this.filename, backupName(this.filename, this.now()));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`can't rename log file: ${(err as Error).message}`);
    }
    this.fh = await fs.open(this.filename, 'w', 0o600);
    this.size = 0;
  }

  /** lumberjack's mill: one clean-up at a time, another one after it when asked meanwhile. */
  private mill(): void {
    if (this.milling) {
      this.millAgain = true;
      return;
    }
    this.milling = (async () => {
      do {
        this.millAgain = false;
        await this.millRunOnce().catch(() => undefined);
      } while (this.millAgain);
      this.milling = undefined;
    })();
  }

  private async millRunOnce(): Promise<void> {
    const { maxBackups, maxAgeDays, compress } = this.options;
    if (maxBackups === 0 && maxAgeDays === 0 && !compress) return;
    const dir = dirname(this.filename);
    const ext = extname(this.filename);
    const prefix = `${basename(this.filename, ext)}-`;
    const entries = await fs.readdir(dir, { withFileTypes: true });
    let files: Array<{ name: string; time: number }> = [];
    for (const e of entries) {
      if (!e.isFile()) continue;
      const time = timeFromName(e.name, prefix, ext) ?? timeFromName(e.name, prefix, ext + COMPRESS_SUFFIX);
      if (time !== undefined) files.push({ name: e.name, time });
    }
    files.sort((a, b) => b.time - a.time); // newest first
    const remove: string[] = [];
    if (maxBackups > 0 && maxBackups < files.length) {
      const preserved = new Set<string>();
      const remaining: typeof files = [];
      for (const f of files) {
        preserved.add(f.name.endsWith(COMPRESS_SUFFIX) ? f.name.slice(0, -COMPRESS_SUFFIX.length) : f.name);
        if (preserved.size > maxBackups) remove.push(f.name);
        else remaining.push(f);
      }
      files = remaining;
    }
    if (maxAgeDays > 0) {
      const cutoff = this.now().getTime() - maxAgeDays * DAY_MS;
      const remaining: typeof files = [];
      for (const f of files) {
        if (f.time < cutoff) remove.push(f.name);
        else remaining.push(f);
      }
      files = remaining;
    }
    for (const name of remove) await fs.rm(join(dir, name), { force: true });
    if (compress) {
      for (const f of files) if (!f.name.endsWith(COMPRESS_SUFFIX)) await compressFile(join(dir, f.name));
    }
  }
}

async function compressFile(src: string): Promise<void> {
  const dst = src + COMPRESS_SUFFIX;
  try {
    await pipeline(createReadStream(src), createGzip(), createWriteStream(dst, { mode: 0o600 }));
    await fs.rm(src);
  } catch (err) {
    await fs.rm(dst, { force: true });
    throw err;
  }
}
