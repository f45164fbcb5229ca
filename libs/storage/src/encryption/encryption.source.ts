import type { GroupResource } from '@kube/apimachinery';
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import { EncryptionConfig } from './encryption.config';
import type { ValueTransformer } from './value.transformer';

export interface EncryptionConfigSourceOptions {
  /** Re-read the file when its content changes (kube's --encryption-provider-config-automatic-reload). */
  automaticReload?: boolean;
  /** How often the file's stat is polled when reloading (a change is taken within this time; default 2 s). */
  reloadIntervalMs?: number;
  log?: (message: string) => void;
}

/**
 * The EncryptionConfiguration a server uses, read from its file (kube's --encryption-provider-config). With
 * automatic reload, a changed file replaces it on the next check; a file that no longer parses keeps the last good
 * configuration (as kube's DynamicEncryptionConfigContent does) and is reported. Storage asks it per operation, so
 * a reload takes effect at once for every resource.
 */
export class EncryptionConfigSource {
  private timer?: NodeJS.Timeout;
  private content: string;

  private constructor(
    private config: EncryptionConfig,
    content: string,
    private readonly path?: string,
    private readonly log: (message: string) => void = () => undefined,
  ) {
    this.content = content;
  }

  /** A fixed configuration (tests, or one built in code). */
  static of(config: EncryptionConfig): EncryptionConfigSource {
    return new EncryptionConfigSource(config, '');
  }

  /** Reads the file now (throws when it is invalid: a server must not start with a broken configuration). */
  static fromFile(path: string, options: EncryptionConfigSourceOptions = {}): EncryptionConfigSource {
    const content = readFileSync(path, 'utf8');
    const source = new EncryptionConfigSource(EncryptionConfig.parse(content, path), content, path, options.log);
    if (options.automaticReload) source.watch(options.reloadIntervalMs ?? 2000);
    return source;
  }

  transformerFor(resource: GroupResource): ValueTransformer | undefined {
    return this.config.transformerFor(resource);
  }

  /** Checks the file once; true when a new configuration was taken. */
  reload(): boolean {
    if (!this.path) return false;
    let content: string;
    try {
      content = readFileSync(this.path, 'utf8');
    } catch (err) {
      this.log(`encryption provider configuration ${this.path} could not be read, keeping the current one: ${(err as Error).message}`);
      return false;
    }
    if (content === this.content) return false;
    try {
      this.config = EncryptionConfig.parse(content, this.path);
    } catch (err) {
      this.log(`encryption provider configuration ${this.path} is invalid, keeping the current one: ${(err as Error).message}`);
      this.content = content;
      return false;
    }
    this.content = content;
    this.log(`encryption provider configuration ${this.path} reloaded`);
    return true;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.path) unwatchFile(this.path, this.onChange);
  }

  private readonly onChange = (): void => void this.reload();

  /** A stat poll (survives the file being replaced, as editors and Secret volume updates do), and kube's minute re-read besides. */
  private watch(intervalMs: number): void {
    if (!this.path) return;
    watchFile(this.path, { interval: intervalMs, persistent: false }, this.onChange);
    this.timer = setInterval(this.onChange, 60_000);
    this.timer.unref();
  }
}
