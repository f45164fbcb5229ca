export { namespaceFinalizeSubresource } from './finalize.subresource';
export { applyScale, scaleSubresource, toScale, type Scale, type ScaleSubresource } from './scale.subresource';
export { statusSubresource, type StatusValidation } from './status.subresource';
export type { SubresourceKind, SubresourceStrategy, SubresourceView, Subresources } from './subresource.strategy';
