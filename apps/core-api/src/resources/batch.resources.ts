/**
 * batch/v1 Job and CronJob as stored objects (no job or cronjob controller runs): pkg/apis/batch/v1/defaults.go,
 * the job strategy's generated selector, pkg/apis/batch/validation with kube's paths and messages, and the printers'
 * Table columns.
 */
import { FieldError, goLabels, goLabelSelector, humanDuration, isDNS1123Label, maxLenError, validateLabelSelector, type KubeObject, type MetaV1LabelSelector } from '@kube/apimachinery';
import { statusSubresource, type ResourceDefinition, type ResourceStrategy, type TableColumn } from '@kube/apiserver';
import { batchV1Components } from '../openapi';
import { schemaDescription, selectorCell, templateColumns } from './apps.resources';
import { defaultPodTemplate } from './pod-spec.defaults';
import type { PodTemplateSpec } from './pod-spec.types';
import { validatePodTemplateSpec } from './pod-spec.validation';
import { cronScheduleError, isKnownTimeZone } from './cron.schedule';
import { ageColumn, NONE, since } from './table.helpers';
import { child, ensureRecord, isRecord, listOf, notSupported, semanticEqual, validateImmutableField, type StringMap } from './validation.helpers';
import { asSelector, validateNonnegative, validateNonnegativeFields, validateSelectorMatchesTemplate } from './workload.validation';

export interface JobSpec {
  parallelism?: number | null;
  completions?: number | null;
  activeDeadlineSeconds?: number | null;
  backoffLimit?: number | null;
  backoffLimitPerIndex?: number | null;
  maxFailedIndexes?: number | null;
  completionMode?: string | null;
  suspend?: boolean | null;
  manualSelector?: boolean | null;
  selector?: MetaV1LabelSelector | null;
  template?: PodTemplateSpec;
  podFailurePolicy?: unknown;
  podReplacementPolicy?: string | null;
  successPolicy?: unknown;
  managedBy?: string | null;
  ttlSecondsAfterFinished?: number | null;
  [field: string]: unknown;
}

interface JobCondition {
  type?: string;
  status?: string;
}

export interface Job extends KubeObject {
  spec?: JobSpec;
  status?: { succeeded?: number; active?: number; failed?: number; startTime?: string; completionTime?: string; conditions?: JobCondition[]; [field: string]: unknown };
}

export interface CronJobSpec {
  schedule?: string;
  timeZone?: string | null;
  startingDeadlineSeconds?: number | null;
  concurrencyPolicy?: string;
  suspend?: boolean | null;
  successfulJobsHistoryLimit?: number | null;
  failedJobsHistoryLimit?: number | null;
  jobTemplate?: { metadata?: Record<string, unknown>; spec?: JobSpec };
  [field: string]: unknown;
}

export interface CronJob extends KubeObject {
  spec?: CronJobSpec;
  status?: { active?: unknown[]; lastScheduleTime?: string | null; [field: string]: unknown };
}

const jobSpecOf = (obj: KubeObject): JobSpec => (obj as Job).spec ?? {};
const cronSpecOf = (obj: KubeObject): CronJobSpec => (obj as CronJob).spec ?? {};

/** The labels the job strategy generates: the prefixed ones and their legacy twins. */
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
export const LEGACY_JOB_NAME_LABEL = 'job-name';
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';

const MAX_INT32 = 2147483647;

// ---------------------------------------------------------------------------
// Defaults (pkg/apis/batch/v1/defaults.go)
// ---------------------------------------------------------------------------

/** SetDefaults_Job (the labels part aside, see jobLabelsFromTemplate). */
export function defaultJobSpec(spec: JobSpec): void {
  if (spec.completions == null && spec.parallelism == null) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  if (spec.parallelism == null) spec.parallelism = 1;
  if (spec.backoffLimit == null) spec.backoffLimit = spec.backoffLimitPerIndex != null ? MAX_INT32 : 6;
  if (spec.completionMode == null) spec.completionMode = 'NonIndexed';
  if (spec.suspend == null) spec.suspend = false;
  for (const rule of listOf((spec.podFailurePolicy as { rules?: { onPodConditions?: { status?: string }[] }[] } | undefined)?.rules)) {
    for (const pattern of listOf(rule.onPodConditions)) if (!pattern.status) pattern.status = 'True';
  }
  if (spec.podReplacementPolicy == null) spec.podReplacementPolicy = spec.podFailurePolicy != null ? 'Failed' : 'TerminatingOrFailed';
}

