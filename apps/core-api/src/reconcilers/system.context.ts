import type { RequestContext } from '@kube/apiserver';

/** The identity controllers inside core-api act as. */
export function systemContext(): RequestContext {
  return { user: { name: 'system:apiserver', groups: ['system:masters', 'system:authenticated'] }, dryRun: false, warnings: [] };
}

export const SYSTEM_WRITE = { dryRun: false, fieldValidation: 'Ignore' as const };
