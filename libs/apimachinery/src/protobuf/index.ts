export { decodeKubeProtobuf, isKubeProtobuf, KUBE_PROTOBUF_MEDIA_TYPE, type KubeProtobufObject } from './kube-protobuf.codec';
export { supportedProtobufKinds } from './kind.registry';