/** SetDefaults_Job: a job without labels takes its template's (kube shares the map, so the generated ones too). */
function jobLabelsFromTemplate(job: Job): void {
  const labels = job.spec?.template?.metadata?.labels;
  if (isRecord(labels) && Object.keys(labels).length > 0 && Object.keys(job.metadata.labels ?? {}).length === 0) job.metadata.labels = { ...labels };
}

export function defaultJob(obj: KubeObject): void {
  const spec = ensureRecord<JobSpec>(obj, 'spec');
  defaultJobSpec(spec);
  defaultPodTemplate(spec.template);
  jobLabelsFromTemplate(obj as Job);
}

export function defaultCronJob(obj: KubeObject): void {
  const spec = ensureRecord<CronJobSpec>(obj, 'spec');
  if (!spec.concurrencyPolicy) spec.concurrencyPolicy = 'Allow';
  if (spec.suspend == null) spec.suspend = false;
  if (spec.successfulJobsHistoryLimit == null) spec.successfulJobsHistoryLimit = 3;
  if (spec.failedJobsHistoryLimit == null) spec.failedJobsHistoryLimit = 1;
  defaultPodTemplate(spec.jobTemplate?.spec?.template);
}

// ---------------------------------------------------------------------------
// The job strategy: a generated selector unless spec.manualSelector (pkg/registry/batch/job/strategy.go)
// ---------------------------------------------------------------------------

export function generateJobSelector(job: Job): void {
  const spec = ensureRecord<JobSpec>(job, 'spec');
  if (spec.manualSelector === true) return;
  const template = ensureRecord<PodTemplateSpec>(spec, 'template');
  const meta = ensureRecord<NonNullable<PodTemplateSpec['metadata']>>(template as Record<string, unknown>, 'metadata');
  const labels = ensureRecord<StringMap>(meta, 'labels');
  const name = job.metadata.name ?? '';
  const uid = job.metadata.uid ?? '';
  // Labels the user set stay: a conflict is reported by validation.
  for (const key of [LEGACY_JOB_NAME_LABEL, JOB_NAME_LABEL]) if (!(key in labels)) labels[key] = name;
  for (const key of [LEGACY_CONTROLLER_UID_LABEL, CONTROLLER_UID_LABEL]) if (!(key in labels)) labels[key] = uid;
  const selector = ensureRecord<MetaV1LabelSelector>(spec, 'selector');
  const matchLabels = ensureRecord<StringMap>(selector as Record<string, unknown>, 'matchLabels');
  if (!(CONTROLLER_UID_LABEL in matchLabels)) matchLabels[CONTROLLER_UID_LABEL] = uid;
}

// ---------------------------------------------------------------------------
// Validation (pkg/apis/batch/validation)
// ---------------------------------------------------------------------------

/** ValidateHasLabel. */
function validateHasLabel(labels: StringMap | undefined, path: string, key: string, expected: string): FieldError[] {
  const labelPath = `${path}.labels[${key}]`;
  if (!labels || !(key in labels)) return [FieldError.required(labelPath, `must be '${expected}'`)];
  return labels[key] === expected ? [] : [FieldError.invalid(labelPath, goLabels(labels), `must be '${expected}'`)];
}

