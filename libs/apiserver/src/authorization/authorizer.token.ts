/**
 * Nest injection token of the Authorizer a server's handler chain asks (optional; without a provider every
 * request is allowed). The front door and every API server take it the same way.
 */
export const AUTHORIZER = Symbol('AUTHORIZER');
