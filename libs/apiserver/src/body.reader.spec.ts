import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { isStatusError } from '@kube/apimachinery';
import { decodeBody, decodePatchBody, readBody } from './body.reader';

function request(body: Buffer, headers: Record<string, string> = {}): IncomingMessage {
  const r = Readable.from([body]) as unknown as IncomingMessage;
  r.headers = headers;
  return r;
}

async function codeOf(p: Promise<unknown> | (() => unknown)): Promise<number | undefined> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    return isStatusError(err) ? err.code : -1;
  }
  return undefined;
}

describe('readBody', () => {
  it('refuses a declared oversized body with 413 before reading it', async () => {
    expect(await codeOf(readBody(request(Buffer.alloc(10), { 'content-length': String(4 * 1024 * 1024) })))).toBe(413);
  });

  it('refuses an undeclared oversized body with 413 while streaming', async () => {
    expect(await codeOf(readBody(request(Buffer.alloc(3 * 1024 * 1024 + 1))))).toBe(413);
    expect((await readBody(request(Buffer.from('{}')))).toString()).toBe('{}');
  });
});

describe('decodeBody', () => {
  it('decodes JSON and YAML', () => {
    expect(decodeBody(Buffer.from('{"a":1}'), 'json')).toEqual({ a: 1 });
    expect(decodeBody(Buffer.from('a: 1\nb: [x]\n'), 'yaml')).toEqual({ a: 1, b: ['x'] });
  });

  it('answers 400 for malformed and deeply nested input', async () => {
    expect(await codeOf(() => decodeBody(Buffer.from('{"a":'), 'json'))).toBe(400);
    expect(await codeOf(() => decodeBody(Buffer.from('['.repeat(100_000) + ']'.repeat(100_000)), 'json'))).toBe(400);
    expect(await codeOf(() => decodeBody(Buffer.from('a: ' + '['.repeat(50_000)), 'yaml'))).toBe(400);
  });

  it('refuses YAML alias bombs', async () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]', 'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]', 'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]', 'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]', 'e: [*d,*d,*d,*d,*d,*d,*d,*d,*d]'].join('\n');
    expect(await codeOf(() => decodeBody(Buffer.from(bomb), 'yaml'))).toBe(400);
  });
});

describe('decodeBody: a create or update body that is no JSON (transformDecodeError)', () => {
  const message = (text: string, into?: string): string => {
    try {
      decodeBody(Buffer.from(text), 'json', into);
    } catch (err) {
      return (err as { status: { message: string } }).status.message;
    }
    return '';
  };

  it("names the kind it decodes into, encoding/json's error and the body's first bytes", () => {
    expect(message('apiVersion: v1\nkind: Pod\nmetadata:\n  name: valid-pod\n', 'Namespace')).toBe(
      "the object provided is unrecognized (must be of type Namespace): couldn't get version/kind; json parse error: invalid character 'a' looking for beginning of value (61706956657273696f6e3a2076310a6b696e643a20506f640a6d65746164 ...)",
    );
    expect(message('{"kind":', 'ConfigMap')).toBe(
      `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: unexpected end of JSON input ({"kind":)`,
    );
  });

  it('keeps the generic message where no kind is decoded into (patches)', () => {
    expect(message('apiVersion: v1')).toMatch(/^the request body could not be decoded: /);
  });
});

describe('decodePatchBody', () => {
  const message = (text: string, type: 'json' | 'merge' | 'strategic', fieldValidation = 'Warn'): string | undefined => {
    try {
      decodePatchBody(Buffer.from(text), type, fieldValidation);
      return undefined;
    } catch (err) {
      return isStatusError(err) ? `${err.code} ${err.status.message}` : String(err);
    }
  };

  // kube's patch.go: encoding/json's error, prefixed for JSON and merge patches, bare for strategic ones.
  it('answers a body that is no JSON as kube does for its patch type', () => {
    expect(message('{bad', 'merge')).toBe("400 error decoding patch: invalid character 'b' looking for beginning of object key string");
    expect(message('[bad', 'json')).toBe("400 error decoding patch: invalid character 'b' looking for beginning of value");
    expect(message('{bad', 'strategic')).toBe("400 invalid character 'b' looking for beginning of object key string");
    expect(message('{bad', 'merge', 'Ignore')).toBe('400 Invalid JSON Patch');
    expect(decodePatchBody(Buffer.from('{"a":1}'), 'merge', 'Warn')).toEqual({ a: 1 });
  });
});