/** validateGeneratedSelector: the generated labels are on the template and the selector picks them. */
function validateGeneratedSelector(job: Job, requirePrefixedLabels: boolean): FieldError[] {
  const spec = job.spec ?? {};
  if (spec.manualSelector === true || !isRecord(spec.selector)) return [];
  const errs = job.metadata.uid ? [] : [FieldError.required('metadata.uid')];
  const labels = spec.template?.metadata?.labels;
  const name = job.metadata.name ?? '';
  const uid = job.metadata.uid ?? '';
  const expected: StringMap = { [LEGACY_CONTROLLER_UID_LABEL]: uid, [LEGACY_JOB_NAME_LABEL]: name };
  errs.push(...validateHasLabel(labels, 'spec.template.metadata', LEGACY_CONTROLLER_UID_LABEL, uid));
  errs.push(...validateHasLabel(labels, 'spec.template.metadata', LEGACY_JOB_NAME_LABEL, name));
  if (requirePrefixedLabels) {
    errs.push(...validateHasLabel(labels, 'spec.template.metadata', CONTROLLER_UID_LABEL, uid));
    errs.push(...validateHasLabel(labels, 'spec.template.metadata', JOB_NAME_LABEL, name));
    expected[CONTROLLER_UID_LABEL] = uid;
    expected[JOB_NAME_LABEL] = name;
  }
  const selector = asSelector(spec.selector);
  if (selector && !selector.matches(expected)) errs.push(FieldError.invalid('spec.selector', goLabelSelector(spec.selector), '`selector` not auto-generated'));
  return errs;
}

const COMPLETION_MODES: readonly string[] = ['NonIndexed', 'Indexed'];
const REPLACEMENT_POLICIES: readonly string[] = ['Failed', 'TerminatingOrFailed'];
const MAX_PARALLELISM_INDEXED = 100000;

function validateCompletionMode(spec: JobSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mode = spec.completionMode;
  if (mode != null && !COMPLETION_MODES.includes(mode)) errs.push(notSupported(child(path, 'completionMode'), mode, COMPLETION_MODES));
  if (mode === 'Indexed') {
    if (spec.completions == null) errs.push(FieldError.required(child(path, 'completions'), 'when completion mode is Indexed'));
    if (spec.parallelism != null && spec.parallelism > MAX_PARALLELISM_INDEXED) {
      errs.push(FieldError.invalid(child(path, 'parallelism'), spec.parallelism, `must be less than or equal to ${MAX_PARALLELISM_INDEXED} when completion mode is Indexed`));
    }
  } else {
    if (spec.backoffLimitPerIndex != null) errs.push(FieldError.invalid(child(path, 'backoffLimitPerIndex'), spec.backoffLimitPerIndex, 'requires indexed completion mode'));
    if (spec.maxFailedIndexes != null) errs.push(FieldError.invalid(child(path, 'maxFailedIndexes'), spec.maxFailedIndexes, 'requires indexed completion mode'));
  }
  return errs;
}

function validateJobRestartPolicy(spec: JobSpec, path: string): FieldError[] {
  const restartPath = `${path}.template.spec.restartPolicy`;
  const policy = spec.template?.spec?.restartPolicy ?? '';
  if (policy === 'Always' || policy === '') return [FieldError.required(restartPath, 'valid values: "OnFailure", "Never"')];
  if (policy !== 'OnFailure' && policy !== 'Never') return [notSupported(restartPath, policy, ['OnFailure', 'Never'])];
  if (spec.podFailurePolicy != null && policy !== 'Never') return [FieldError.invalid(restartPath, policy, 'only "Never" is supported when podFailurePolicy is specified')];
  return [];
}

