export { EncryptionConfig, type EncryptionConfiguration, type EncryptionKey, type EncryptionProvider } from './encryption.config';
export { EncryptionConfigSource } from './encryption.source';
export { AesCbcTransformer, AesGcmTransformer, IdentityTransformer, type PrefixTransformer, PrefixTransformers, SecretboxTransformer, type TransformedValue, type ValueTransformer } from './value.transformer';
