import * as grpc from '@grpc/grpc-js';
import { rmSync } from 'node:fs';
import { keyManagementService } from './kms.service';

/**
 * Values kube-apiserver wrote with KMS v2, recorded by kube's TestKMSv2ProviderLegacyData
 * (test/integration/controlplane/transformation/kmsv2_transformation_test.go) under the etcd prefix
 * `43da1478-5e9c-4ef3-a92a-2b19d540c8a5/registry`, with kube's Base64Plugin (key ID "1"): the Go string literals
 * converted to bytes, as base64. The plaintext is the kube-protobuf Secret with data `api_key` = SECRET_VAL.
 */
export const KUBE_LEGACY = {
  /** kube v1.27.0 (commit 1b4df30b): EncryptedDEKSourceType AES_GCM_KEY. */
  aesGcmKey: {
    etcdKey: '/43da1478-5e9c-4ef3-a92a-2b19d540c8a5/registry/secrets/kms-v2-legacy-data/dek-source-aes-gcm-key',
    encryptedDEKSource: 'gafIvwT0ASoKdZ/D1L2SlH73LUMj5qa3hroljfS51wc=',
    stored:
      'azhzOmVuYzprbXM6djI6a21zLXByb3ZpZGVyOgqKA7DGmdwBypo7AAAAAIyAC/AdS297MAu11cWDGrUOz9dWZe3pgrjfRe1Na88hFcALCYJXaCCejxtcOQikgAJt9FAUeu73jBqEbjX9R4N2Iw7UDINZd0jhHL8Sxhu6i3IIgnr422CnXVCx5iFMYo24SRpFTKCuK74VUo6bBjT2ULY7n6aNlrIBoY7kYd8vkHXeNprCzbtiiCsWmD3pA93XSHZDCuWMdgV+CqtYX06ahHdwqBMPglk5eO2JFbnh6qaQxmBSCjAE8qbRpYUKa/TP5HVsHCpbQRKg2fK1IYLkAKRMJyb1cGxuIuA9DFvhsFU5NxF82k5rwz3C8oU8Nx4BuKn0idt+4YzhHwVCQFfKvFMK6IGbTFmGJPYB3Z3NHekCXfRp2vrCDlVyxUTKvWRiE77+HMXhhMzfJpNqHksEugYWhQ4fygiQBhFLnVsNVuhF1SiRDG7UEJxIHNydWJTIgTUbjLt6+Uhvex0RMpBG59hoqKH2jIx2yrIx+SOCo743ZWTZFPMG/7ffq2kSATEaLGdhZkl2d1QwQVNvS2RaL0QxTDJTbEg3M0xVTWo1cWEzaHJvbGpmUzUxd2M9IjIKG2xvY2FsLWtlay5rbXMua3ViZXJuZXRlcy5pbxITZW5jcnlwdGVkLWxvY2FsLWtlaw==',
  },
  /** kube v1.28.0 (commit 855e7c48): EncryptedDEKSourceType HKDF_SHA256_XNONCE_AES_GCM_SEED. */
  seed: {
    etcdKey: '/43da1478-5e9c-4ef3-a92a-2b19d540c8a5/registry/secrets/kms-v2-legacy-data/dek-source-hkdf-sha256-xnonce-aes-gcm-seed',
    encryptedDEKSource: '/+WnKXQEM/AhXICYRNBeGk+WSuB+7OBuSYJTbP66Zyc=',
    stored:
      'azhzOmVuYzprbXM6djI6a21zLXByb3ZpZGVyOgrRAxIPh66iovVKEQbQvoqBthXfNEijt2mTXinlaeJ//W/uIhcwtwqgC+zg+gkjCcaW9sendwG5q7P03+yeSpUkJlo9indBY6WyOwnV+QXBRSmLuBTJ2hR7SQ1WP+U68EJNm62qSG4+Vy9Ro/W658uaCucip1xwjLoy8rB4PMSEiJrxtTpkPXrjwyYDmW2W51zjo9dpsgyEZ/k00gzWfu2s+BvGKCxb0f+6iciHRAIpOndUTTEytf1s0vKFEjDT2WFha87dSdalD2sy9knQ+cLaC8WX19e7g9b3Gr8TaUiP5LMj89/IJHkNTChGXFh0hrvlS4g9kukE9zAeCT6sO57m8CvbmTQdGlY51YQtZ/PHWgD3Mw7nps/E/OCyH6C7GoGz5Nemf8YIlM2JrUCsgQE1D+hB6UL7MoFvnD8qDIwVqCki6P+NONUhTxfF442Ag9PCtMoxO/ew9JB4pgGVhcCv9oJRa6vBgjxEk88N298clBdR+lPmy9RYxr+AHcQcnVA3NIJKSwt56Sm8aFm+zHzkl908OzOQSgfuI7J54wlg7+8fImuLlqCY2f9z3ia3pg7xfzLNhWLj2jUiY1xL4jGi7GAb5VLmaghAGDfh2wT2Yk5PDhIBMRosLytXbktYUUVNL0FoWElDWVJOQmVHaytXU3VCKzdPQnVTWUpUYlA2Nlp5Yz0iMgobbG9jYWwta2VrLmttcy5rdWJlcm5ldGVzLmlvEhNlbmNyeXB0ZWQtbG9jYWwta2VrKAE=',
  },
  prefix: 'k8s:enc:kms:v2:kms-provider:',
  secretValue: '086a7ffc-0225-11e8-ba89-0ed5f89f718b',
} as const;

export interface Base64Plugin {
  keyID: string;
  decrypts: number;
  close(): Promise<void>;
}

/**
 * kube's own test plugin (apiserver/pkg/storage/value/encrypt/envelope/testing/v2 Base64Plugin) over real gRPC:
 * Encrypt is base64 with the annotation `local-kek.kms.kubernetes.io`, Decrypt is base64 decoding, key ID "1",
 * version v2beta1. The plugin kube's legacy values were written with.
 */
export async function startBase64Plugin(socket: string): Promise<Base64Plugin> {
  const state = { keyID: '1', decrypts: 0 };
  const server = new grpc.Server();
  server.addService(keyManagementService().service, {
    Status: (_c: unknown, cb: grpc.sendUnaryData<unknown>) => cb(null, { version: 'v2beta1', healthz: 'ok', keyId: state.keyID }),
    Encrypt: (c: grpc.ServerUnaryCall<{ plaintext: Buffer }, unknown>, cb: grpc.sendUnaryData<unknown>) =>
      cb(null, { ciphertext: Buffer.from(c.request.plaintext.toString('base64')), keyId: state.keyID, annotations: { 'local-kek.kms.kubernetes.io': Buffer.from('encrypted-local-kek') } }),
    Decrypt: (c: grpc.ServerUnaryCall<{ ciphertext: Buffer }, unknown>, cb: grpc.sendUnaryData<unknown>) => {
      state.decrypts++;
      cb(null, { plaintext: Buffer.from(c.request.ciphertext.toString(), 'base64') });
    },
  });
  rmSync(socket, { force: true });
  await new Promise<void>((resolve, reject) => server.bindAsync(`unix://${socket}`, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())));
  return Object.assign(state, {
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  });
}
