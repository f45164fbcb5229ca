/** The OTLP/gRPC receiver of `npm run traces` (libs/apiserver), for the tracing e2e tests. */
export { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '@kube/apiserver';
