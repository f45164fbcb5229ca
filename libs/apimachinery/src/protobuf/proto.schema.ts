/**
 * kube's generated.proto files (api/proto, kube 1.33) loaded with protobufjs, and what each message needs to map to
 * and from kube's JSON: the Go facts the .proto files do not carry (api/proto/k8s.io/go-fields.json: pointers,
 * omitempty, inlined structs, JSON names) and the apimachinery types with a JSON form of their own. Loaded on first
 * use: a server no client asks protobuf of never parses them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import * as protobuf from 'protobufjs';

/** apimachinery value types whose JSON is not an object of their fields. */
export type Special =
  | 'time'
  | 'microTime'
  | 'duration'
  | 'quantity'
  | 'intOrString'
  | 'rawJson'
  | 'stringSlice'
  | 'schemaOrArray'
  | 'schemaOrBool'
  | 'schemaOrStringArray';

const SPECIALS: Readonly<Record<string, Special>> = {
  'k8s.io.apimachinery.pkg.apis.meta.v1.Time': 'time',
  'k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime': 'microTime',
  'k8s.io.apimachinery.pkg.apis.meta.v1.Duration': 'duration',
  'k8s.io.apimachinery.pkg.api.resource.Quantity': 'quantity',
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': 'intOrString',
  'k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1': 'rawJson',
  'k8s.io.apimachinery.pkg.runtime.RawExtension': 'rawJson',
  'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSON': 'rawJson',
  'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray': 'schemaOrArray',
  'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool': 'schemaOrBool',
  'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray': 'schemaOrStringArray',
  // Go string slices given a message of their own (`// items, if empty, will result in an empty slice`).
  'k8s.io.apimachinery.pkg.apis.meta.v1.Verbs': 'stringSlice',
  'k8s.io.api.authentication.v1.ExtraValue': 'stringSlice',
  'k8s.io.api.authentication.v1beta1.ExtraValue': 'stringSlice',
  'k8s.io.api.authorization.v1.ExtraValue': 'stringSlice',
  'k8s.io.api.certificates.v1.ExtraValue': 'stringSlice',
};

/** The API group of each proto package directory (its Go package's +groupName). */
const API_GROUPS: Readonly<Record<string, string>> = {
  'k8s.io.api.core': '',
  'k8s.io.api.apps': 'apps',
  'k8s.io.api.batch': 'batch',
  'k8s.io.api.autoscaling': 'autoscaling',
  'k8s.io.api.policy': 'policy',
  'k8s.io.api.coordination': 'coordination.k8s.io',
  'k8s.io.api.rbac': 'rbac.authorization.k8s.io',
  'k8s.io.api.authentication': 'authentication.k8s.io',
  'k8s.io.api.authorization': 'authorization.k8s.io',
  'k8s.io.api.certificates': 'certificates.k8s.io',
  'k8s.io.api.discovery': 'discovery.k8s.io',
  'k8s.io.api.events': 'events.k8s.io',
  'k8s.io.api.networking': 'networking.k8s.io',
  'k8s.io.api.node': 'node.k8s.io',
  'k8s.io.api.scheduling': 'scheduling.k8s.io',
  'k8s.io.api.storage': 'storage.k8s.io',
  'k8s.io.api.flowcontrol': 'flowcontrol.apiserver.k8s.io',
  'k8s.io.api.admissionregistration': 'admissionregistration.k8s.io',
  'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions': 'apiextensions.k8s.io',
  'k8s.io.kube_aggregator.pkg.apis.apiregistration': 'apiregistration.k8s.io',
};

export const META_V1 = 'k8s.io.apimachinery.pkg.apis.meta.v1';
export const RUNTIME = 'k8s.io.apimachinery.pkg.runtime';

interface GoFields {
  ptr?: string[];
  keep?: string[];
  inline?: string[];
  json?: Record<string, string>;
}

/** How one proto field maps to kube's JSON. */
export interface FieldPlan {
  readonly proto: string;
  /** The field's key on the wire (number and wire type); a map entry's value is field 2 of its entry. */
  readonly tag: number;
  readonly json: string;
  readonly repeated: boolean;
  readonly map: boolean;
  /** Scalar proto type ('string', 'int64', 'bytes', …) of the field, or of a map's values. */
  readonly scalar?: string;
  /** The message of the field, or of a map's values. */
  readonly message?: MessagePlan;
  /** Go pointer: written only when set. Every other field Go writes, zero or not. */
  readonly pointer: boolean;
  /** A zero value read from the wire is shown in JSON (pointer, or no omitempty). */
  readonly keepZero: boolean;
  /** An embedded struct whose JSON fields sit in the parent object. */
  readonly inline: boolean;
}

export interface MessagePlan {
  readonly type: protobuf.Type;
  readonly special?: Special;
  /** Filled on first use (messages refer to each other, recursively). */
  fields: readonly FieldPlan[];
}

