import { formatGroupVersion, type JsonObject, type KubeObject } from '@kube/apimachinery';
import { DEDUCED_TYPE, FIELD_MANAGER_MAX_LENGTH, FieldManager, FieldSet, keepManagedFieldsTimestamps, makePath, typeFromOpenAPI, type ParseableType } from '@kube/field-management';
import type { ResourceDefinition } from './resource.definition';

/**
 * managerOrUserAgent: the fieldManager query parameter, else the User-Agent up to its first '/'
 * without unprintable characters, cut at 128 bytes (kube's prefixFromUserAgent).
 */
export function managerName(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  let out = '';
  let bytes = 0;
  for (const ch of (userAgent ?? '').split('/')[0]) {
    if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}]/u.test(ch) || (ch !== ' ' && /\p{Zs}/u.test(ch))) continue;
    const n = Buffer.byteLength(ch);
    if (bytes + n > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/**
 * The field managers of one resource version, one per subresource (kube builds one per endpoint):
 * the type model comes from the resource's OpenAPI schema (built-in kinds and CRD structural schemas
 * alike), untyped ("deduced") without one. Reset fields as kube's strategies declare them: status is
 * not owned through the resource when it has a status subresource, spec not through /status.
 */
export class ResourceFieldManagers {
  private readonly managers = new Map<string, FieldManager>();
  private type?: ParseableType;

  constructor(private readonly def: ResourceDefinition) {}

  private parseableType(): ParseableType {
    if (!this.type) {
      const schema = this.def.schema;
      try {
        this.type = schema ? typeFromOpenAPI(schema.components, schema.name) : DEDUCED_TYPE;
      } catch {
        // A schema the type model cannot read (not structural): fields are tracked untyped.
        this.type = DEDUCED_TYPE;
      }
    }
    return this.type;
  }

  private manager(subresource: string): FieldManager {
    let fm = this.managers.get(subresource);
    if (!fm) {
      const hasStatus = !!this.def.subresources?.status;
      const resetFields = subresource === 'status' ? FieldSet.of(makePath('spec')) : !subresource && hasStatus ? FieldSet.of(makePath('status')) : undefined;
      fm = new FieldManager({
        type: this.parseableType(),
        apiVersion: formatGroupVersion(this.def),
        kind: this.def.kind,
        subresource,
        resetFields,
        // Custom resources prune non-nullable nulls in their own pipeline; built-in kinds hold no nulls.
        keepNulls: !!this.def.strategy?.prune,
      });
      this.managers.set(subresource, fm);
    }
    return fm;
  }

  /** managedFields of a create (live undefined), update or non-apply patch; never fails the write. */
  update(live: KubeObject | undefined, obj: KubeObject, subresource: string, manager: string): KubeObject {
    return this.manager(subresource).update(live, obj, manager);
  }

  /** A server-side apply of `patch` over `live` (undefined: the object does not exist yet). */
  apply(live: KubeObject | undefined, patch: JsonObject, subresource: string, manager: string, force: boolean): KubeObject {
    return this.manager(subresource).apply(live, patch, manager, force);
  }

  /** Keeps the old managedFields times when nothing else changed (the write stays a no-op). */
  keepTimestamps(obj: KubeObject, old: KubeObject): void {
    keepManagedFieldsTimestamps(obj, old);
  }
}
