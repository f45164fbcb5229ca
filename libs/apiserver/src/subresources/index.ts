export { namespaceFinalizeSubresource } from './finalize.subresource';
export { applyScale, scaleSubresource, toScale, type Scale, type ScaleSubresource } from './scale.subresource';
export { statusSubresource, type StatusValidation } from './status.subresource';
export { subresourceKind, type ConnectRequest, type SubresourceConnecter, type SubresourceCreater, type SubresourceKind, type SubresourceStrategy, type SubresourceView, type Subresources } from './subresource.strategy';
