/**
 * flowcontrol.apiserver.k8s.io/v1 FlowSchema and PriorityLevelConfiguration (pkg/apis/flowcontrol/validation,
 * pkg/registry/flowcontrol), with kube's defaults, the mandatory objects' fixed specs and kube's Table columns.
 */
import { FieldError, isDNS1123Subdomain, type KubeObject } from '@kube/apimachinery';
import {
  defaultFlowSchema,
  defaultPriorityLevel,
  FLOW_SCHEMA_CONDITION_DANGLING,
  FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE,
  FLOWCONTROL_GROUP,
  MANDATORY_FLOW_SCHEMAS,
  MANDATORY_PRIORITY_LEVELS,
  NAME_ALL,
  statusSubresource,
  type Condition,
  type FlowSchema,
  type NonResourcePolicyRule,
  type PolicyRulesWithSubjects,
  type PriorityLevelConfiguration,
  type ResourceDefinition,
  type ResourcePolicyRule,
  type ResourceStrategy,
  type Subject,
} from '@kube/apiserver';
import { ageColumn, NONE } from './table.helpers';
import { invalidEach, listOf, semanticEqual, validateDNS1123Label } from './validation.helpers';

const SUPPORTED_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const SUPPORTED_SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];
const SUPPORTED_DISTINGUISHERS = ['ByNamespace', 'ByUser'];
const SUPPORTED_ENABLEMENTS = ['Exempt', 'Limited'];
const SUPPORTED_LIMIT_RESPONSES = ['Queue', 'Reject'];
const MAX_QUEUES = 10_000_000;
/** shufflesharding.MaxHashBits */
const MAX_HASH_BITS = 60;
const NS_ERR_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

const mandatoryFlowSchemas = new Map(MANDATORY_FLOW_SCHEMAS.map((fs) => [fs.metadata.name as string, fs]));
const mandatoryLevels = new Map(MANDATORY_PRIORITY_LEVELS.map((pl) => [pl.metadata.name as string, pl]));

const hasWildcard = (list: readonly string[]): boolean => list.includes(NAME_ALL);

function validateVerbs(verbs: readonly string[], path: string): FieldError[] {
  if (verbs.length === 0) return [FieldError.required(`${path}.verbs`, 'verbs must contain at least one value')];
  if (hasWildcard(verbs)) return verbs.length > 1 ? [FieldError.invalid(`${path}.verbs`, verbs, "if '*' is present, must not specify other verbs")] : [];
  return verbs.every((v) => SUPPORTED_VERBS.includes(v)) ? [] : [FieldError.notSupported(`${path}.verbs`, verbs, SUPPORTED_VERBS)];
}

function validateSubject(s: Subject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const forbid = (field: 'user' | 'group' | 'serviceAccount', kind: string): void => {
    if (s[field] != null) errs.push(FieldError.forbidden(`${path}.${field}`, `${field} is forbidden when subject kind is not '${kind}'`));
  };
  switch (s.kind) {
    case 'ServiceAccount': {
      const sa = s.serviceAccount;
      if (!sa) errs.push(FieldError.required(`${path}.serviceAccount`, "serviceAccount is required when subject kind is 'ServiceAccount'"));
      else {
        if (!sa.name) errs.push(FieldError.required(`${path}.serviceAccount.name`));
        else if (sa.name !== NAME_ALL) errs.push(...invalidEach(`${path}.serviceAccount.name`, sa.name, isDNS1123Subdomain(sa.name)));
        if (!sa.namespace) errs.push(FieldError.required(`${path}.serviceAccount.namespace`, 'must specify namespace for service account'));
        else errs.push(...validateDNS1123Label(sa.namespace, `${path}.serviceAccount.namespace`));
      }
      forbid('user', 'User');
      forbid('group', 'Group');
      break;
    }
    case 'User':
      if (!s.user) errs.push(FieldError.required(`${path}.user`, "user is required when subject kind is 'User'"));
      else if (!s.user.name) errs.push(FieldError.required(`${path}.user.name`));
      forbid('serviceAccount', 'ServiceAccount');
      forbid('group', 'Group');
      break;
    case 'Group':
      if (!s.group) errs.push(FieldError.required(`${path}.group`, "group is required when subject kind is 'Group'"));
      else if (!s.group.name) errs.push(FieldError.required(`${path}.group.name`));
      forbid('serviceAccount', 'ServiceAccount');
      forbid('user', 'User');
      break;
    default:
      errs.push(FieldError.notSupported(`${path}.kind`, s.kind, SUPPORTED_SUBJECT_KINDS));
  }
  return errs;
}

