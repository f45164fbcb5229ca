import { generateKeyPairSync, randomUUID, sign, constants, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createCertificateAuthority, issueCertificate } from '@kube/pki';

export type TestSigningAlg = 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'ES256' | 'ES384' | 'ES512';

interface SigningKey {
  kid: string;
  alg: TestSigningAlg;
  privateKey: KeyObject;
  publicJwk: Record<string, unknown>;
}

/**
 * A test OpenID Connect issuer: an HTTPS server with its own CA serving /.well-known/openid-configuration and a
 * JWKS, whose keys (made with node:crypto) sign ID tokens. Keys rotate on demand; it counts JWKS fetches.
 */
export class TestOidcIssuer {
  private keys: SigningKey[] = [];
  jwksFetches = 0;
  discoveryFetches = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly caPem: string,
    /** Where it serves discovery and keys: the issuer URL itself unless started with another `issuer`. */
    readonly serverURL: string,
  ) {}

  /** Its discovery document's URL (for `issuer.discoveryURL` when the issuer URL is not where it is served). */
  get discoveryURL(): string {
    return `${this.serverURL}/.well-known/openid-configuration`;
  }

  /** `issuer`: the `iss` it claims (and its discovery document names) when that is not the URL it is served at. */
  static async start(opts: { path?: string; issuer?: string } = {}): Promise<TestOidcIssuer> {
    const ca = await createCertificateAuthority({ commonName: 'test-oidc-ca' });
    const serving = await issueCertificate(ca, { commonName: 'oidc.test', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], usage: 'server' });
    let issuer: TestOidcIssuer | undefined;
    const server = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
      const i = issuer;
      if (!i) return void res.writeHead(503).end();
      const path = (req.url ?? '').split('?')[0];
      const base = new URL(i.serverURL).pathname.replace(/\/$/, '');
      if (path === `${base}/.well-known/openid-configuration`) {
        i.discoveryFetches++;
        res.writeHead(200, { 'Content-Type': 'application/json' });
        return void res.end(JSON.stringify({ issuer: i.url, jwks_uri: `${i.origin}${base}/keys`, id_token_signing_alg_values_supported: ['RS256', 'ES256'] }));
      }
      if (path === `${base}/keys`) {
        i.jwksFetches++;
        res.writeHead(200, { 'Content-Type': 'application/json' });
        return void res.end(JSON.stringify({ keys: i.keys.map((k) => k.publicJwk) }));
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const served = `https://127.0.0.1:${port}${opts.path ?? ''}`;
    issuer = new TestOidcIssuer(server, opts.issuer ?? served, ca.certPem, served);
    issuer.rotate('RS256');
    return issuer;
  }

  /** The origin it is served at. */
  get origin(): string {
    return new URL(this.serverURL).origin;
  }

  /** The kid the next tokens are signed with. */
  get currentKid(): string {
    return this.keys[this.keys.length - 1].kid;
  }

  /** A new signing key (published beside the old ones unless `dropOld`); tokens are signed with it from now on. */
  rotate(alg: TestSigningAlg = 'RS256', dropOld = false): string {
    const { privateKey, publicKey } = alg.startsWith('ES')
      ? generateKeyPairSync('ec', { namedCurve: { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' }[alg as 'ES256'] })
      : generateKeyPairSync('rsa', { modulusLength: 2048 });
    const kid = randomUUID();
    const publicJwk = { ...publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg };
    if (dropOld) this.keys = [];
    this.keys.push({ kid, alg, privateKey, publicJwk });
    return kid;
  }

  /** A signed ID token: iss, iat, nbf and exp (one hour) filled in unless given. */
  token(claims: Record<string, unknown>, opts: { kid?: string; alg?: TestSigningAlg } = {}): string {
    const key = opts.kid ? this.keys.find((k) => k.kid === opts.kid) : this.keys[this.keys.length - 1];
    if (!key) throw new Error('no such key');
    const alg = opts.alg ?? key.alg;
    const now = Math.floor(Date.now() / 1000);
    const payload = { iss: this.url, iat: now, nbf: now, exp: now + 3600, ...claims };
    const enc = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
    const input = `${enc({ alg, kid: key.kid, typ: 'JWT' })}.${enc(payload)}`;
    const hash = `sha${alg.slice(2)}`;
    const signature = alg.startsWith('PS')
      ? sign(hash, Buffer.from(input), { key: key.privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST })
      : sign(hash, Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
    return `${input}.${signature.toString('base64url')}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** kube's documented AuthenticationConfiguration (docs/reference/access-authn-authz/authentication.md), pointed at the test issuer. */
export function documentedConfig(i: TestOidcIssuer, usernameSuffix = ':external-user'): string {
  const ca = i.caPem.trim().split('\n').map((l) => `      ${l}`).join('\n');
  return `apiVersion: apiserver.config.k8s.io/v1beta1
kind: AuthenticationConfiguration
# list of authenticators to authenticate Kubernetes users using JWT compliant tokens.
# the maximum number of allowed authenticators is 64.
jwt:
- issuer:
    # url must be unique across all authenticators.
    # url must not conflict with issuer configured in --service-account-issuer.
    url: ${i.url} # Same as --oidc-issuer-url.
    # PEM encoded CA certificates used to validate the connection when fetching
    # discovery information. If not set, the system verifier will be used.
    # Same value as the content of the file referenced by the --oidc-ca-file flag.
    certificateAuthority: |
${ca}
    # audiences is the set of acceptable audiences the JWT must be issued to.
    # At least one of the entries must match the "aud" claim in presented JWTs.
    audiences:
    - my-app # Same as --oidc-client-id.
    - my-other-app
    # this is required to be set to "MatchAny" when multiple audiences are specified.
    audienceMatchPolicy: MatchAny
  # rules applied to validate token claims to authenticate users.
  claimValidationRules:
    # Same as --oidc-required-claim key=value.
  - claim: hd
    requiredValue: example.com
    # Instead of claim and requiredValue, you can use expression to validate the claim.
    # expression is a CEL expression that evaluates to a boolean.
    # all the expressions must evaluate to true for validation to succeed.
  - expression: 'claims.hd == "example.com"'
    # Message customizes the error message seen in the API server logs when the validation fails.
    message: the hd claim must be set to example.com
  - expression: 'claims.exp - claims.nbf <= 86400'
    message: total token lifetime must not exceed 24 hours
  claimMappings:
    # username represents an option for the username attribute.
    # This is the only required attribute.
    username:
      # Same as --oidc-username-claim. Mutually exclusive with username.expression.
      # claim: "sub"
      # Same as --oidc-username-prefix. Mutually exclusive with username.expression.
      # if username.claim is set, username.prefix is required.
      # Explicitly set it to "" if no prefix is desired.
      # prefix: ""
      # Mutually exclusive with username.claim and username.prefix.
      # expression is a CEL expression that evaluates to a string.
      expression: 'claims.username + "${usernameSuffix}"'
    # groups represents an option for the groups attribute.
    groups:
      # Same as --oidc-groups-claim. Mutually exclusive with groups.expression.
      # claim: "sub"
      # Same as --oidc-groups-prefix. Mutually exclusive with groups.expression.
      # if groups.claim is set, groups.prefix is required.
      # Explicitly set it to "" if no prefix is desired.
      # prefix: ""
      # Mutually exclusive with groups.claim and groups.prefix.
      # expression is a CEL expression that evaluates to a string or a list of strings.
      expression: 'claims.roles.split(",")'
    # uid represents an option for the uid attribute.
    uid:
      # Mutually exclusive with uid.expression.
      # claim: 'sub'
      # Mutually exclusive with uid.claim
      # expression is a CEL expression that evaluates to a string.
      expression: 'claims.sub'
    # extra attributes to be added to the UserInfo object. Keys must be domain-prefix path and must be unique.
    extra:
    - key: 'example.com/tenant'
      # valueExpression is a CEL expression that evaluates to a string or a list of strings.
      valueExpression: 'claims.tenant'
  # validation rules applied to the final user object.
  userValidationRules:
    # expression is a CEL expression that evaluates to a boolean.
    # all the expressions must evaluate to true for the user to be valid.
  - expression: "!user.username.startsWith('system:')"
    # Message customizes the error message seen in the API server logs when the validation fails.
    message: 'username cannot used reserved system: prefix'
  - expression: "user.groups.all(group, !group.startsWith('system:'))"
    message: 'groups cannot used reserved system: prefix'
`;
}
