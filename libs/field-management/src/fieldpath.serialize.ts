/**
 * fieldsV1, the JSON trie kube stores in metadata.managedFields (fieldpath/serialize.go): each key is a
 * serialized path element, `{}` marks a member leaf, `".": {}` marks a member that also has children.
 * Keys come out in path element order, `.` first, so the text is byte-compatible with kube's.
 */
import { comparePathElements, deserializePathElement, serializePathElement, UnknownPathElementError } from './fieldpath.path';
import { FieldSet } from './fieldpath.set';

export type FieldsV1 = { [key: string]: FieldsV1 };

/** The fieldsV1 object of a set (an empty set is `{}`). */
export function setToFieldsV1(set: FieldSet): FieldsV1 {
  return emit(set, false);
}

function emit(s: FieldSet, includeSelf: boolean): FieldsV1 {
  const out: FieldsV1 = {};
  const { members, children } = s;
  if (includeSelf && (members.length > 0 || children.length > 0)) out['.'] = {};
  let mi = 0;
  let ci = 0;
  while (mi < members.length && ci < children.length) {
    const c = comparePathElements(members[mi], children[ci].pe);
    if (c < 0) out[serializePathElement(members[mi++])] = {};
    else if (c > 0) {
      out[serializePathElement(children[ci].pe)] = emit(children[ci].set, false);
      ci++;
    } else {
      out[serializePathElement(children[ci].pe)] = emit(children[ci].set, true);
      mi++;
      ci++;
    }
  }
  for (; mi < members.length; mi++) out[serializePathElement(members[mi])] = {};
  for (; ci < children.length; ci++) out[serializePathElement(children[ci].pe)] = emit(children[ci].set, false);
  return out;
}

/** The JSON text of a set, as kube writes FieldsV1.Raw. */
export function setToFieldsV1Json(set: FieldSet): string {
  return JSON.stringify(setToFieldsV1(set));
}

/**
 * Reads a fieldsV1 object (fieldpath.Set.FromJSON). Keys of unknown kinds are dropped, as kube drops
 * what a newer version may write; malformed keys or a non-object anywhere are errors.
 */
export function fieldsV1ToSet(fields: unknown): FieldSet {
  if (fields === null || fields === undefined) return new FieldSet();
  if (typeof fields !== 'object' || Array.isArray(fields)) throw new Error('fieldsV1 must be a JSON object');
  return read(fields as Record<string, unknown>).children ?? new FieldSet();
}

function read(obj: Record<string, unknown>): { children?: FieldSet; isMember: boolean } {
  let children: FieldSet | undefined;
  let isMember = false;
  for (const [key, sub] of Object.entries(obj)) {
    if (key === '.') {
      isMember = true;
      continue;
    }
    let pe;
    try {
      pe = deserializePathElement(key);
    } catch (err) {
      if (err instanceof UnknownPathElementError) continue;
      throw new Error(`parsing key as path element: ${(err as Error).message}`);
    }
    if (typeof sub !== 'object' || sub === null || Array.isArray(sub)) throw new Error(`fieldsV1 entry ${JSON.stringify(key)} must be an object`);
    const below = read(sub as Record<string, unknown>);
    if (below.isMember) {
      children ??= new FieldSet();
      children.insert([pe]);
    }
    if (below.children) {
      children ??= new FieldSet();
      // A repeated element replaces the earlier subtree, as kube's reader does.
      const target = children.descend(pe);
      target.members.splice(0, target.members.length, ...below.children.members);
      target.children.splice(0, target.children.length, ...below.children.children);
    }
  }
  if (!children) isMember = true;
  return { children, isMember };
}
