/**
 * kube's own round-trip vectors (k8s.io/api and apiextensions-apiserver testdata/HEAD at v0.33.9, copied into
 * test/fixtures/protobuf/HEAD): for every built-in kind the server can serve, the JSON and the protobuf bytes kube
 * writes for the same fuzzed object. Decoding the bytes gives the JSON; encoding the JSON gives the bytes, exactly.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeKubeProtobuf, encodeKubeProtobuf, hasProtobufKind } from './kube-protobuf.codec';

const DIR = resolve(__dirname, '../../../../test/fixtures/protobuf/HEAD');
/** Vectors of kinds that are no stored objects: discovery documents, subresource options, reviews sent to webhooks, the unversioned WatchEvent (empty type meta). */
const NOT_OBJECTS = /\.(APIGroup|APIVersions|\w+Options|SerializedReference|ConversionReview|WatchEvent)$/;
const names = readdirSync(DIR)
  .filter((f) => f.endsWith('.pb'))
  .map((f) => f.slice(0, -3))
  .filter((n) => !NOT_OBJECTS.test(n));

describe('kube protobuf codec against kube testdata', () => {
  it('has vectors for the served kinds', () => {
    expect(names.length).toBeGreaterThan(60);
  });
  for (const name of names) {
    const json = JSON.parse(readFileSync(join(DIR, `${name}.json`), 'utf8')) as { apiVersion: string; kind: string };
    const pb = readFileSync(join(DIR, `${name}.pb`));
    describe(name, () => {
      it('is a kind with a protobuf message', () => {
        expect(hasProtobufKind(json.apiVersion, json.kind)).toBe(true);
      });
      it('decodes to kube JSON', () => {
        expect(decodeKubeProtobuf(pb).object).toEqual(json);
      });
      it('encodes to kube bytes', () => {
        expect(encodeKubeProtobuf(json).toString('hex')).toBe(pb.toString('hex'));
      });
    });
  }
});
