/**
 * `node dist/scripts/kms-plugin.js --socket PATH --key-file FILE`
 *
 * A KMS v2 plugin (kube's `v2.KeyManagementService` over gRPC on a unix socket) holding its key-encryption keys in a
 * local file: the example to copy, and what the tests and the bench run. It encrypts the API servers' DEK seeds
 * with AES-256-GCM (random 12-byte nonce, the key ID as authenticated data); a real plugin would call a cloud KMS
 * or an HSM instead, and keep no key on the API server's disk.
 *
 * The key file holds one key per line, `<key-id> <base64 of 32 random bytes>`; the first line is the key new DEK
 * seeds are encrypted with (Status reports its ID), the others still decrypt. Rotation: put a new line first, then
 * send SIGHUP (or wait: the file is re-read when it changes); each API server sees the new key ID at its next
 * Status poll (at most a minute), generates a new seed, and marks values written under the old one stale, so that
 * `kubectl get secrets -A -o json | kubectl replace -f -` rewrites them. Drop the old line once that is done.
 *
 *   echo "key-1 $(head -c 32 /dev/urandom | base64)" > kms-keys && chmod 600 kms-keys
 */
import * as grpc from '@grpc/grpc-js';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, rmSync, unwatchFile, watchFile } from 'node:fs';
import { parseArgs } from 'node:util';
import { keyManagementService } from '@kube/storage';

const USAGE = 'usage: kms-plugin --socket PATH --key-file FILE';
const NONCE = 12;
const TAG = 16;

export interface KmsPluginOptions {
  /** The unix socket to listen on (an API server's `endpoint: unix://<socket>`); a stale one is replaced. */
  socket: string;
  keyFile: string;
  log?: (message: string) => void;
}

export interface KmsPlugin {
  /** The key ID Status reports now. */
  readonly keyID: string;
  /** Calls answered per method, for tests and the bench. */
  readonly calls: { status: number; encrypt: number; decrypt: number };
  /** Re-reads the key file (what SIGHUP and a change of the file do). */
  reload(): void;
  close(): Promise<void>;
}

/** Reads `<key-id> <base64 key>` lines; the first is the current key. */
export function readKeyFile(path: string): Array<{ id: string; key: Buffer }> {
  const keys = readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((line, i) => {
      const [id, secret, ...rest] = line.split(/\s+/);
      const key = Buffer.from(secret ?? '', 'base64');
      if (!id || rest.length || key.length !== 32) throw new Error(`${path}:${i + 1}: expected "<key-id> <base64 of 32 bytes>"`);
      return { id, key };
    });
  if (keys.length === 0) throw new Error(`${path}: no key`);
  return keys;
}

function rpcError(code: grpc.status, details: string): grpc.ServiceError {
  return Object.assign(new Error(details), { code, details, metadata: new grpc.Metadata() });
}

export async function startKmsPlugin(options: KmsPluginOptions): Promise<KmsPlugin> {
  const log = options.log ?? (() => undefined);
  let keys = readKeyFile(options.keyFile);
  const calls = { status: 0, encrypt: 0, decrypt: 0 };
  const server = new grpc.Server();
  server.addService(keyManagementService().service, {
    Status: (_call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) => {
      calls.status++;
      cb(null, { version: 'v2', healthz: 'ok', keyId: keys[0].id });
    },
    Encrypt: (call: grpc.ServerUnaryCall<{ plaintext: Buffer }, unknown>, cb: grpc.sendUnaryData<unknown>) => {
      calls.encrypt++;
      const { id, key } = keys[0];
      const nonce = randomBytes(NONCE);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(id));
      const sealed = Buffer.concat([cipher.update(call.request.plaintext), cipher.final()]);
      cb(null, { ciphertext: Buffer.concat([nonce, sealed, cipher.getAuthTag()]), keyId: id, annotations: {} });
    },
    Decrypt: (call: grpc.ServerUnaryCall<{ ciphertext: Buffer; keyId: string }, unknown>, cb: grpc.sendUnaryData<unknown>) => {
      calls.decrypt++;
      const { ciphertext, keyId } = call.request;
      const found = keys.find((k) => k.id === keyId);
      if (!found) return cb(rpcError(grpc.status.NOT_FOUND, `unknown key ID ${JSON.stringify(keyId)}`));
      if (ciphertext.length < NONCE + TAG) return cb(rpcError(grpc.status.INVALID_ARGUMENT, 'ciphertext too short'));
      try {
        const decipher = createDecipheriv('aes-256-gcm', found.key, ciphertext.subarray(0, NONCE));
        decipher.setAAD(Buffer.from(found.id));
        decipher.setAuthTag(ciphertext.subarray(ciphertext.length - TAG));
        cb(null, { plaintext: Buffer.concat([decipher.update(ciphertext.subarray(NONCE, ciphertext.length - TAG)), decipher.final()]) });
      } catch {
        cb(rpcError(grpc.status.INVALID_ARGUMENT, 'ciphertext does not authenticate under its key ID'));
      }
    },
  });
  rmSync(options.socket, { force: true });
  // The socket is the plugin's only access control: the API server's user alone may connect, from its creation on.
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => server.bindAsync(`unix://${options.socket}`, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())));
  } finally {
    process.umask(umask);
  }
  chmodSync(options.socket, 0o600);
  log(`kms-plugin: serving v2.KeyManagementService on unix://${options.socket}, key ID ${keys[0].id}`);

  const reload = (): void => {
    try {
      const next = readKeyFile(options.keyFile);
      if (next.map((k) => `${k.id} ${k.key.toString('base64')}`).join('\n') === keys.map((k) => `${k.id} ${k.key.toString('base64')}`).join('\n')) return;
      keys = next;
      log(`kms-plugin: keys reloaded, key ID ${keys[0].id}`);
    } catch (err) {
      log(`kms-plugin: keeping the current keys: ${(err as Error).message}`);
    }
  };
  watchFile(options.keyFile, { interval: 1000, persistent: false }, reload);
  return {
    get keyID() {
      return keys[0].id;
    },
    calls,
    reload,
    close: async () => {
      unwatchFile(options.keyFile, reload);
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
      rmSync(options.socket, { force: true });
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { socket: { type: 'string' }, 'key-file': { type: 'string' } } });
  if (!values.socket || !values['key-file']) {
    console.error(USAGE);
    process.exit(2);
  }
  const plugin = await startKmsPlugin({ socket: values.socket, keyFile: values['key-file'], log: (m) => console.error(m) });
  process.on('SIGHUP', () => plugin.reload());
  const stop = (): void => void plugin.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((err: Error) => {
    console.error(`kms-plugin: ${err.message}`);
    process.exit(1);
  });
}
