/**
 * A set of field paths stored as a trie (fieldpath.Set): `members` are the path elements that are
 * themselves in the set, `children` the subtrees below path elements that have members further down.
 * Both lists are kept sorted by comparePathElements, so set algebra is a linear merge.
 */
import { comparePathElements, pathElementsEqual, pathString, type Path, type PathElement } from './fieldpath.path';

interface SetNode {
  pe: PathElement;
  set: FieldSet;
}

function search<T>(items: readonly T[], pe: PathElement, get: (t: T) => PathElement): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (comparePathElements(get(items[mid]), pe) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const id = (pe: PathElement): PathElement => pe;
const nodePe = (n: SetNode): PathElement => n.pe;

function insertMember(members: PathElement[], pe: PathElement): void {
  const n = members.length;
  // Fast path: walks and decoding produce elements mostly in order.
  if (n === 0 || comparePathElements(members[n - 1], pe) < 0) {
    members.push(pe);
    return;
  }
  const loc = search(members, pe, id);
  if (loc < n && pathElementsEqual(members[loc], pe)) return;
  members.splice(loc, 0, pe);
}

function hasMember(members: readonly PathElement[], pe: PathElement): boolean {
  const loc = search(members, pe, id);
  return loc < members.length && pathElementsEqual(members[loc], pe);
}

/**
 * Walks two sorted lists in step (the linear merge every set operation is): `both` for elements in
 * each, `left`/`right` for elements in only one.
 */
function zipSorted<A, B>(a: readonly A[], b: readonly B[], pa: (x: A) => PathElement, pb: (y: B) => PathElement, visit: { both?(x: A, y: B): void; left?(x: A): void; right?(y: B): void }): void {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = comparePathElements(pa(a[i]), pb(b[j]));
    // Indexes move outside the calls: an absent optional callback would skip its argument expressions.
    if (c < 0) {
      visit.left?.(a[i]);
      i++;
    } else if (c > 0) {
      visit.right?.(b[j]);
      j++;
    } else {
      visit.both?.(a[i], b[j]);
      i++;
      j++;
    }
  }
  if (visit.left) while (i < a.length) visit.left(a[i++]);
  if (visit.right) while (j < b.length) visit.right(b[j++]);
}

function unionMembers(a: readonly PathElement[], b: readonly PathElement[]): PathElement[] {
  if (b.length === 0) return a.slice();
  if (a.length === 0) return b.slice();
  const out: PathElement[] = [];
  const push = (pe: PathElement): number => out.push(pe);
  zipSorted(a, b, id, id, { both: (_x, y) => out.push(y), left: push, right: push });
  return out;
}

function intersectMembers(a: readonly PathElement[], b: readonly PathElement[]): PathElement[] {
  const out: PathElement[] = [];
  zipSorted(a, b, id, id, { both: (x) => out.push(x) });
  return out;
}

function subtractMembers(a: readonly PathElement[], b: readonly PathElement[]): PathElement[] {
  if (b.length === 0) return a.slice();
  const out: PathElement[] = [];
  zipSorted(a, b, id, id, { left: (x) => out.push(x) });
  return out;
}

