export { EncryptionConfig, type EncryptionConfigOptions, type EncryptionConfiguration, type EncryptionKey, type EncryptionProvider, type KmsConfiguration } from './encryption.config';
export { EncryptionConfigSource, type EncryptionConfigSourceOptions } from './encryption.source';
export { GrpcKmsService, keyManagementService, type KmsService, type KmsStatus } from './kmsv2/kms.service';
export { KMS_V2_TIMINGS, type KmsV2Timings } from './kmsv2/kmsv2.provider';
export { AesCbcTransformer, AesGcmTransformer, IdentityTransformer, type PrefixTransformer, PrefixTransformers, SecretboxTransformer, type TransformedValue, type ValueTransformer } from './value.transformer';
