export * from './resource.definition';
