export * from './types';
export * from './group-version';
export * from './status.errors';
export * from './openapi.types';
