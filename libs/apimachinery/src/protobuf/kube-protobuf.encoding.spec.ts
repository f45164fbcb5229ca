import { describe, expect, it } from 'vitest';
import { Errors } from '../status.errors';
import type { JsonObject } from '../types';
import { formatGoDuration, parseGoDuration } from './go-duration';
import { decodeKubeProtobuf, decodeWatchEventFrames, encodeKubeProtobuf, encodeKubeProtobufList, encodeWatchEventFrame, hasProtobufKind } from './kube-protobuf.codec';
import { META_V1, protoSchema } from './proto.schema';

const configMap = (name: string): JsonObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '7', creationTimestamp: '2026-01-02T03:04:05Z' },
  data: { b: '2', a: '1' },
  binaryData: { blob: 'AAEC' },
});

describe('protobuf responses', () => {
  it('encodes a List from cached item bytes exactly as the whole List encodes', () => {
    const head = { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '9', continue: 'c' } };
    const items = [configMap('x'), configMap('y')];
    const fast = encodeKubeProtobufList(head, items);
    expect(fast.toString('hex')).toBe(encodeKubeProtobuf({ ...head, items }).toString('hex'));
    // Go keeps map keys sorted; JSON objects compare by content.
    expect(decodeKubeProtobuf(fast).object).toEqual({ ...head, items: items.map(({ apiVersion: _a, kind: _k, ...rest }) => rest) });
  });

  it('encodes a Status error kube clients decode', () => {
    const status = Errors.notFound({ group: 'apps', resource: 'deployments' }, 'web').status as unknown as JsonObject;
    expect(decodeKubeProtobuf(encodeKubeProtobuf(status)).object).toEqual(status);
  });

  it('frames a watch event as kube’s stream serializer does: 4-byte length, WatchEvent, enveloped object', () => {
    const obj = configMap('w');
    const frame = encodeWatchEventFrame('MODIFIED', obj);
    expect(frame.readUInt32BE(0)).toBe(frame.length - 4);
    const event = protoSchema().root.lookupType(`${META_V1}.WatchEvent`).decode(frame.subarray(4)) as unknown as { type: string; object: { raw: Uint8Array } };
    expect(event.type).toBe('MODIFIED');
    expect(Buffer.from(event.object.raw).equals(encodeKubeProtobuf(obj))).toBe(true);
    const two = Buffer.concat([frame, encodeWatchEventFrame('DELETED', obj)]);
    expect(decodeWatchEventFrames(two)).toEqual([
      { type: 'MODIFIED', object: obj },
      { type: 'DELETED', object: obj },
    ]);
  });

  it('decodes an empty list as Go’s JSON shows a nil slice: null without omitempty, absent with it', () => {
    const role = decodeKubeProtobuf(encodeKubeProtobuf({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r', creationTimestamp: '2026-01-01T00:00:00Z', finalizers: [] } })).object;
    expect(role).toEqual({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r', creationTimestamp: '2026-01-01T00:00:00Z' }, rules: null });
  });

  it('knows the kinds with a protobuf message: built-ins, their lists, metav1 kinds, not custom resources', () => {
    expect(hasProtobufKind('apps/v1', 'StatefulSet')).toBe(true);
    expect(hasProtobufKind('v1', 'PodList')).toBe(true);
    expect(hasProtobufKind('apiextensions.k8s.io/v1', 'CustomResourceDefinition')).toBe(true);
    expect(hasProtobufKind('apiregistration.k8s.io/v1', 'APIService')).toBe(true);
    expect(hasProtobufKind('meta.k8s.io/v1', 'PartialObjectMetadataList')).toBe(true);
    expect(hasProtobufKind('batch/v1', 'Status')).toBe(true);
    expect(hasProtobufKind('stable.example.com/v1', 'CronTab')).toBe(false);
    expect(hasProtobufKind('v1', 'PodSpec')).toBe(false);
    expect(hasProtobufKind('meta.k8s.io/v1', 'Table')).toBe(false);
  });
});

describe('Go durations (metav1.Duration)', () => {
  it.each([
    [0, '0s'],
    [1.5e6, '1.5ms'],
    [300e6, '300ms'],
    [3723.5e9, '1h2m3.5s'],
    [7200e9, '2h0m0s'],
    [-300e9, '-5m0s'],
    [999, '999ns'],
    [1500, '1.5µs'],
  ])('%d ns is %s both ways', (nanos, text) => {
    expect(formatGoDuration(nanos)).toBe(text);
    expect(parseGoDuration(text)).toBe(nanos);
  });

  it('refuses what Go refuses', () => {
    expect(() => parseGoDuration('5')).toThrow('time: invalid duration "5"');
    expect(() => parseGoDuration('1d')).toThrow();
  });
});
