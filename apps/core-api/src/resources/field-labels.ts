/**
 * The message of kube's own field label conversions (pkg/apis/core/v1, events/v1, certificates/v1): the kinds that
 * register one refuse an unknown field this way, the others with runtime's default message.
 */
export const fieldLabelNotSupported = (label: string): string => `field label not supported: ${label}`;