export class FieldSet {
  constructor(
    readonly members: PathElement[] = [],
    readonly children: SetNode[] = [],
  ) {}

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Adds one path; its parents are not added (the empty path, "the whole object", is never tracked). */
  insert(path: Path): void {
    if (path.length === 0) return;
    let s: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) s = s.descend(path[i]);
    insertMember(s.members, path[path.length - 1]);
  }

  /** Adds one path element at this level: insert([pe]) without walking a path. */
  insertElement(pe: PathElement): void {
    insertMember(this.members, pe);
  }

  /** The child set below pe, created when missing. */
  descend(pe: PathElement): FieldSet {
    const c = this.children;
    const n = c.length;
    if (n === 0 || comparePathElements(c[n - 1].pe, pe) < 0) {
      const set = new FieldSet();
      c.push({ pe, set });
      return set;
    }
    const loc = search(c, pe, nodePe);
    if (loc < n && pathElementsEqual(c[loc].pe, pe)) return c[loc].set;
    const set = new FieldSet();
    c.splice(loc, 0, { pe, set });
    return set;
  }

  /** The child set below pe, or undefined. */
  child(pe: PathElement): FieldSet | undefined {
    const loc = search(this.children, pe, nodePe);
    return loc < this.children.length && pathElementsEqual(this.children[loc].pe, pe) ? this.children[loc].set : undefined;
  }

  hasMember(pe: PathElement): boolean {
    return hasMember(this.members, pe);
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    let s: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1; i++) {
      s = s.child(path[i]);
      if (!s) return false;
    }
    return s.hasMember(path[path.length - 1]);
  }

  union(o: FieldSet): FieldSet {
    if (o.isEmptyTree()) return this;
    if (this.isEmptyTree()) return o;
    return new FieldSet(unionMembers(this.members, o.members), unionChildren(this.children, o.children));
  }

  intersection(o: FieldSet): FieldSet {
    return new FieldSet(intersectMembers(this.members, o.members), intersectChildren(this.children, o.children));
  }

  /** Leaf difference: parent − child = parent, child − parent = child (only members are compared). */
  difference(o: FieldSet): FieldSet {
    if (o.isEmptyTree()) return this;
    return new FieldSet(subtractMembers(this.members, o.members), subtractChildren(this.children, o));
  }

  /** Removes every member of o and everything below it. */
  recursiveDifference(o: FieldSet): FieldSet {
    return new FieldSet(subtractMembers(this.members, o.members), recursiveSubtractChildren(this.children, o));
  }

  /** The subtree below pe (paths without the prefix), empty when none. */
  withPrefix(pe: PathElement): FieldSet {
    return this.child(pe) ?? new FieldSet();
  }

  isEmpty(): boolean {
    if (this.members.length > 0) return false;
    for (const c of this.children) if (!c.set.isEmpty()) return false;
    return true;
  }

  private isEmptyTree(): boolean {
    return this.members.length === 0 && this.children.length === 0;
  }

  size(): number {
    let n = this.members.length;
    for (const c of this.children) n += c.set.size();
    return n;
  }

  equals(o: FieldSet): boolean {
    if (this.members.length !== o.members.length || this.children.length !== o.children.length) return false;
    for (let i = 0; i < this.members.length; i++) if (!pathElementsEqual(this.members[i], o.members[i])) return false;
    for (let i = 0; i < this.children.length; i++) {
      if (!pathElementsEqual(this.children[i].pe, o.children[i].pe) || !this.children[i].set.equals(o.children[i].set)) return false;
    }
    return true;
  }

  /** Every member path, members of a node before its children (preorder), each in sorted order. */
  iterate(fn: (path: Path) => void, prefix: PathElement[] = []): void {
    for (const pe of this.members) fn([...prefix, pe]);
    for (const c of this.children) {
      prefix.push(c.pe);
      c.set.iterate(fn, prefix);
      prefix.pop();
    }
  }

  paths(): Path[] {
    const out: Path[] = [];
    this.iterate((p) => out.push(p));
    return out;
  }

  toString(): string {
    return this.paths().map(pathString).join('\n');
  }
}

function unionChildren(a: readonly SetNode[], b: readonly SetNode[]): SetNode[] {
  const out: SetNode[] = [];
  const push = (n: SetNode): number => out.push(n);
  zipSorted(a, b, nodePe, nodePe, { both: (x, y) => out.push({ pe: x.pe, set: x.set.union(y.set) }), left: push, right: push });
  return out;
}

function intersectChildren(a: readonly SetNode[], b: readonly SetNode[]): SetNode[] {
  const out: SetNode[] = [];
  zipSorted(a, b, nodePe, nodePe, {
    both: (x, y) => {
      const res = x.set.intersection(y.set);
      if (!res.isEmpty()) out.push({ pe: x.pe, set: res });
    },
  });
  return out;
}

function subtractChildren(a: readonly SetNode[], o: FieldSet): SetNode[] {
  const out: SetNode[] = [];
  zipSorted(a, o.children, nodePe, nodePe, {
    both: (x, y) => {
      const diff = x.set.difference(y.set);
      if (!diff.isEmpty()) out.push({ pe: x.pe, set: diff });
    },
    left: (x) => out.push(x),
  });
  return out;
}

/** Like subtractChildren, but a member of o removes the whole subtree below it. */
function recursiveSubtractChildren(a: readonly SetNode[], o: FieldSet): SetNode[] {
  const out: SetNode[] = [];
  zipSorted(a, o.children, nodePe, nodePe, {
    both: (x, y) => {
      if (o.hasMember(x.pe)) return;
      const diff = x.set.recursiveDifference(y.set);
      if (!diff.isEmpty()) out.push({ pe: x.pe, set: diff });
    },
    left: (x) => {
      if (!o.hasMember(x.pe)) out.push(x);
    },
  });
  return out;
}
