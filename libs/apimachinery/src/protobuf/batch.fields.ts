/**
 * Field tables for batch/v1 (field numbers from k8s.io/api batch/v1/generated.proto): what `kubectl create job`
 * and `kubectl create cronjob` send (protobuf from kubectl 1.32 on). Pod failure and success policies and status
 * are not decoded.
 */
import { bool, int32, int64, KEEP, msg, str, type MessageSpec } from './field.schema';
import { PodTemplateSpec } from './core.fields';
import { LabelSelector, ObjectMeta } from './meta.fields';

/** Nearly every JobSpec field is a pointer in Go, so zero values are kept. */
export const JobSpec: MessageSpec = {
  1: int32('parallelism', KEEP),
  2: int32('completions', KEEP),
  3: int64('activeDeadlineSeconds', KEEP),
  4: msg('selector', LabelSelector),
  5: bool('manualSelector', KEEP),
  6: msg('template', PodTemplateSpec),
  7: int32('backoffLimit', KEEP),
  8: int32('ttlSecondsAfterFinished', KEEP),
  9: str('completionMode', KEEP),
  10: bool('suspend', KEEP),
  12: int32('backoffLimitPerIndex', KEEP),
  13: int32('maxFailedIndexes', KEEP),
  14: str('podReplacementPolicy', KEEP),
  15: str('managedBy', KEEP),
};

export const Job: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', JobSpec) };

export const JobTemplateSpec: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', JobSpec) };

export const CronJobSpec: MessageSpec = {
  1: str('schedule', KEEP),
  2: int64('startingDeadlineSeconds', KEEP),
  3: str('concurrencyPolicy'),
  4: bool('suspend', KEEP),
  5: msg('jobTemplate', JobTemplateSpec),
  6: int32('successfulJobsHistoryLimit', KEEP),
  7: int32('failedJobsHistoryLimit', KEEP),
  8: str('timeZone', KEEP),
};

export const CronJob: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', CronJobSpec) };
