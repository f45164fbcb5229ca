/**
 * The hand-written field tables against kube's own definitions: every entry of every table must be the field of
 * that number in the k8s.io/api and apimachinery generated.proto kept in api/proto (kube 1.33), with its name,
 * its type and list-ness, and a nested table must be the one of the proto's message type. The tables stay
 * partial on purpose; what they say must be kube's.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as apps from './apps.fields';
import * as batch from './batch.fields';
import * as cluster from './cluster.fields';
import * as coordination from './coordination.fields';
import * as core from './core.fields';
import type { FieldSpec, MessageSpec, ScalarType } from './field.schema';
import * as meta from './meta.fields';

interface ProtoField {
  readonly label: 'optional' | 'repeated' | 'map';
  readonly type: string;
  readonly name: string;
}

const PROTO_ROOT = resolve(__dirname, '../../../../api/proto');
const PROTO_FILES = [
  'k8s.io/api/core/v1/generated.proto',
  'k8s.io/api/coordination/v1/generated.proto',
  'k8s.io/api/apps/v1/generated.proto',
  'k8s.io/api/batch/v1/generated.proto',
  'k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto',
  ...['networking/v1', 'policy/v1', 'scheduling/v1', 'certificates/v1', 'autoscaling/v2'].map((gv) => `k8s.io/api/${gv}/generated.proto`),
];
/** autoscaling/v1 reuses v2's message names: its tables are checked against its own file. */
const AUTOSCALING_V1_PROTO = 'k8s.io/api/autoscaling/v1/generated.proto';
const AUTOSCALING_V1_TABLES: Readonly<Record<string, MessageSpec>> = { HorizontalPodAutoscaler: cluster.HorizontalPodAutoscalerV1, HorizontalPodAutoscalerSpec: cluster.HorizontalPodAutoscalerSpecV1 };

/** message name → field number → field, from the top-level messages of the files (they nest none). */
function parseProto(text: string): Map<string, Map<number, ProtoField>> {
  const messages = new Map<string, Map<number, ProtoField>>();
  const clean = text.replace(/\/\/.*$/gm, '');
  for (const [, name, body] of clean.matchAll(/^message (\w+) \{([^}]*)\}/gm)) {
    const fields = new Map<number, ProtoField>();
    for (const [, label, type, fieldName, number] of body.matchAll(/^\s*(optional|repeated) ([\w.]+) (\w+) = (\d+);/gm)) fields.set(Number(number), { label: label as 'optional' | 'repeated', type: type.replace(/^\./, ''), name: fieldName });
    for (const [, value, fieldName, number] of body.matchAll(/^\s*map<string, ([\w.]+)> (\w+) = (\d+);/gm)) fields.set(Number(number), { label: 'map', type: value.replace(/^\./, ''), name: fieldName });
    messages.set(name, fields);
  }
  return messages;
}

const proto = new Map<string, Map<number, ProtoField>>();
for (const file of PROTO_FILES) for (const [name, fields] of parseProto(readFileSync(resolve(PROTO_ROOT, file), 'utf8'))) proto.set(name, fields);

/** Tables written once for messages of the same shape. */
const SHARED: Readonly<Record<string, readonly string[]>> = {
  EnvSourceReference: ['ConfigMapEnvSource', 'SecretEnvSource'],
  SecurityProfile: ['SeccompProfile', 'AppArmorProfile'],
  NamedItem: ['PodOS', 'PodSchedulingGate'],
  IPAddress: ['PodIP', 'HostIP'],
  Container: ['Container', 'EphemeralContainerCommon'],
  HorizontalPodAutoscalerV2: ['HorizontalPodAutoscaler'],
  HorizontalPodAutoscalerSpecV2: ['HorizontalPodAutoscalerSpec'],
  PodAffinity: ['PodAffinity', 'PodAntiAffinity'],
};

const tables = new Map<MessageSpec, string[]>();
for (const [name, value] of Object.entries({ ...meta, ...core, ...coordination, ...apps, ...batch, ...cluster })) {
  if (!value || typeof value !== 'object' || Object.values(AUTOSCALING_V1_TABLES).includes(value as MessageSpec)) continue;
  tables.set(value as MessageSpec, [...(tables.get(value as MessageSpec) ?? []), ...(SHARED[name] ?? [name])]);
}

