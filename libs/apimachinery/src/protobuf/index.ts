export {
  decodeKubeProtobuf,
  decodeWatchEventFrames,
  encodeKubeProtobuf,
  encodeKubeProtobufList,
  encodeWatchEventFrame,
  hasProtobufKind,
  isKubeProtobuf,
  KUBE_PROTOBUF_MEDIA_TYPE,
  KUBE_PROTOBUF_WATCH_MEDIA_TYPE,
  type KubeProtobufObject,
} from './kube-protobuf.codec';
export { dropOmittedZeros, omitEmptyNormalizer } from './go-omitempty';
export { goEquality, goSemanticEqual, jsonEqual, type GoEquality } from './go-equality';