/** validateJobSpec: what a Job and a CronJob's jobTemplate share. */
function validateJobSpecCommon(spec: JobSpec, path: string): FieldError[] {
  const errs = validateNonnegativeFields(spec, path, ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex', 'maxFailedIndexes']);
  if (spec.maxFailedIndexes != null && spec.backoffLimitPerIndex == null) errs.push(FieldError.required(child(path, 'backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
  errs.push(...validateCompletionMode(spec, path));
  if (spec.successPolicy != null && spec.completionMode !== 'Indexed') errs.push(FieldError.invalid(child(path, 'successPolicy'), spec.successPolicy, 'requires indexed completion mode'));
  const replacement = spec.podReplacementPolicy;
  if (replacement != null) {
    const allowed = spec.podFailurePolicy != null ? ['Failed'] : REPLACEMENT_POLICIES;
    if (!allowed.includes(replacement)) errs.push(notSupported(child(path, 'podReplacementPolicy'), replacement, allowed));
  }
  errs.push(...validatePodTemplateSpec(spec.template ?? {}, child(path, 'template')));
  errs.push(...validateJobRestartPolicy(spec, path));
  return errs;
}

/** ValidateJobSpec: the common checks, a required selector that selects the template. */
function validateJobSpec(spec: JobSpec): FieldError[] {
  const errs = validateJobSpecCommon(spec, 'spec');
  if (!isRecord(spec.selector)) errs.push(FieldError.required('spec.selector'));
  else errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  // Whether manual or generated, the selector must match the pods the job makes.
  errs.push(...validateSelectorMatchesTemplate(asSelector(spec.selector), spec.template, 'spec.template'));
  return errs;
}

export function validateJob(job: Job, requirePrefixedLabels: boolean): FieldError[] {
  const spec = job.spec ?? {};
  const errs = validateGeneratedSelector(job, requirePrefixedLabels);
  errs.push(...validateJobSpec(spec));
  if (spec.completionMode === 'Indexed' && typeof spec.completions === 'number' && spec.completions > 0) {
    // Indexed pods are named <job>-<index>: the longest such hostname must be a DNS label.
    const hostname = `${job.metadata.name ?? ''}-${spec.completions - 1}`;
    if (isDNS1123Label(hostname).length > 0) errs.push(FieldError.invalid('metadata.name', job.metadata.name ?? '', `will not able to create pod with invalid DNS label: ${hostname}`));
  }
  return errs;
}

const hasPrefixedLabels = (job: Job): boolean => CONTROLLER_UID_LABEL in (job.spec?.template?.metadata?.labels ?? {});

const JOB_IMMUTABLE: readonly string[] = ['selector', 'completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy'];

/** ValidateJobUpdate (kube also re-runs ValidateJob, so spec errors show twice, as here). */
export function validateJobUpdate(job: Job, old: Job): FieldError[] {
  const spec = job.spec ?? {};
  const prev = old.spec ?? {};
  const errs = [...validateJob(job, hasPrefixedLabels(old)), ...validateJobSpec(spec)];
  if (spec.completionMode !== 'Indexed') errs.push(...validateImmutableField(spec.completions, prev.completions, 'spec.completions'));
  else if (!semanticEqual(spec.completions, prev.completions) && spec.completions != null && spec.completions !== spec.parallelism) {
    errs.push(FieldError.invalid('spec.completions', spec.completions, 'can only be modified in tandem with spec.parallelism'));
  }
  // A suspended job's template may change (kube narrows that to scheduling directives and resources).
  if (prev.suspend !== true) errs.push(...validateImmutableField(spec.template, prev.template, 'spec.template'));
  for (const f of JOB_IMMUTABLE) errs.push(...validateImmutableField(spec[f], prev[f], `spec.${f}`));
  return errs;
}

const CONCURRENCY_POLICIES: readonly string[] = ['Allow', 'Forbid', 'Replace'];
const TIME_ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** validateTimeZone: an IANA name Go's time.LoadLocation knows, never Local. */
export function validateTimeZone(tz: string | null | undefined, path: string): FieldError[] {
  if (tz == null) return [];
  if (tz === '') return [FieldError.invalid(path, tz, 'timeZone must be nil or non-empty string')];
  if (tz.split('/').some((part) => part === '.' || part === '..' || part.startsWith('-') || !TIME_ZONE_PART.test(part))) {
    return [FieldError.invalid(path, tz, `unknown time zone ${tz}`)];
  }
  const errs: FieldError[] = [];
  if (tz.toLowerCase() === 'local') errs.push(FieldError.invalid(path, tz, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  if (!isKnownTimeZone(tz)) errs.push(FieldError.invalid(path, tz, `unknown time zone ${tz}`));
  return errs;
}

function validateSchedule(spec: CronJobSpec, old: CronJobSpec | undefined): FieldError[] {
  const schedule = spec.schedule ?? '';
  if (!schedule) return [FieldError.required('spec.schedule')];
  const errs: FieldError[] = [];
  const parseError = cronScheduleError(schedule);
  if (parseError) errs.push(FieldError.invalid('spec.schedule', schedule, parseError));
  const allowTZ = (old?.schedule ?? '').includes('TZ');
  if (allowTZ && schedule.includes('TZ') && spec.timeZone != null) {
    errs.push(FieldError.invalid('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  } else if (!allowTZ && schedule.includes('TZ')) {
    errs.push(FieldError.invalid('spec.schedule', schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  }
  return errs;
}

/** ValidateJobTemplateSpec: the selector is always generated for the jobs a CronJob makes. */
function validateJobTemplate(spec: JobSpec, path: string): FieldError[] {
  const errs = validateJobSpecCommon(spec, path);
  if (spec.selector != null) errs.push(FieldError.invalid(`${path}.selector`, goLabelSelector(spec.selector), '`selector` will be auto-generated'));
  if (spec.manualSelector === true) errs.push(notSupported(`${path}.manualSelector`, true, ['nil', 'false']));
  return errs;
}

export function validateCronJobSpec(spec: CronJobSpec, old?: CronJobSpec): FieldError[] {
  const errs = validateSchedule(spec, old);
  errs.push(...validateNonnegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
  if (!old || spec.timeZone !== old.timeZone) errs.push(...validateTimeZone(spec.timeZone, 'spec.timeZone'));
  const policy = spec.concurrencyPolicy ?? '';
  if (!policy) errs.push(FieldError.required('spec.concurrencyPolicy'));
  else if (!CONCURRENCY_POLICIES.includes(policy)) errs.push(notSupported('spec.concurrencyPolicy', policy, CONCURRENCY_POLICIES));
  errs.push(...validateJobTemplate(spec.jobTemplate?.spec ?? {}, 'spec.jobTemplate.spec'));
  errs.push(...validateNonnegativeFields(spec, 'spec', ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit']));
  return errs;
}

/** The cronjob controller names jobs <cronjob>-<11 characters>, and job names are DNS-1035 labels (63). */
const CRONJOB_NAME_MAX = 63 - 11;

export function validateCronJobCreate(obj: KubeObject): FieldError[] {
  const errs = validateCronJobSpec(cronSpecOf(obj));
  const name = obj.metadata.name ?? '';
  if (name.length > CRONJOB_NAME_MAX) errs.push(FieldError.invalid('metadata.name', name, maxLenError(CRONJOB_NAME_MAX)));
  return errs;
}

// ---------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------

export const jobStrategy: ResourceStrategy = {
  allowCreateOnUpdate: false,
  default: defaultJob,
  prepareForCreate(obj) {
    generateJobSelector(obj as Job);
    jobLabelsFromTemplate(obj as Job);
    (obj as Job).status = {};
  },
  validate: (obj) => validateJob(obj as Job, true),
  validateUpdate: (obj, old) => validateJobUpdate(obj as Job, old as Job),
  fields: (obj) => ({ 'status.successful': String((obj as Job).status?.succeeded ?? 0) }),
  unknownFieldLabel: (label) => `field label ${JSON.stringify(label)} not supported for batchv1.Job`,
};

export const cronJobStrategy: ResourceStrategy = {
  allowCreateOnUpdate: false,
  default: defaultCronJob,
  prepareForCreate(obj) {
    (obj as CronJob).status = {};
  },
  validate: validateCronJobCreate,
  validateUpdate: (obj, old) => validateCronJobSpec(cronSpecOf(obj), cronSpecOf(old)),
};

// ---------------------------------------------------------------------------
// Printing (printJob, printCronJob)
// ---------------------------------------------------------------------------

const batchDoc = (type: string, field: string): string => schemaDescription(batchV1Components, `io.k8s.api.batch.v1.${type}`, field);

const hasCondition = (job: Job, type: string): boolean => listOf(job.status?.conditions).some((c) => c.type === type && c.status === 'True');

export function jobStatusCell(job: Job): string {
  if (hasCondition(job, 'Complete')) return 'Complete';
  if (hasCondition(job, 'Failed')) return 'Failed';
  if (job.metadata.deletionTimestamp) return 'Terminating';
  if (hasCondition(job, 'Suspended')) return 'Suspended';
  if (hasCondition(job, 'FailureTarget')) return 'FailureTarget';
  if (hasCondition(job, 'SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

export function jobCompletionsCell(job: Job): string {
  const succeeded = job.status?.succeeded ?? 0;
  const spec = job.spec ?? {};
  if (spec.completions != null) return `${succeeded}/${spec.completions}`;
  const parallelism = spec.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

export function jobDurationCell(job: Job, now: number = Date.now()): string {
  const start = job.status?.startTime;
  if (!start) return '';
  const end = job.status?.completionTime;
  return humanDuration((end ? Date.parse(end) : now) - Date.parse(start));
}

const jobTemplate = (obj: KubeObject): PodTemplateSpec | undefined => jobSpecOf(obj).template;
const cronJobTemplate = (obj: KubeObject): PodTemplateSpec | undefined => cronSpecOf(obj).jobTemplate?.spec?.template;

const jobColumns: TableColumn[] = [
  { name: 'Status', type: 'string', description: 'Status of the job.', cell: (obj) => jobStatusCell(obj as Job) },
  { name: 'Completions', type: 'string', description: batchDoc('JobStatus', 'succeeded'), cell: (obj) => jobCompletionsCell(obj as Job) },
  { name: 'Duration', type: 'string', description: 'Time required to complete the job.', cell: (obj: KubeObject, now?: number) => jobDurationCell(obj as Job, now) },
  ageColumn,
  ...templateColumns(jobTemplate, { description: batchDoc('JobSpec', 'selector'), cell: (obj) => selectorCell(jobSpecOf(obj).selector ?? undefined) }),
];

const cronJobColumns: TableColumn[] = [
  { name: 'Schedule', type: 'string', description: batchDoc('CronJobSpec', 'schedule'), cell: (obj) => cronSpecOf(obj).schedule ?? '' },
  { name: 'Timezone', type: 'string', description: batchDoc('CronJobSpec', 'timeZone'), cell: (obj) => cronSpecOf(obj).timeZone ?? NONE },
  {
    name: 'Suspend',
    type: 'boolean',
    description: batchDoc('CronJobSpec', 'suspend'),
    cell: (obj) => {
      // printBoolPtr
      const suspend = cronSpecOf(obj).suspend;
      return suspend == null ? '<unset>' : suspend ? 'True' : 'False';
    },
  },
  { name: 'Active', type: 'integer', description: batchDoc('CronJobStatus', 'active'), cell: (obj) => listOf((obj as CronJob).status?.active).length },
  {
    name: 'Last Schedule',
    type: 'string',
    description: batchDoc('CronJobStatus', 'lastScheduleTime'),
    cell: (obj: KubeObject, now?: number) => {
      const last = (obj as CronJob).status?.lastScheduleTime;
      return last ? since(last, now) : NONE;
    },
  },
  ageColumn,
  // metav1.FormatLabelSelector: "<none>" for a missing selector.
  ...templateColumns(cronJobTemplate, { description: batchDoc('JobSpec', 'selector'), cell: (obj) => (cronSpecOf(obj).jobTemplate?.spec?.selector ? selectorCell(cronSpecOf(obj).jobTemplate?.spec?.selector ?? undefined) || NONE : NONE) }),
];

// ---------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------

export const jobsResource: ResourceDefinition = {
  tracksGeneration: true,
  group: 'batch',
  version: 'v1',
  kind: 'Job',
  plural: 'jobs',
  singular: 'job',
  categories: ['all'],
  namespaced: true,
  subresources: { status: statusSubresource() },
  strategy: jobStrategy,
  tableColumns: jobColumns,
};

export const cronJobsResource: ResourceDefinition = {
  tracksGeneration: true,
  group: 'batch',
  version: 'v1',
  kind: 'CronJob',
  plural: 'cronjobs',
  singular: 'cronjob',
  shortNames: ['cj'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: statusSubresource() },
  strategy: cronJobStrategy,
  tableColumns: cronJobColumns,
};

export const batchResources: ResourceDefinition[] = [jobsResource, cronJobsResource];