export interface ProtoSchema {
  readonly root: protobuf.Root;
  /** The message of a top-level kind (one with metadata), of meta kinds served in every group, or undefined. */
  kind(apiVersion: string, kind: string): MessagePlan | undefined;
  plan(fullName: string): MessagePlan;
}

let schema: ProtoSchema | undefined;

/** The loaded schema (parsed once per process, on first call). */
export function protoSchema(): ProtoSchema {
  return (schema ??= loadSchema(protoDir()));
}

/** api/proto, found upwards from this file (src/ in tests, dist/ when built, /app in the image). */
function protoDir(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, 'api', 'proto');
    if (existsSync(join(candidate, 'k8s.io'))) return candidate;
    if (dirname(dir) === dir) throw new Error(`kube's generated.proto files (api/proto) were not found above ${__dirname}`);
  }
}

function protoFiles(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return protoFiles(path, base);
    return name.endsWith('.proto') ? [relative(base, path)] : [];
  });
}

function loadSchema(dir: string): ProtoSchema {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(dir, target);
  root.loadSync(protoFiles(dir), { keepCase: true });
  root.resolveAll();
  const goFields = JSON.parse(readFileSync(join(dir, 'k8s.io', 'go-fields.json'), 'utf8')) as Record<string, GoFields>;
  const plans = new Map<string, MessagePlan>();
  const kinds = new Map<string, MessagePlan | null>();

  const plan = (fullName: string): MessagePlan => {
    const name = fullName.startsWith('.') ? fullName.slice(1) : fullName;
    let p = plans.get(name);
    if (p) return p;
    const type = root.lookupType(name);
    p = { type, special: SPECIALS[name], fields: [] };
    plans.set(name, p);
    const go = goFields[name] ?? {};
    p.fields = type.fieldsArray
      .slice()
      .sort((a, b) => a.id - b.id)
      .map((f): FieldPlan => {
        const isMap = f instanceof protobuf.MapField;
        const resolved = f.resolve().resolvedType;
        const message = resolved instanceof protobuf.Type ? plan(resolved.fullName) : undefined;
        return {
          proto: f.name,
          tag: ((f.id << 3) | (message || isMap || f.type === 'string' || f.type === 'bytes' ? 2 : f.type === 'double' ? 1 : f.type === 'float' ? 5 : 0)) >>> 0,
          json: go.json?.[f.name] ?? f.name,
          repeated: f.repeated,
          map: isMap,
          scalar: message ? undefined : f.type,
          message,
          pointer: go.ptr?.includes(f.name) ?? false,
          keepZero: go.keep?.includes(f.name) ?? false,
          inline: go.inline?.includes(f.name) ?? false,
        };
      });
    return p;
  };

  const groupVersionOf = (pkg: string): string | undefined => {
    const dot = pkg.lastIndexOf('.');
    const group = API_GROUPS[pkg.slice(0, dot)] ?? API_GROUPS[pkg.slice(0, pkg.lastIndexOf('.', dot - 1))];
    if (group === undefined) return undefined;
    const version = pkg.slice(dot + 1);
    return group ? `${group}/${version}` : version;
  };
  // meta.k8s.io/v1: PartialObjectMetadata(List), served for every resource (metadata informers).
  const byGroupVersion = new Map<string, string>([['meta.k8s.io/v1', META_V1]]);
  for (const ns of collectPackages(root)) {
    const gv = groupVersionOf(ns);
    if (gv) byGroupVersion.set(gv, ns);
  }

  const kind = (apiVersion: string, kindName: string): MessagePlan | undefined => {
    const key = `${apiVersion}/${kindName}`;
    const known = kinds.get(key);
    if (known !== undefined) return known ?? undefined;
    let found: MessagePlan | null = null;
    if (META_KINDS.has(kindName)) {
      found = plan(`${META_V1}.${kindName}`);
    } else {
      const pkg = byGroupVersion.get(apiVersion);
      const type = pkg ? root.lookup(`${pkg}.${kindName}`) : null;
      // Only kinds (objects with metadata) are registered; PodSpec is no kind.
      if (type instanceof protobuf.Type && type.fields.metadata) found = plan(type.fullName);
    }
    kinds.set(key, found);
    return found ?? undefined;
  };
  return { root, kind, plan };
}

/** metav1 kinds every group version registers (AddToGroupVersion's unversioned and option types). */
const META_KINDS = new Set(['Status', 'DeleteOptions', 'WatchEvent', 'ListOptions', 'GetOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions']);

function collectPackages(ns: protobuf.NamespaceBase, out: string[] = []): string[] {
  for (const child of ns.nestedArray) {
    if (child instanceof protobuf.Type) {
      const pkg = child.parent?.fullName.slice(1);
      if (pkg && !out.includes(pkg)) out.push(pkg);
    } else if (child instanceof protobuf.Namespace) {
      collectPackages(child, out);
    }
  }
  return out;
}
