import { describe, expect, it } from 'vitest';
import { cronJobsResource, jobsResource, type CronJob, type Job, type JobSpec } from './batch.resources';
import { cells, create, messages, meta, update } from './strategy.testing';

const podTemplate = (restartPolicy = 'Never', labels?: Record<string, string>) => ({
  metadata: labels ? { labels } : {},
  spec: { restartPolicy, containers: [{ name: 'pi', image: 'perl:5.34' }] },
});
const job = (spec: JobSpec = {}, name = 'pi'): Job => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { ...meta(name, 'default'), uid: 'uid-1' }, spec: { template: podTemplate(), ...spec } });
const cronJob = (spec: Partial<NonNullable<CronJob['spec']>> = {}, name = 'tick'): CronJob => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: meta(name, 'default'),
  spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: podTemplate('OnFailure') } }, ...spec },
});

describe('batch/v1: resources', () => {
  it('serves jobs and cronjobs in category all, cronjobs as cj', () => {
    expect(jobsResource).toMatchObject({ group: 'batch', kind: 'Job', categories: ['all'], subresources: { status: expect.anything() } });
    expect(cronJobsResource).toMatchObject({ kind: 'CronJob', shortNames: ['cj'], categories: ['all'], subresources: { status: expect.anything() } });
  });
});

describe('batch/v1: jobs', () => {
  it('defaults as SetDefaults_Job and generates the selector and labels as the job strategy does', () => {
    const j = job();
    expect(messages(create(jobsResource, j))).toEqual([]);
    expect(j.spec).toMatchObject({ completions: 1, parallelism: 1, backoffLimit: 6, completionMode: 'NonIndexed', suspend: false, podReplacementPolicy: 'TerminatingOrFailed' });
    const generated = { 'batch.kubernetes.io/controller-uid': 'uid-1', 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': 'uid-1', 'job-name': 'pi' };
    expect(j.spec?.selector).toEqual({ matchLabels: { 'batch.kubernetes.io/controller-uid': 'uid-1' } });
    expect(j.spec?.template?.metadata?.labels).toEqual(generated);
    expect(j.metadata.labels).toEqual(generated);
  });

  it('keeps a manual selector and checks it against the template', () => {
    const j = job({ manualSelector: true, selector: { matchLabels: { app: 'x' } }, template: podTemplate('Never', { app: 'y' }) });
    expect(messages(create(jobsResource, j))).toEqual(['spec.template.metadata.labels: Invalid value: map[string]string{"app":"y"}: `selector` does not match template `labels`']);
  });

  it('refuses a hand-written selector without manualSelector', () => {
    const j = job({ selector: { matchLabels: { app: 'x' } }, template: podTemplate('Never', { app: 'x' }) });
    expect(messages(create(jobsResource, j))).toContain('spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"x", "batch.kubernetes.io/controller-uid":"uid-1"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` not auto-generated');
  });

  it('needs restartPolicy OnFailure or Never', () => {
    expect(messages(create(jobsResource, job({ template: podTemplate('Always') })))).toEqual(['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']);
  });

  it('keeps the template and completions immutable while running', () => {
    const old = job();
    create(jobsResource, old);
    const next = structuredClone(old);
    next.spec!.completions = 3;
    expect(messages(update(jobsResource, next, old))).toEqual(['spec.completions: Invalid value: 3: field is immutable']);
  });

  it('prints status, completions and duration', () => {
    const j = job();
    create(jobsResource, j);
    j.status = { succeeded: 1, startTime: '2024-01-01T00:00:00Z', completionTime: '2024-01-01T00:00:42Z', conditions: [{ type: 'Complete', status: 'True' }] };
    expect(cells(jobsResource, j)).toMatchObject({ Status: 'Complete', Completions: '1/1', Duration: '42s', Age: '10m', Containers: 'pi', Images: 'perl:5.34', Selector: 'batch.kubernetes.io/controller-uid=uid-1' });
    const running = job({ completions: null, parallelism: 3 });
    running.spec!.completions = undefined;
    expect(cells(jobsResource, running)).toMatchObject({ Status: 'Running', Completions: '0/1 of 3', Duration: '' });
  });
});

describe('batch/v1: cronjobs', () => {
  it('defaults as SetDefaults_CronJob', () => {
    const c = cronJob();
    expect(messages(create(cronJobsResource, c))).toEqual([]);
    expect(c.spec).toMatchObject({ concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    expect(c.spec?.jobTemplate?.spec?.template?.spec).toMatchObject({ dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30 });
    expect(c.spec?.jobTemplate?.spec?.backoffLimit).toBeUndefined();
  });

  it('reports a bad schedule with the parser message', () => {
    expect(messages(create(cronJobsResource, cronJob({ schedule: '*/5 * * *' })))).toEqual(['spec.schedule: Invalid value: "*/5 * * *": expected exactly 5 fields, found 4: [*/5 * * *]']);
    expect(messages(create(cronJobsResource, cronJob({ schedule: 'TZ=UTC 0 * * * *' })))).toEqual(['spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead']);
  });

  it('validates the time zone, the policy, the job template selector and the name length', () => {
    const c = cronJob({ timeZone: 'Mars/Base', concurrencyPolicy: 'Sometimes' }, 'x'.repeat(53));
    c.spec!.jobTemplate!.spec!.selector = { matchLabels: { a: 'b' } };
    expect(messages(create(cronJobsResource, c))).toEqual([
      'spec.timeZone: Invalid value: "Mars/Base": unknown time zone Mars/Base',
      'spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
      'spec.jobTemplate.spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` will be auto-generated',
      `metadata.name: Invalid value: "${'x'.repeat(53)}": must be no more than 52 characters`,
    ]);
  });

  it('prints schedule, time zone, suspend, active and last schedule', () => {
    const c = cronJob({ timeZone: 'Europe/Berlin' });
    create(cronJobsResource, c);
    expect(cells(cronJobsResource, c)).toMatchObject({ Schedule: '*/5 * * * *', Timezone: 'Europe/Berlin', Suspend: 'False', Active: 0, 'Last Schedule': '<none>', Age: '10m', Selector: '<none>' });
    expect(messages(update(cronJobsResource, structuredClone(c), c))).toEqual([]);
  });
});
