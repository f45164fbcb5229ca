export { compareValues, valuesEqual, valueToString, goJson, type Value } from './value.order';
export { PathElements, comparePathElements, pathElementsEqual, pathElementString, pathString, comparePaths, makePath, serializePathElement, deserializePathElement, type KeyField, type Path, type PathElement } from './fieldpath.path';
export { FieldSet } from './fieldpath.set';
export { fieldsV1ToSet, setToFieldsV1, setToFieldsV1Json, type FieldsV1 } from './fieldpath.serialize';
export { Schema, DEDUCED_TYPE, UNTYPED_DEDUCED, UNTYPED_ATOMIC, UNTYPED_TYPES, findField, type Atom, type ElementRelationship, type ListType, type MapType, type ParseableType, type Scalar, type StructField, type TypeDef, type TypeRef } from './schema.types';
export { schemaFromOpenAPI, typeFromOpenAPI, SchemaConversionError } from './schema.openapi';
export { TypedValue, ensureNamedFieldsAreMembers, comparisonIsSame, type Comparison } from './typed.value';
export { TypedValueError, type ValidationError } from './typed.errors';
export { reconcileFieldSetWithSchema } from './typed.reconcile';
export { Updater, ConflictsError, MissingVersionError, IDENTITY_CONVERTER, type Conflict, type Converter, type ManagedFields, type UpdaterOptions, type VersionedSet } from './merge.updater';
export { decodeManagedFields, encodeManagedFields, isResetManagedFields, managerIdentifier, type Managed } from './managed-fields.codec';
export {
  FieldManager,
  conflictError,
  printManager,
  keepManagedFieldsTimestamps,
  LAST_APPLIED_ANNOTATION,
  DEFAULT_MAX_UPDATE_MANAGERS,
  FIELD_MANAGER_MAX_LENGTH,
  type FieldManagerOptions,
} from './field.manager';
