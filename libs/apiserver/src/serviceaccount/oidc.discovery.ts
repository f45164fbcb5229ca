import type { ServerResponse } from 'node:http';
import type { ServiceAccountTokens } from './service-account.token';

/** kube's service-account issuer discovery paths (pkg/serviceaccount/openidmetadata.go). */
export const OIDC_CONFIGURATION_PATH = '/.well-known/openid-configuration';
export const OIDC_JWKS_PATH = '/openid/v1/jwks';

interface OidcDocuments {
  configuration: Buffer;
  jwks: Buffer;
}

const documents = new WeakMap<ServiceAccountTokens, OidcDocuments>();

/** The OpenID provider configuration and the JSON Web Key Set of the verification keys, built once per issuer. */
function documentsFor(tokens: ServiceAccountTokens): OidcDocuments {
  let docs = documents.get(tokens);
  if (!docs) {
    const configuration = {
      issuer: tokens.issuer,
      jwks_uri: tokens.options.jwksUri ?? `${tokens.issuer}${OIDC_JWKS_PATH}`,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [...new Set(tokens.keys.map((k) => k.alg))].sort(),
    };
    const keys = tokens.keys.map((k) => ({ use: 'sig', ...k.key.export({ format: 'jwk' }), kid: k.kid, alg: k.alg }));
    docs = { configuration: Buffer.from(JSON.stringify(configuration)), jwks: Buffer.from(JSON.stringify({ keys })) };
    documents.set(tokens, docs);
  }
  return docs;
}

/** Serves the two discovery documents as kube does (cacheable for an hour); other paths answer undefined. */
export function serveOidcDiscovery(res: ServerResponse, path: string, tokens: ServiceAccountTokens | undefined): number | undefined {
  if (!tokens || (path !== OIDC_CONFIGURATION_PATH && path !== OIDC_JWKS_PATH)) return undefined;
  const docs = documentsFor(tokens);
  const jwks = path === OIDC_JWKS_PATH;
  res.writeHead(200, { 'Content-Type': jwks ? 'application/jwk-set+json' : 'application/json', 'Cache-Control': 'public, max-age=3600', 'Content-Length': String((jwks ? docs.jwks : docs.configuration).length) });
  res.end(jwks ? docs.jwks : docs.configuration);
  return 200;
}
