import type { GroupResource } from '@kube/apimachinery';
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import { EncryptionConfig, type EncryptionConfigOptions } from './encryption.config';
import type { ValueTransformer } from './value.transformer';

export interface EncryptionConfigSourceOptions extends Omit<EncryptionConfigOptions, 'log'> {
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
  /** A new configuration with KMS providers, waiting for its plugins' health before it replaces the current one. */
  private pending?: string;
  private readonly automaticReload: boolean;
  private stopped = false;

  private constructor(
    private config: EncryptionConfig,
    content: string,
    private readonly path?: string,
    private readonly log: (message: string) => void = () => undefined,
    private readonly options: EncryptionConfigSourceOptions = {},
  ) {
    this.content = content;
    this.automaticReload = !!options.automaticReload;
  }

  /** A fixed configuration (tests, or one built in code). */
  static of(config: EncryptionConfig): EncryptionConfigSource {
    return new EncryptionConfigSource(config, '');
  }

  /** Reads the file now (throws when it is invalid: a server must not start with a broken configuration). */
  static fromFile(path: string, options: EncryptionConfigSourceOptions = {}): EncryptionConfigSource {
    const content = readFileSync(path, 'utf8');
    const source = new EncryptionConfigSource(EncryptionConfig.parse(content, path, options), content, path, options.log, options);
    if (options.automaticReload) source.watch(options.reloadIntervalMs ?? 2000);
    return source;
  }

  transformerFor(resource: GroupResource): ValueTransformer | undefined {
    return this.config.transformerFor(resource);
  }

  /** Resolves once the KMS providers have been asked for their first Status (kube primes them before serving). */
  ready(): Promise<void> {
    return this.config.ready();
  }

  /**
   * Whether the server serves kube's `kms-providers` check: with KMS v2 providers, and always with automatic
   * reload (a reloaded file may add them), as kube-apiserver registers it.
   */
  get servesKmsHealthCheck(): boolean {
    return this.automaticReload || this.config.kmsProviders.length > 0;
  }

  /** kube's `kms-providers` check of the configuration in use. */
  checkKmsProviders(): Promise<void> {
    return this.config.checkKmsProviders();
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
    if (content === this.content || content === this.pending) return false;
    let next: EncryptionConfig;
    try {
      next = EncryptionConfig.parse(content, this.path, { ...this.options, log: this.log });
    } catch (err) {
      this.log(`encryption provider configuration ${this.path} is invalid, keeping the current one: ${(err as Error).message}`);
      this.content = content;
      return false;
    }
    if (next.kmsProviders.length) {
      // kube takes a configuration with KMS providers only once their plugins are healthy; until then the current one serves.
      this.pending = content;
      void this.takeWhenHealthy(next, content);
      return false;
    }
    this.replace(next, content);
    return true;
  }

  private async takeWhenHealthy(next: EncryptionConfig, content: string): Promise<void> {
    try {
      await next.ready();
      await next.checkKmsProviders();
    } catch (err) {
      next.close();
      if (this.pending === content) this.pending = undefined;
      this.log(`encryption provider configuration ${this.path}: its KMS providers are not healthy, keeping the current one: ${(err as Error).message}`);
      return;
    }
    if (this.pending !== content || this.stopped) {
      next.close();
      return;
    }
    this.pending = undefined;
    this.replace(next, content);
  }

  private replace(next: EncryptionConfig, content: string): void {
    const previous = this.config;
    this.config = next;
    this.content = content;
    // Reads and writes that began with the previous configuration may still wait on its plugins (kube's KMSCloseGracePeriod).
    if (previous.kmsProviders.length) setTimeout(() => previous.close(), previous.closeGracePeriodMs).unref();
    this.log(`encryption provider configuration ${this.path} reloaded`);
  }

  /** Stops watching the file and closes the KMS plugin connections. */
  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.path) unwatchFile(this.path, this.onChange);
    this.config.close();
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
