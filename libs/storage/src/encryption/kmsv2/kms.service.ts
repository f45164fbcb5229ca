import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { recordKmsOperation } from './kmsv2.metrics';

/** What a KMS v2 plugin's Status answers (k8s.io/kms/apis/v2 StatusResponse). */
export interface KmsStatus {
  version: string;
  healthz: string;
  keyID: string;
}

export interface KmsEncryptResponse {
  ciphertext: Buffer;
  keyID: string;
  annotations: Record<string, Buffer>;
}

export interface KmsDecryptRequest {
  ciphertext: Buffer;
  keyID: string;
  annotations: Readonly<Record<string, Buffer>>;
}

/** kube's kmsservice.Service: the three calls of `v2.KeyManagementService`, each bounded by the provider's timeout. */
export interface KmsService {
  status(): Promise<KmsStatus>;
  encrypt(uid: string, plaintext: Buffer): Promise<KmsEncryptResponse>;
  decrypt(uid: string, req: KmsDecryptRequest): Promise<Buffer>;
  close(): void;
}

/** Go's codes.Code names, as kube's errors and its grpc_status_code metric label print them. */
const GO_CODE_NAMES = ['OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists', 'PermissionDenied', 'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange', 'Unimplemented', 'Internal', 'Unavailable', 'DataLoss', 'Unauthenticated'];

/** A failed KMS call, with grpc-go's message (`rpc error: code = … desc = …`) and its code's name for the metrics. */
export class KmsRpcError extends Error {
  constructor(
    readonly code: string,
    desc: string,
  ) {
    super(`rpc error: code = ${code} desc = ${desc}`);
  }

  static from(err: grpc.ServiceError): KmsRpcError {
    const code = GO_CODE_NAMES[err.code] ?? `Code(${err.code})`;
    // The plugin is waited for until the deadline (kube dials with WaitForReady): Go reports the context's error.
    const desc = err.code === grpc.status.DEADLINE_EXCEEDED ? 'context deadline exceeded' : err.details;
    return new KmsRpcError(code, desc);
  }
}

const PROTO_FILE = 'k8s.io/kms/apis/v2/api.proto';

/** api/proto (kept in the repository, copied into the image): found upwards from this file, in src/ and in dist/. */
export function kmsProtoRoot(from = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'api', 'proto');
    if (existsSync(join(candidate, PROTO_FILE))) return candidate;
    if (dirname(dir) === dir) throw new Error(`api/proto/${PROTO_FILE} not found above ${from}`);
  }
}

type UnaryCall<Req, Res> = (req: Req, metadata: grpc.Metadata, options: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res?: Res) => void) => grpc.ClientUnaryCall;

interface KeyManagementServiceClient extends grpc.Client {
  Status: UnaryCall<Record<string, never>, { version: string; healthz: string; keyId: string }>;
  Encrypt: UnaryCall<{ plaintext: Buffer; uid: string }, { ciphertext: Buffer; keyId: string; annotations: Record<string, Buffer> }>;
  Decrypt: UnaryCall<{ ciphertext: Buffer; uid: string; keyId: string; annotations: Readonly<Record<string, Buffer>> }, { plaintext: Buffer }>;
}

let loaded: { service: grpc.ServiceDefinition; client: grpc.ServiceClientConstructor } | undefined;

/** `v2.KeyManagementService` from kube's api.proto (loaded once): its definition for a plugin, its client for the server. */
export function keyManagementService(): { service: grpc.ServiceDefinition; client: grpc.ServiceClientConstructor } {
  if (!loaded) {
    const definition = protoLoader.loadSync(PROTO_FILE, { includeDirs: [kmsProtoRoot()], keepCase: false, longs: String, enums: String, defaults: true });
    const pkg = grpc.loadPackageDefinition(definition) as unknown as { v2: { KeyManagementService: grpc.ServiceClientConstructor } };
    loaded = { service: pkg.v2.KeyManagementService.service, client: pkg.v2.KeyManagementService };
  }
  return loaded;
}

/**
 * kube's util.ParseEndpoint for the kms `endpoint`: only `unix://` sockets (a path, or `@name` in the abstract
 * namespace), returned as a gRPC target.
 */
export function grpcTargetOf(endpoint: string): string {
  if (!endpoint) throw new Error("remote KMS provider can't use empty string as endpoint");
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch (err) {
    throw new Error(`invalid endpoint "${endpoint}" for remote KMS provider, error: ${(err as Error).message}`);
  }
  if (url.protocol !== 'unix:') throw new Error(`unsupported scheme "${url.protocol.slice(0, -1)}" for remote KMS provider`);
  // As kube: the URL's path (unix:///run/kms.sock), or a Linux abstract socket (unix:///@name).
  const path = decodeURIComponent(url.pathname);
  return path.startsWith('/@') ? `unix-abstract:${path.slice(2)}` : `unix://${path}`;
}

/** kube's gRPCService (kmsv2/grpc_service.go): one channel to the plugin's socket, every call waiting for it up to the timeout. */
export class GrpcKmsService implements KmsService {
  private readonly client: KeyManagementServiceClient;

  constructor(
    endpoint: string,
    private readonly providerName: string,
    private readonly timeoutMs: number,
  ) {
    const { client } = keyManagementService();
    // A local socket: reconnect within the 10 s of the failing Status poll, not after gRPC's default 2-minute backoff.
    this.client = new client(grpcTargetOf(endpoint), grpc.credentials.createInsecure(), {
      'grpc.default_authority': 'localhost',
      'grpc.initial_reconnect_backoff_ms': 200,
      'grpc.max_reconnect_backoff_ms': 5_000,
    }) as unknown as KeyManagementServiceClient;
  }

  private call<Req, Res>(method: 'Status' | 'Encrypt' | 'Decrypt', req: Req): Promise<Res> {
    const start = process.hrtime.bigint();
    return new Promise<Res>((resolve, reject) => {
      const fn = this.client[method] as unknown as UnaryCall<Req, Res>;
      fn.call(this.client, req, new grpc.Metadata({ waitForReady: true }), { deadline: Date.now() + this.timeoutMs }, (err, res) => {
        const failure = err ? KmsRpcError.from(err) : undefined;
        recordKmsOperation(this.providerName, `/v2.KeyManagementService/${method}`, start, failure?.code ?? 'OK');
        if (failure) reject(failure);
        else resolve(res as Res);
      });
    });
  }

  async status(): Promise<KmsStatus> {
    const res = await this.call<Record<string, never>, { version: string; healthz: string; keyId: string }>('Status', {});
    return { version: res.version, healthz: res.healthz, keyID: res.keyId };
  }

  async encrypt(uid: string, plaintext: Buffer): Promise<KmsEncryptResponse> {
    const res = await this.call<{ plaintext: Buffer; uid: string }, { ciphertext: Buffer; keyId: string; annotations: Record<string, Buffer> }>('Encrypt', { plaintext, uid });
    return { ciphertext: res.ciphertext, keyID: res.keyId, annotations: res.annotations ?? {} };
  }

  async decrypt(uid: string, req: KmsDecryptRequest): Promise<Buffer> {
    const res = await this.call<{ ciphertext: Buffer; uid: string; keyId: string; annotations: Readonly<Record<string, Buffer>> }, { plaintext: Buffer }>('Decrypt', {
      ciphertext: req.ciphertext,
      uid,
      keyId: req.keyID,
      annotations: req.annotations,
    });
    return res.plaintext;
  }

  close(): void {
    this.client.close();
  }
}