const SCALAR_TYPES: Readonly<Record<ScalarType, (type: string) => boolean>> = {
  string: (t) => t === 'string',
  bytes: (t) => t === 'bytes',
  bool: (t) => t === 'bool',
  int32: (t) => t === 'int32',
  int64: (t) => t === 'int64',
  time: (t) => t === 'k8s.io.apimachinery.pkg.apis.meta.v1.Time' || t === 'Time',
  microTime: (t) => t === 'k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime' || t === 'MicroTime',
  intOrString: (t) => t === 'k8s.io.apimachinery.pkg.util.intstr.IntOrString',
  quantity: (t) => t === 'k8s.io.apimachinery.pkg.api.resource.Quantity',
  fieldsV1: (t) => t === 'k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1' || t === 'FieldsV1',
};

const MAP_VALUES: Readonly<Record<string, string>> = { string: 'string', bytes: 'bytes', quantity: 'k8s.io.apimachinery.pkg.api.resource.Quantity' };

/** What is wrong with one entry, or undefined. */
function mismatch(spec: FieldSpec, field: ProtoField | undefined): string | undefined {
  if (!field) return 'no such field number';
  if (spec.name !== field.name) return `named ${field.name}`;
  if (spec.kind === 'map') return field.label === 'map' && MAP_VALUES[spec.value] === field.type ? undefined : `is ${field.label} ${field.type}`;
  if ((field.label === 'repeated') !== !!spec.list) return `is ${field.label}`;
  if (spec.kind === 'scalar') return SCALAR_TYPES[spec.type](field.type) ? undefined : `is ${field.type}, not ${spec.type}`;
  const names = tables.get(spec.message) ?? [];
  return names.includes(field.type.split('.').at(-1) ?? '') ? undefined : `is ${field.type}, the table is ${names.join('/') || 'not exported'}`;
}

describe('protobuf field tables', () => {
  it('read every proto message they are checked against', () => {
    expect(proto.get('Pod')?.get(2)).toEqual({ label: 'optional', type: 'PodSpec', name: 'spec' });
    expect(proto.get('ObjectMeta')?.get(11)).toEqual({ label: 'map', type: 'string', name: 'labels' });
    expect(proto.size).toBeGreaterThan(250);
  });

  it.each([...tables].map(([spec, names]) => [names.join('/'), spec] as const))('%s matches generated.proto', (names, spec) => {
    const problems: string[] = [];
    for (const message of names.split('/')) {
      const fields = proto.get(message);
      if (!fields) {
        problems.push(`${message}: no such message`);
        continue;
      }
      for (const [number, field] of Object.entries(spec)) {
        const wrong = mismatch(field, fields.get(Number(number)));
        if (wrong) problems.push(`${message}.${field.name} = ${number}: ${wrong}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('autoscaling/v1 tables match their generated.proto', () => {
    const v1 = parseProto(readFileSync(resolve(PROTO_ROOT, AUTOSCALING_V1_PROTO), 'utf8'));
    const problems: string[] = [];
    for (const [message, spec] of Object.entries(AUTOSCALING_V1_TABLES)) {
      for (const [number, field] of Object.entries(spec)) {
        const protoField = v1.get(message)?.get(Number(number));
        // Nested v1 messages are named as in v1's file; their tables are shared with v2 where the shape is.
        const nested = field.kind === 'message' && (field.message === cluster.HorizontalPodAutoscalerSpecV1 || field.message === cluster.CrossVersionObjectReference || field.message === meta.ObjectMeta);
        const wrong = nested ? (protoField?.name === field.name ? undefined : 'misnamed') : mismatch(field, protoField);
        if (wrong) problems.push(`${message}.${field.name} = ${number}: ${wrong}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('would notice a wrong number, name or type', () => {
    const pod = proto.get('Pod');
    expect(mismatch({ kind: 'scalar', name: 'spec', type: 'string' }, pod?.get(2))).toBe('is PodSpec, not string');
    expect(mismatch({ kind: 'message', name: 'status', message: core.PodStatus }, pod?.get(2))).toBe('named spec');
    expect(mismatch({ kind: 'message', name: 'spec', message: core.PodStatus }, pod?.get(2))).toBe('is PodSpec, the table is PodStatus');
    expect(mismatch({ kind: 'message', name: 'spec', message: core.PodSpec }, pod?.get(2))).toBeUndefined();
  });
});
