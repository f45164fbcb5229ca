export { StructuredAuthentication, type StructuredAuthenticationOptions } from './structured.authentication';
export { decodeAuthenticationConfiguration, loadAuthenticationConfiguration, validateAuthenticationConfiguration, type AuthenticationConfiguration, type JWTAuthenticator } from './authentication.config';
export { JwtIssuerAuthenticator, TokenRejected, untrustedIssuer } from './jwt.authenticator';
