/**
 * Admission webhooks (kube's k8s.io/apiserver/pkg/admission/plugin/webhook): MutatingAdmissionWebhook calls the
 * matching mutating webhooks in order and applies their JSONPatches (reinvoking IfNeeded ones once when a later
 * webhook changed the object); ValidatingAdmissionWebhook calls the matching validating webhooks in parallel.
 * Configurations are compiled once per change and indexed by what rules look at, so a request nothing matches
 * costs one map lookup.
 */
import { randomUUID } from 'node:crypto';
import { applyJsonPatch, Errors, StatusError, type KubeObject, type LabelSelector, type StatusReason } from '@kube/apimachinery';
import type { AdmissionAttributes, AdmissionPlugin } from '../admission.types';
import { celValue, type Activation } from '../cel/admission.cel';
import type { AdmissionSources, ConfigurationSet } from '../configuration/admission.sources';
import { compileMatchConditions, evaluateMatchConditions, type CompiledMatchCondition } from '../matching/match-conditions';
import { matchesNamespaceSelector, matchesObjectSelector, selectorOf } from '../matching/object.matcher';
import { isExemptAdmissionConfiguration, ruleKey, ruleMatches, ruleRequest, type RuleRequest } from '../matching/rule.matcher';
import type { Webhook, WebhookConfiguration } from '../registration/admissionregistration.types';
import { admissionRequest, admissionResponse, admissionReview, decodeAdmissionReview, type AdmissionRequest, type AdmissionResponse, type AdmissionResult } from './admission-review';
import { WebhookClient } from './webhook.client';

const REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** One webhook of one configuration, compiled. */
class CompiledWebhook {
  readonly namespaceSelector?: LabelSelector;
  readonly objectSelector?: LabelSelector;
  readonly conditions: CompiledMatchCondition[];
  readonly reviewVersion: string;
  private clientOf?: WebhookClient;

  constructor(
    readonly hook: Webhook,
    private readonly sources: AdmissionSources,
  ) {
    this.namespaceSelector = selectorOf(hook.namespaceSelector);
    this.objectSelector = selectorOf(hook.objectSelector);
    this.conditions = compileMatchConditions(hook.matchConditions);
    this.reviewVersion = (hook.admissionReviewVersions ?? []).find((v) => REVIEW_VERSIONS.includes(v)) ?? 'v1';
  }

  get name(): string {
    return this.hook.name;
  }

  get ignoreFailures(): boolean {
    return this.hook.failurePolicy === 'Ignore';
  }

  matchesRules(r: RuleRequest): boolean {
    return (this.hook.rules ?? []).some((rule) => ruleMatches(rule, r));
  }

  client(): WebhookClient {
    this.clientOf ??= new WebhookClient(this.hook.clientConfig ?? {}, this.sources.resolveService, (this.hook.timeoutSeconds ?? 10) * 1000);
    return this.clientOf;
  }
}

/** kube's ErrCallingWebhook: the webhook could not be asked, or its answer was unusable (failurePolicy decides). */
class CallingWebhookError extends Error {
  constructor(name: string, reason: string) {
    super(`failed calling webhook ${JSON.stringify(name)}: ${reason}`);
  }
}

/** kube's webhookerrors.ToStatusErr: a webhook's refusal as the Status the client sees. */
export function deniedBy(name: string, result: AdmissionResult | undefined): StatusError {
  const prefix = `admission webhook ${JSON.stringify(name)} denied the request`;
  const message = result?.message ? `${prefix}: ${result.message}` : result?.reason ? `${prefix}: ${result.reason}` : `${prefix} without explanation`;
  const code = !result?.code || result.code < 400 ? 400 : result.code;
  const details = result?.details;
  return new StatusError(code, (result?.reason ?? '') as StatusReason, message, details);
}

/** The webhooks of one kind of configuration, rebuilt when the configurations change, indexed by rule key. */
class WebhookIndex {
  private generation = -1;
  private hooks: CompiledWebhook[] = [];
  private readonly byRule = new Map<string, CompiledWebhook[]>();

  constructor(
    private readonly set: ConfigurationSet,
    private readonly sources: AdmissionSources,
  ) {}

  candidates(r: RuleRequest): readonly CompiledWebhook[] {
    if (this.set.generation !== this.generation) this.rebuild();
    if (this.hooks.length === 0) return this.hooks;
    const key = ruleKey(r);
    let found = this.byRule.get(key);
    if (!found) {
      found = this.hooks.filter((h) => h.matchesRules(r));
      this.byRule.set(key, found);
    }
    return found;
  }

  private rebuild(): void {
    this.generation = this.set.generation;
    // Replaced clients are dropped, not closed: calls in flight finish, idle sockets time out.
    this.hooks = this.set.list().flatMap((c) => ((c as WebhookConfiguration).webhooks ?? []).map((hook) => new CompiledWebhook(hook, this.sources)));
    this.byRule.clear();
  }
}

/** One admission attempt: the request sent to every webhook (one uid), built once. */
class Attempt {
  private request?: AdmissionRequest;
  private vars?: Activation;
  readonly uid = randomUUID();

  constructor(readonly attrs: AdmissionAttributes) {}

  /** The request as it is now (a mutating webhook's patch changes the object the next one sees). */
  review(): AdmissionRequest {
    this.request ??= admissionRequest(this.attrs, this.uid);
    return this.request;
  }

  invalidate(): void {
    this.request = undefined;
    this.vars = undefined;
  }

