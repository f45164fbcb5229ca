/**
 * JWT authentication (KUBE_AUTHENTICATION_CONFIG) on its own: what the front door pays per request for an ID token it
 * has not seen (signature, claims, CEL mappings and rules of kube's documented example) and for one it authenticated
 * less than 10 s ago (the token cache), against an issuer on loopback HTTPS with its own CA.
 * Run alone: `npm run build && node dist/bench/jwt-authentication.bench.js` (JWT_BENCH_TOKENS, default 2000).
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { StructuredAuthentication } from '@kube/apiserver';
import { createCertificateAuthority, issueCertificate } from '@kube/pki';

export interface JwtBenchResult {
  /** µs per token not seen before (verification, mappings, rules). */
  firstMicros: number;
  /** µs per token answered from the cache. */
  cachedMicros: number;
}

export async function benchJwtAuthentication(tokens = 2000, rounds = 100): Promise<JwtBenchResult> {
  const ca = await createCertificateAuthority({ commonName: 'bench-oidc-ca' });
  const serving = await issueCertificate(ca, { commonName: 'oidc', ipAddresses: ['127.0.0.1'], usage: 'server' });
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'bench', use: 'sig' };
  let url = '';
  const issuer = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify((req.url ?? '').endsWith('/openid-configuration') ? { issuer: url, jwks_uri: `${url}/keys` } : { keys: [jwk] }));
  });
  await new Promise<void>((r) => issuer.listen(0, '127.0.0.1', r));
  url = `https://127.0.0.1:${(issuer.address() as AddressInfo).port}`;
  const ca4 = ca.certPem.trim().split('\n').map((l) => `      ${l}`).join('\n');
  const auth = StructuredAuthentication.fromText(`apiVersion: apiserver.config.k8s.io/v1beta1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: ${url}
    certificateAuthority: |
${ca4}
    audiences: [my-app]
  claimValidationRules:
  - expression: 'claims.exp - claims.nbf <= 86400'
    message: total token lifetime must not exceed 24 hours
  claimMappings:
    username: {expression: 'claims.username + ":external-user"'}
    groups: {expression: 'claims.roles.split(",")'}
    uid: {expression: 'claims.sub'}
  userValidationRules:
  - expression: "!user.username.startsWith('system:')"
    message: 'username cannot used reserved system: prefix'
`);
  const enc = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const token = (i: number): string => {
    const input = `${enc({ alg: 'RS256', kid: 'bench' })}.${enc({ iss: url, aud: 'my-app', sub: `u${i}`, username: `user-${i}`, roles: 'dev,ops', iat: now, nbf: now, exp: now + 3600 })}`;
    return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
  };
  try {
    await auth.authenticate(token(-1)); // the keys, fetched once
    const all = Array.from({ length: tokens }, (_, i) => token(i));
    let started = process.hrtime.bigint();
    for (const t of all) if (!(await auth.authenticate(t))) throw new Error('a bench token was refused');
    const firstMicros = Number(process.hrtime.bigint() - started) / tokens / 1000;
    started = process.hrtime.bigint();
    for (let r = 0; r < rounds; r++) {
      for (const t of all) if (auth.authenticate(t) instanceof Promise) throw new Error('a cached token was verified again');
    }
    const cachedMicros = Number(process.hrtime.bigint() - started) / (tokens * rounds) / 1000;
    return { firstMicros, cachedMicros };
  } finally {
    auth.stop();
    issuer.close();
  }
}

if (require.main === module) {
  void benchJwtAuthentication(Number(process.env.JWT_BENCH_TOKENS ?? 2000)).then((r) => {
    console.log(`JWT authentication (RS256, kube's documented CEL mappings and rules): first sight ${r.firstMicros.toFixed(1)} µs/token, cached ${r.cachedMicros.toFixed(2)} µs/token`);
    process.exit(0);
  });
}
