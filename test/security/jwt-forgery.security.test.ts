import 'reflect-metadata';
import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { get as httpsGet } from 'node:https';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StructuredAuthentication } from '@kube/apiserver';
import { tempDir } from '@kube/testing';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { documentedConfig, TestOidcIssuer } from '../support/oidc.issuer';

/**
 * Forged ID tokens against the front door with KUBE_AUTHENTICATION_CONFIG (kube's documented example): none of
 * them authenticates, each is kube's 401, the server never fetches keys from where a token says, and a flood of
 * unknown key ids does not make it hammer the issuer.
 */
let stack: StackHarness;
let issuer: TestOidcIssuer;
let auth: StructuredAuthentication;
let attackerKeys: Server;
let attackerHits = 0;

const enc = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
const claims = (over: Record<string, unknown> = {}): Record<string, unknown> => {
  const now = Math.floor(Date.now() / 1000);
  return { iss: issuer.url, aud: 'my-app', sub: 'mallory', username: 'mallory', roles: 'readers', tenant: 't', hd: 'example.com', iat: now, nbf: now, exp: now + 600, ...over };
};

async function status(token: string): Promise<{ status: number; body: unknown }> {
  const r = await stack.request('GET', '/api/v1/namespaces', { anonymous: true, headers: { Authorization: `Bearer ${token}` } });
  return { status: r.status, body: r.json() };
}

const UNAUTHORIZED = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

beforeAll(async () => {
  issuer = await TestOidcIssuer.start();
  attackerKeys = createServer((_req, res) => {
    attackerHits++;
    res.end('{}');
  });
  await new Promise<void>((resolve) => attackerKeys.listen(0, '127.0.0.1', resolve));
  const path = join(tempDir('jwt-forgery'), 'authentication-config.yaml');
  writeFileSync(path, documentedConfig(issuer));
  auth = StructuredAuthentication.fromFile(path);
  stack = await startStack({ structuredAuthentication: auth, controllerManager: false });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  auth?.stop();
  await issuer?.stop();
  attackerKeys?.close();
});

describe('forged JWTs at the front door', () => {
  it('a genuine token works (the baseline the forgeries are measured against)', async () => {
    expect((await status(issuer.token(claims()))).status).toBe(403);
  });

  it('refuses alg=none, HS256 keyed with the public key, an attacker key named by jwk/jku, and a forged signature under the real kid', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jku = `http://127.0.0.1:${(attackerKeys.address() as AddressInfo).port}/keys`;
    const body = enc(claims());
    const signed = (header: Record<string, unknown>, key = privateKey): string => {
      const input = `${enc(header)}.${body}`;
      return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
    };
    const issuerJwks = (await (await fetchJwks()).json()) as { keys: Array<Record<string, unknown>> };
    const realKid = issuerJwks.keys[0].kid as string;
    const forgeries: [string, string][] = [
      ['alg none', `${enc({ alg: 'none', kid: realKid })}.${body}.`],
      ['HS256 keyed with the issuer public key', (() => {
        const input = `${enc({ alg: 'HS256', kid: realKid })}.${body}`;
        const pem = JSON.stringify(issuerJwks.keys[0]);
        return `${input}.${createHmac('sha256', pem).update(input).digest('base64url')}`;
      })()],
      ['attacker key embedded as jwk', signed({ alg: 'RS256', jwk: publicKey.export({ format: 'jwk' }) })],
      ['attacker key set named by jku', signed({ alg: 'RS256', kid: 'attacker', jku })],
      ['attacker signature under the real kid', signed({ alg: 'RS256', kid: realKid })],
      ['claims a system: group (user rule)', issuer.token(claims({ roles: 'system:masters' }))],
    ];
    for (const [why, token] of forgeries) {
      const r = await status(token);
      expect(r.status, why).toBe(401);
      expect(r.body, why).toEqual(UNAUTHORIZED);
    }
    expect(attackerHits).toBe(0);
  });

  it('does not fetch the key set once per token when tokens name unknown key ids', async () => {
    const before = issuer.jwksFetches;
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const body = enc(claims());
    // One after the other, so that coalescing concurrent fetches is not what keeps the count down.
    for (let i = 0; i < 40; i++) {
      const input = `${enc({ alg: 'ES256', kid: `unknown-${i}` })}.${body}`;
      expect((await status(`${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`)).status).toBe(401);
    }
    // At most one refetch per few seconds per issuer, however many tokens ask.
    expect(issuer.jwksFetches - before).toBeLessThanOrEqual(2);
  });
});

function fetchJwks(): Promise<{ json(): Promise<unknown> }> {
  return new Promise((resolve, reject) => {
    httpsGet(`${issuer.url}/keys`, { ca: issuer.caPem }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ json: async () => JSON.parse(Buffer.concat(chunks).toString()) as unknown }));
    }).on('error', reject);
  });
}