  activation(): Activation {
    this.vars ??= { object: celValue(this.attrs.object ?? null), oldObject: celValue(this.attrs.oldObject ?? null), request: celValue(this.review()), authorizer: null };
    return this.vars;
  }
}

abstract class WebhookAdmission implements AdmissionPlugin {
  abstract readonly name: string;
  protected readonly index: WebhookIndex;

  constructor(
    protected readonly sources: AdmissionSources,
    mutating: boolean,
  ) {
    this.index = new WebhookIndex(sources.set(mutating ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations'), sources);
  }

  /** The webhooks whose rules select this request (none for admission's own configuration objects). */
  protected async candidates(a: AdmissionAttributes): Promise<readonly CompiledWebhook[]> {
    if (isExemptAdmissionConfiguration(a.resource.group, a.resource.plural)) return [];
    const ready = this.sources.ready(a);
    if (ready) await ready;
    return this.index.candidates(ruleRequest(a));
  }

  /** Selectors and matchConditions; a condition that cannot be evaluated fails the request unless failures are ignored. */
  protected async shouldCall(h: CompiledWebhook, attempt: Attempt): Promise<boolean> {
    const a = attempt.attrs;
    if (!matchesObjectSelector(h.objectSelector, a)) return false;
    if (!(await matchesNamespaceSelector(h.namespaceSelector, a, this.sources))) return false;
    if (h.conditions.length === 0) return true;
    const result = evaluateMatchConditions(h.conditions, () => attempt.activation());
    if (result.error && !h.ignoreFailures) throw Errors.forbidden({ group: a.resource.group, resource: a.resource.plural }, a.name, new CallingWebhookError(h.name, result.error).message);
    return result.matches;
  }

  /** Calls one webhook; returns its response, or undefined when a failure is ignored (failurePolicy Ignore). */
  protected async call(h: CompiledWebhook, attempt: Attempt, mutating: boolean): Promise<AdmissionResponse | undefined> {
    const a = attempt.attrs;
    const sideEffects = h.hook.sideEffects;
    if (a.ctx.dryRun && sideEffects !== 'None' && sideEffects !== 'NoneOnDryRun') throw Errors.badRequest(`admission webhook ${JSON.stringify(h.name)} does not support dry run`);
    const request = attempt.review();
    let response: AdmissionResponse;
    try {
      let body: unknown;
      try {
        // client-go decodes the answer into an AdmissionReview: a value of the wrong type fails the call itself.
        body = decodeAdmissionReview(await h.client().post(admissionReview(request, h.reviewVersion)));
      } catch (err) {
        throw new CallingWebhookError(h.name, `failed to call webhook: ${(err as Error).message}`);
      }
      try {
        response = admissionResponse(body, request.uid, h.reviewVersion, mutating);
      } catch (err) {
        throw new CallingWebhookError(h.name, `received invalid webhook response: ${(err as Error).message}`);
      }
    } catch (err) {
      if (h.ignoreFailures) return undefined;
      throw Errors.internal(err);
    }
    for (const w of response.warnings ?? []) a.ctx.warnings.push(w);
    if (!response.allowed) throw deniedBy(h.name, response.status);
    return response;
  }
}

/** kube's MutatingAdmissionWebhook. */
export class MutatingWebhookAdmission extends WebhookAdmission {
  readonly name = 'MutatingAdmissionWebhook';

  constructor(sources: AdmissionSources) {
    super(sources, true);
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    const hooks = await this.candidates(a);
    if (hooks.length === 0) return;
    const attempt = new Attempt(a);
    const called: CompiledWebhook[] = [];
    const reinvoke = new Set<CompiledWebhook>();
    for (const h of hooks) {
      if (!(await this.shouldCall(h, attempt))) continue;
      if (await this.mutate(h, attempt)) for (const earlier of called) if (earlier !== h && earlier.hook.reinvocationPolicy === 'IfNeeded') reinvoke.add(earlier);
      called.push(h);
    }
    // kube's reinvocation: once, for IfNeeded webhooks that ran before a later webhook changed the object.
    for (const h of hooks) if (reinvoke.has(h)) await this.mutate(h, attempt);
  }

  /** Calls a mutating webhook and applies its patch to the request's object in place; true when it changed. */
  private async mutate(h: CompiledWebhook, attempt: Attempt): Promise<boolean> {
    const response = await this.call(h, attempt, true);
    const obj = attempt.attrs.object;
    if (!response?.patch || !obj) return false;
    let patched: KubeObject;
    try {
      const ops = JSON.parse(Buffer.from(response.patch, 'base64').toString('utf8')) as unknown;
      patched = applyJsonPatch(obj, ops) as KubeObject;
    } catch (err) {
      throw Errors.internal(new CallingWebhookError(h.name, `JSONPatch could not be applied: ${(err as Error).message}`));
    }
    if (JSON.stringify(patched) === JSON.stringify(obj)) return false;
    for (const key of Object.keys(obj)) delete (obj as Record<string, unknown>)[key];
    Object.assign(obj, patched);
    attempt.invalidate();
    return true;
  }
}

/** kube's ValidatingAdmissionWebhook. */
export class ValidatingWebhookAdmission extends WebhookAdmission {
  readonly name = 'ValidatingAdmissionWebhook';

  constructor(sources: AdmissionSources) {
    super(sources, false);
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    const hooks = await this.candidates(a);
    if (hooks.length === 0) return;
    const attempt = new Attempt(a);
    const results = await Promise.allSettled(hooks.map(async (h) => ((await this.shouldCall(h, attempt)) ? this.call(h, attempt, false) : undefined)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