function validateResourceRule(rule: ResourcePolicyRule, path: string): FieldError[] {
  const errs = validateVerbs(listOf(rule.verbs), path);
  const groups = listOf(rule.apiGroups);
  if (groups.length === 0) errs.push(FieldError.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  else if (groups.length > 1 && hasWildcard(groups)) errs.push(FieldError.invalid(`${path}.apiGroups`, groups, "if '*' is present, must not specify other api groups"));
  const resources = listOf(rule.resources);
  if (resources.length === 0) errs.push(FieldError.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  else if (resources.length > 1 && hasWildcard(resources)) errs.push(FieldError.invalid(`${path}.resources`, resources, "if '*' is present, must not specify other resources"));
  const namespaces = listOf(rule.namespaces);
  if (namespaces.length === 0 && !rule.clusterScope) {
    errs.push(FieldError.required(`${path}.namespaces`, 'resource rules that are not cluster scoped must supply at least one namespace'));
  } else if (hasWildcard(namespaces)) {
    if (namespaces.length > 1) errs.push(FieldError.invalid(`${path}.namespaces`, namespaces, "if '*' is present, must not specify other namespaces"));
  } else {
    namespaces.forEach((ns, i) => {
      for (const e of validateDNS1123Label(ns, `${path}.namespaces[${i}]`)) errs.push(FieldError.invalid(e.field, ns, NS_ERR_INTRO + e.detail));
    });
  }
  return errs;
}

/** ValidateNonResourceURLPath */
function validateNonResourceURL(url: string, path: string): FieldError | undefined {
  if (url === '') return FieldError.invalid(path, url, 'must not be empty');
  if (url === '/') return undefined;
  if (!url.startsWith('/')) return FieldError.invalid(path, url, 'must start with slash');
  if (url.includes(' ')) return FieldError.invalid(path, url, 'must not contain white-space');
  if (url.includes('//')) return FieldError.invalid(path, url, 'must not contain double slash');
  const wildcards = url.split('*').length - 1;
  if (wildcards > 1 || (wildcards === 1 && !url.endsWith('/*'))) return FieldError.invalid(path, url, 'wildcard can only do suffix matching');
  return undefined;
}

function validateNonResourceRule(rule: NonResourcePolicyRule, path: string): FieldError[] {
  const errs = validateVerbs(listOf(rule.verbs), path);
  const urls = listOf(rule.nonResourceURLs);
  if (urls.length === 0) errs.push(FieldError.required(`${path}.nonResourceURLs`, 'nonResourceURLs must contain at least one value'));
  else if (hasWildcard(urls)) {
    if (urls.length > 1) errs.push(FieldError.invalid(`${path}.nonResourceURLs`, urls, "if '*' is present, must not specify other non-resource URLs"));
  } else {
    urls.forEach((u, i) => {
      const e = validateNonResourceURL(u, `${path}.nonResourceURLs[${i}]`);
      if (e) errs.push(e);
    });
  }
  return errs;
}

function validateRule(rule: PolicyRulesWithSubjects, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const subjects = listOf(rule.subjects);
  if (subjects.length === 0) errs.push(FieldError.required(`${path}.subjects`, 'subjects must contain at least one value'));
  subjects.forEach((s, i) => errs.push(...validateSubject(s, `${path}.subjects[${i}]`)));
  const resourceRules = listOf(rule.resourceRules);
  const nonResourceRules = listOf(rule.nonResourceRules);
  if (resourceRules.length === 0 && nonResourceRules.length === 0) errs.push(FieldError.required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  resourceRules.forEach((r, i) => errs.push(...validateResourceRule(r, `${path}.resourceRules[${i}]`)));
  nonResourceRules.forEach((r, i) => errs.push(...validateNonResourceRule(r, `${path}.nonResourceRules[${i}]`)));
  return errs;
}

function validateConditions(conditions: readonly Condition[] | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  listOf(conditions).forEach((c, i) => {
    if (seen.has(c.type)) errs.push(FieldError.duplicate(`status.conditions[${i}].type`, c.type));
    seen.add(c.type);
    if (!c.type) errs.push(FieldError.required(`status.conditions[${i}].type`, 'must not be empty'));
  });
  return errs;
}

export function validateFlowSchema(fs: FlowSchema): FieldError[] {
  const errs: FieldError[] = [];
  const name = fs.metadata.name ?? '';
  const spec = fs.spec ?? ({} as FlowSchema['spec']);
  const precedence = spec.matchingPrecedence ?? 0;
  if (precedence <= 0) errs.push(FieldError.invalid('spec.matchingPrecedence', precedence, 'must be a positive value'));
  if (precedence > FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE) errs.push(FieldError.invalid('spec.matchingPrecedence', precedence, `must not be greater than ${FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE}`));
  if (precedence === 1 && name !== 'exempt') errs.push(FieldError.invalid('spec.matchingPrecedence', precedence, "only the schema named 'exempt' may have matchingPrecedence 1"));
  const dm = spec.distinguisherMethod;
  if (dm && !SUPPORTED_DISTINGUISHERS.includes(dm.type)) errs.push(FieldError.notSupported('spec.distinguisherMethod.type', dm.type, SUPPORTED_DISTINGUISHERS));
  const pl = spec.priorityLevelConfiguration?.name ?? '';
  if (pl) errs.push(...invalidEach('spec.priorityLevelConfiguration.name', pl, isDNS1123Subdomain(pl)));
  else errs.push(FieldError.required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  listOf(spec.rules).forEach((r, i) => errs.push(...validateRule(r, `spec.rules[${i}]`)));
  const mandatory = mandatoryFlowSchemas.get(name);
  if (mandatory && !semanticEqual(spec, mandatory.spec)) errs.push(FieldError.invalid('spec', spec, `spec of '${name}' must equal the fixed value`));
  errs.push(...validateConditions(fs.status?.conditions));
  return errs;
}

/** shufflesharding.RequiredEntropyBits */
function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(Math.log2(deckSize) * handSize);
}

function validateShares(value: number | null | undefined, path: string): FieldError[] {
  return typeof value === 'number' && value < 0 ? [FieldError.invalid(path, value, 'must be a non-negative integer')] : [];
}

function validateLendable(value: number | null | undefined, path: string): FieldError[] {
  return typeof value === 'number' && (value < 0 || value > 100) ? [FieldError.invalid(path, value, 'must be between 0 and 100, inclusive')] : [];
}

function validateLimited(limited: NonNullable<PriorityLevelConfiguration['spec']['limited']>, path: string): FieldError[] {
  const errs = validateShares(limited.nominalConcurrencyShares, `${path}.nominalConcurrencyShares`);
  const lr = limited.limitResponse ?? { type: '' };
  switch (lr.type) {
    case 'Reject':
      if (lr.queuing) errs.push(FieldError.forbidden(`${path}.limitResponse.queuing`, 'must be nil if limited.limitResponse.type is not Limited'));
      break;
    case 'Queue': {
      const q = lr.queuing;
      const qp = `${path}.limitResponse.queuing`;
      if (!q) {
        errs.push(FieldError.required(qp, 'must not be empty if limited.limitResponse.type is Limited'));
        break;
      }
      const { queues = 0, handSize = 0, queueLengthLimit = 0 } = q;
      if (queueLengthLimit <= 0) errs.push(FieldError.invalid(`${qp}.queueLengthLimit`, queueLengthLimit, 'must be positive'));
      if (queues <= 0) errs.push(FieldError.invalid(`${qp}.queues`, queues, 'must be positive'));
      else if (queues > MAX_QUEUES) errs.push(FieldError.invalid(`${qp}.queues`, queues, `must not be greater than ${MAX_QUEUES}`));
      if (handSize <= 0) errs.push(FieldError.invalid(`${qp}.handSize`, handSize, 'must be positive'));
      else if (handSize > queues) errs.push(FieldError.invalid(`${qp}.handSize`, handSize, `should not be greater than queues (${queues})`));
      else if (requiredEntropyBits(queues, handSize) > MAX_HASH_BITS) {
        errs.push(FieldError.invalid(`${qp}.handSize`, handSize, `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${MAX_HASH_BITS}`));
      }
      break;
    }
    default:
      errs.push(FieldError.notSupported(`${path}.limitResponse.type`, lr.type, SUPPORTED_LIMIT_RESPONSES));
  }
  errs.push(...validateLendable(limited.lendablePercent, `${path}.lendablePercent`));
  if (typeof limited.borrowingLimitPercent === 'number' && limited.borrowingLimitPercent < 0) {
    errs.push(FieldError.invalid(`${path}.borrowingLimitPercent`, limited.borrowingLimitPercent, 'if specified, must be a non-negative integer'));
  }
  return errs;
}

export function validatePriorityLevel(pl: PriorityLevelConfiguration): FieldError[] {
  const errs: FieldError[] = [];
  const name = pl.metadata.name ?? '';
  const spec = pl.spec ?? ({} as PriorityLevelConfiguration['spec']);
  if ((name === 'exempt') !== (spec.type === 'Exempt')) errs.push(FieldError.invalid('spec.type', spec.type, "type must be 'Exempt' if and only if name is 'exempt'"));
  switch (spec.type) {
    case 'Exempt':
      if (spec.limited) errs.push(FieldError.forbidden('spec.limited', 'must be nil if the type is not Limited'));
      if (spec.exempt) errs.push(...validateShares(spec.exempt.nominalConcurrencyShares, 'spec.exempt.nominalConcurrencyShares'), ...validateLendable(spec.exempt.lendablePercent, 'spec.exempt.lendablePercent'));
      break;
    case 'Limited':
      if (spec.exempt) errs.push(FieldError.forbidden('spec.exempt', 'must be nil if the type is Limited'));
      if (!spec.limited) errs.push(FieldError.required('spec.limited', 'must not be empty when type is Limited'));
      else errs.push(...validateLimited(spec.limited, 'spec.limited'));
      break;
    default:
      errs.push(FieldError.notSupported('spec.type', spec.type, SUPPORTED_ENABLEMENTS));
  }
  const mandatory = mandatoryLevels.get(name);
  if (mandatory) {
    // The exempt level's `exempt` settings are the one part of a mandatory spec users may change.
    if (name === 'exempt') {
      if (!semanticEqual({ ...spec, exempt: undefined }, { ...mandatory.spec, exempt: undefined })) {
        errs.push(FieldError.invalid('spec', spec, `spec of '${name}' except the 'spec.exempt' field must equal the fixed value`));
      }
    } else if (!semanticEqual(spec, mandatory.spec)) {
      errs.push(FieldError.invalid('spec', spec, `spec of '${name}' must equal the fixed value`));
    }
  }
  errs.push(...validateConditions(pl.status?.conditions));
  return errs;
}

const flowSchemaStrategy: ResourceStrategy = {
  allowCreateOnUpdate: false,
  default: (obj: KubeObject) => defaultFlowSchema(obj as FlowSchema),
  validate: (obj: KubeObject) => validateFlowSchema(obj as FlowSchema),
  validateUpdate: (obj: KubeObject) => validateFlowSchema(obj as FlowSchema),
};

const priorityLevelStrategy: ResourceStrategy = {
  allowCreateOnUpdate: false,
  default: (obj: KubeObject) => defaultPriorityLevel(obj as PriorityLevelConfiguration),
  validate: (obj: KubeObject) => validatePriorityLevel(obj as PriorityLevelConfiguration),
  validateUpdate: (obj: KubeObject) => validatePriorityLevel(obj as PriorityLevelConfiguration),
};

function danglingStatus(fs: FlowSchema): string {
  return fs.status?.conditions?.find((c) => c.type === FLOW_SCHEMA_CONDITION_DANGLING)?.status ?? '?';
}

export const flowSchemasResource: ResourceDefinition = {
  tracksGeneration: true,
  group: FLOWCONTROL_GROUP,
  version: 'v1',
  kind: 'FlowSchema',
  plural: 'flowschemas',
  singular: 'flowschema',
  namespaced: false,
  strategy: flowSchemaStrategy,
  subresources: { status: statusSubresource((obj) => validateConditions((obj as FlowSchema).status?.conditions)) },
  tableColumns: [
    { name: 'PriorityLevel', type: 'string', description: '`name` is the name of the priority level configuration being referenced Required.', cell: (o) => (o as FlowSchema).spec.priorityLevelConfiguration?.name ?? '' },
    {
      name: 'MatchingPrecedence',
      type: 'string',
      description:
        '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.',
      cell: (o) => (o as FlowSchema).spec.matchingPrecedence ?? 0,
    },
    {
      name: 'DistinguisherMethod',
      type: 'string',
      description: '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.',
      cell: (o) => (o as FlowSchema).spec.distinguisherMethod?.type ?? NONE,
    },
    ageColumn,
    { name: 'MissingPL', type: 'string', description: 'indicates if the referenced priority level is missing', cell: (o) => danglingStatus(o as FlowSchema) },
  ],
};

function limitedCell(pl: PriorityLevelConfiguration, pick: (l: NonNullable<PriorityLevelConfiguration['spec']['limited']>) => number | null | undefined): unknown {
  const limited = pl.spec.limited;
  if (!limited) return NONE;
  return pick(limited) ?? NONE;
}

export const priorityLevelConfigurationsResource: ResourceDefinition = {
  tracksGeneration: true,
  group: FLOWCONTROL_GROUP,
  version: 'v1',
  kind: 'PriorityLevelConfiguration',
  plural: 'prioritylevelconfigurations',
  singular: 'prioritylevelconfiguration',
  namespaced: false,
  strategy: priorityLevelStrategy,
  subresources: { status: statusSubresource((obj) => validateConditions((obj as PriorityLevelConfiguration).status?.conditions)) },
  tableColumns: [
    { name: 'Type', type: 'string', description: '`type` indicates whether this priority level is subject to limitation on request execution.', cell: (o) => (o as PriorityLevelConfiguration).spec.type ?? '' },
    { name: 'NominalConcurrencyShares', type: 'string', description: 'NominalConcurrencyShares of the priority level.', cell: (o) => limitedCell(o as PriorityLevelConfiguration, (l) => l.nominalConcurrencyShares) },
    { name: 'Queues', type: 'string', description: 'Queues of the priority level.', cell: (o) => limitedCell(o as PriorityLevelConfiguration, (l) => l.limitResponse?.queuing?.queues) },
    { name: 'HandSize', type: 'string', description: 'HandSize of the priority level.', cell: (o) => limitedCell(o as PriorityLevelConfiguration, (l) => l.limitResponse?.queuing?.handSize) },
    { name: 'QueueLengthLimit', type: 'string', description: 'QueueLengthLimit of the priority level.', cell: (o) => limitedCell(o as PriorityLevelConfiguration, (l) => l.limitResponse?.queuing?.queueLengthLimit) },
  ],
};

export const flowcontrolResources: ResourceDefinition[] = [flowSchemasResource, priorityLevelConfigurationsResource];
