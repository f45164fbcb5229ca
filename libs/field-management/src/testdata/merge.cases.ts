/**
 * The table-driven merge suite: sequences of applies and updates and the object and ownership they
 * must leave, ported in meaning from structured-merge-diff's merge tests (leaf, set, associative
 * list, multiple appliers, nested structs, deduced types). Shared by merge.updater.spec.ts and the Go
 * oracle (tools/smd-oracle), which replays the same operations with the reference implementation.
 */
import type { JsonValue } from '@kube/apimachinery';
import type { SCHEMAS } from './merge.schemas';

export interface MergeOp {
  manager: string;
  apply?: JsonValue;
  update?: JsonValue;
  force?: boolean;
  apiVersion?: string;
  /** Expected conflicts, each `manager: path`, sorted. */
  conflicts?: string[];
  /** Expected error text (other than conflicts). */
  error?: string;
}

export interface MergeCase {
  name: string;
  schema: keyof typeof SCHEMAS;
  type: string;
  ops: MergeOp[];
  /** Expected live object after the last operation (null: empty). */
  object?: JsonValue;
  /** Expected ownership: manager → its paths, sorted. */
  managed?: Record<string, string[]>;
}

export const MERGE_CASES: MergeCase[] = [
  // ---- scalar fields ----
  {
    name: 'leaf: apply twice',
    schema: 'leaf',
    type: 'leafFields',
    ops: [
      { manager: 'default', apply: { numeric: 1, string: 'string' } },
      { manager: 'default', apply: { numeric: 2, string: 'string', bool: false } },
    ],
    object: { numeric: 2, string: 'string', bool: false },
    managed: { default: ['.bool', '.numeric', '.string'] },
  },
  {
    name: 'leaf: apply, update, apply without conflict',
    schema: 'leaf',
    type: 'leafFields',
    ops: [
      { manager: 'default', apply: { numeric: 1, string: 'string' } },
      { manager: 'controller', update: { numeric: 1, string: 'string', bool: true } },
      { manager: 'default', apply: { numeric: 2, string: 'string' } },
    ],
    object: { numeric: 2, string: 'string', bool: true },
    managed: { default: ['.numeric', '.string'], controller: ['.bool'] },
  },
  {
    name: 'leaf: apply, update, apply with a conflict, then forced',
    schema: 'leaf',
    type: 'leafFields',
    ops: [
      { manager: 'default', apply: { numeric: 1, string: 'string' } },
      { manager: 'controller', update: { numeric: 1, string: 'controller string', bool: true } },
      { manager: 'default', apply: { numeric: 2, string: 'user string' }, conflicts: ['controller: .string'] },
      { manager: 'default', apply: { numeric: 2, string: 'user string' }, force: true },
    ],
    object: { numeric: 2, string: 'user string', bool: true },
    managed: { default: ['.numeric', '.string'], controller: ['.bool'] },
  },
  {
    name: 'leaf: applying fewer fields removes the others',
    schema: 'leaf',
    type: 'leafFields',
    ops: [
      { manager: 'default', apply: { numeric: 1, string: 'string', bool: false } },
      { manager: 'default', apply: { string: 'new string' } },
    ],
    object: { string: 'new string' },
    managed: { default: ['.string'] },
  },
  {
    name: 'leaf: an update takes a field away from the applier',
    schema: 'leaf',
    type: 'leafFields',
    ops: [
      { manager: 'default', apply: { string: 'string' } },
      { manager: 'controller', update: { string: 'new string' } },
    ],
    object: { string: 'new string' },
    managed: { controller: ['.string'] },
  },
  {
    name: 'leaf: applying nothing empties the object',
    schema: 'leaf',
    type: 'leafFields',
    ops: [
      { manager: 'default', apply: { string: 'string' } },
      { manager: 'default', apply: {} },
    ],
    object: null,
    managed: {},
  },
  {
    name: 'leaf: an update removing a field takes it from its owner and gives nothing',
    schema: 'leaf',
    type: 'leafFields',
    ops: [
      { manager: 'default', apply: { numeric: 1, string: 'x' } },
      { manager: 'controller', update: { numeric: 1 } },
    ],
    object: { numeric: 1 },
    managed: { default: ['.numeric'] },
  },
  {
    name: 'leaf: an unchanged update gives no ownership',
    schema: 'leaf',
    type: 'leafFields',
    ops: [
      { manager: 'default', apply: { numeric: 1 } },
      { manager: 'controller', update: { numeric: 1 } },
    ],
    object: { numeric: 1 },
    managed: { default: ['.numeric'] },
  },
  // ---- multiple appliers ----
  {
    name: 'appliers: the same value is shared without conflict',
    schema: 'leaf',
    type: 'leafFields',
    ops: [
      { manager: 'a', apply: { string: 'x' } },
      { manager: 'b', apply: { string: 'x' } },
    ],
    object: { string: 'x' },
    managed: { a: ['.string'], b: ['.string'] },
  },
  {
    name: 'appliers: a different value conflicts, force transfers ownership',
    schema: 'leaf',
    type: 'leafFields',
    ops: [
      { manager: 'a', apply: { string: 'x', numeric: 1 } },
      { manager: 'b', apply: { string: 'y' }, conflicts: ['a: .string'] },
      { manager: 'b', apply: { string: 'y' }, force: true },
    ],
    object: { string: 'y', numeric: 1 },
    managed: { a: ['.numeric'], b: ['.string'] },
  },
  {
    name: 'appliers: a field still applied by another stays when one stops applying it',
    schema: 'leaf',
    type: 'leafFields',
    ops: [
      { manager: 'a', apply: { numeric: 1, string: 'x' } },
      { manager: 'b', apply: { string: 'x' } },
      { manager: 'a', apply: { numeric: 1 } },
    ],
    object: { numeric: 1, string: 'x' },
    managed: { a: ['.numeric'], b: ['.string'] },
  },
  {
    name: 'appliers: conflicts with several managers are all reported',
    schema: 'leaf',
    type: 'leafFields',
    ops: [
      { manager: 'a', apply: { string: 'x' } },
      { manager: 'b', update: { string: 'x', numeric: 1, bool: true } },
      { manager: 'c', apply: { string: 'y', numeric: 2, bool: false }, conflicts: ['a: .string', 'b: .bool', 'b: .numeric'] },
    ],
    object: { string: 'x', numeric: 1, bool: true },
    managed: { a: ['.string'], b: ['.bool', '.numeric'] },
  },
  // ---- sets ----
  {
    name: 'set: apply twice',
    schema: 'sets',
    type: 'sets',
    ops: [
      { manager: 'default', apply: { list: ['a', 'c'] } },
      { manager: 'default', apply: { list: ['a', 'b', 'c', 'd'] } },
    ],
    object: { list: ['a', 'b', 'c', 'd'] },
    managed: { default: ['.list[="a"]', '.list[="b"]', '.list[="c"]', '.list[="d"]'] },
  },
  {
    name: 'set: apply, update, apply with overlap',
    schema: 'sets',
    type: 'sets',
    ops: [
      { manager: 'default', apply: { list: ['a', 'c'] } },
      { manager: 'controller', update: { list: ['a', 'b', 'c', 'd'] } },
      { manager: 'default', apply: { list: ['a', 'b', 'c'] } },
    ],
    object: { list: ['a', 'b', 'c', 'd'] },
    managed: { default: ['.list[="a"]', '.list[="b"]', '.list[="c"]'], controller: ['.list[="b"]', '.list[="d"]'] },
  },
  {
    name: 'set: reordering follows the applied order',
    schema: 'sets',
    type: 'sets',
    ops: [
      { manager: 'default', apply: { list: ['a', 'b', 'c', 'd'] } },
      { manager: 'default', apply: { list: ['a', 'd', 'c', 'b'] } },
    ],
    object: { list: ['a', 'd', 'c', 'b'] },
    managed: { default: ['.list[="a"]', '.list[="b"]', '.list[="c"]', '.list[="d"]'] },
  },
  {
    name: 'set: an update reordering items owns nothing',
    schema: 'sets',
    type: 'sets',
    ops: [
      { manager: 'default', apply: { list: ['a', 'b', 'c', 'd'] } },
      { manager: 'controller', update: { list: ['a', 'd', 'c', 'b'] } },
      { manager: 'default', apply: { list: ['a', 'b', 'c', 'd'] } },
    ],
    object: { list: ['a', 'b', 'c', 'd'] },
    managed: { default: ['.list[="a"]', '.list[="b"]', '.list[="c"]', '.list[="d"]'] },
  },
  {
    name: 'set: items no longer applied are removed',
    schema: 'sets',
    type: 'sets',
    ops: [
      { manager: 'default', apply: { list: ['a', 'b', 'c', 'd'] } },
      { manager: 'default', apply: { list: ['a', 'c'] } },
    ],
    object: { list: ['a', 'c'] },
    managed: { default: ['.list[="a"]', '.list[="c"]'] },
  },
  {
    name: 'set: an item owned by an updater survives the applier dropping it',
    schema: 'sets',
    type: 'sets',
    ops: [
      { manager: 'a', apply: { list: ['x'] } },
      { manager: 'controller', update: { list: ['x', 'y'] } },
      { manager: 'a', apply: { list: [] } },
    ],
    object: { list: ['y'] },
    managed: { controller: ['.list[="y"]'] },
  },
  // ---- associative lists (list-type map) ----
  {
    name: 'map list: remove one, keep one owned by another applier',
    schema: 'associative',
    type: 'type',
    ops: [
      { manager: 'apply-one', apply: { list: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } },
      { manager: 'apply-two', apply: { list: [{ name: 'c' }, { name: 'd' }] } },
      { manager: 'apply-one', apply: { list: [{ name: 'a' }] } },
    ],
    object: { list: [{ name: 'a' }, { name: 'c' }, { name: 'd' }] },
    managed: {
      'apply-one': ['.list[name="a"]', '.list[name="a"].name'],
      'apply-two': ['.list[name="c"]', '.list[name="c"].name', '.list[name="d"]', '.list[name="d"].name'],
    },
  },
  {
    name: 'map list: a field of an item owned by another applier conflicts',
    schema: 'associative',
    type: 'type',
    ops: [
      { manager: 'a', apply: { list: [{ name: 'x', value: 1 }] } },
      { manager: 'b', apply: { list: [{ name: 'x', value: 2 }] }, conflicts: ['a: .list[name="x"].value'] },
    ],
    object: { list: [{ name: 'x', value: 1 }] },
    managed: { a: ['.list[name="x"]', '.list[name="x"].name', '.list[name="x"].value'] },
  },
  {
    name: 'map list: items only in the live list keep their place, shared ones follow the applied order',
    schema: 'associative',
    type: 'type',
    ops: [
      { manager: 'a', apply: { list: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } },
      { manager: 'b', apply: { list: [{ name: 'd' }, { name: 'b' }] } },
    ],
    object: { list: [{ name: 'a' }, { name: 'd' }, { name: 'b' }, { name: 'c' }] },
  },
  {
    name: 'map list: a missing key field uses its schema default (port + protocol)',
    schema: 'associative',
    type: 'type',
    ops: [{ manager: 'a', apply: { ports: [{ port: 80, name: 'http' }, { port: 53, protocol: 'UDP' }] } }],
    object: { ports: [{ port: 80, name: 'http' }, { port: 53, protocol: 'UDP' }] },
    managed: {
      a: ['.ports[port=53,protocol="UDP"]', '.ports[port=53,protocol="UDP"].port', '.ports[port=53,protocol="UDP"].protocol', '.ports[port=80,protocol="TCP"]', '.ports[port=80,protocol="TCP"].name', '.ports[port=80,protocol="TCP"].port'],
    },
  },
  {
    name: 'map list: the same port with two protocols is two items',
    schema: 'associative',
    type: 'type',
    ops: [
      { manager: 'a', apply: { ports: [{ port: 53, protocol: 'TCP', name: 'dns-tcp' }] } },
      { manager: 'b', apply: { ports: [{ port: 53, protocol: 'UDP', name: 'dns' }] } },
    ],
    object: { ports: [{ port: 53, protocol: 'TCP', name: 'dns-tcp' }, { port: 53, protocol: 'UDP', name: 'dns' }] },
  },
  {
    name: 'map list: duplicate keys in an applied config are refused',
    schema: 'associative',
    type: 'type',
    ops: [{ manager: 'a', apply: { list: [{ name: 'x' }, { name: 'x', value: 1 }] }, error: '.list: duplicate entries for key [name="x"]' }],
  },
  {
    name: 'map list: an item without its key is refused',
    schema: 'associative',
    type: 'type',
    ops: [{ manager: 'a', apply: { list: [{ value: 1 }] }, error: '.list: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)' }],
  },
  {
    name: 'map list: nested lists merge by key too',
    schema: 'associative',
    type: 'type',
    ops: [
      { manager: 'a', apply: { list: [{ name: 'x', nested: [{ name: 'n1', value: 1 }] }] } },
      { manager: 'b', apply: { list: [{ name: 'x', nested: [{ name: 'n2', value: 2 }] }] } },
      { manager: 'a', apply: { list: [{ name: 'x' }] } },
    ],
    object: { list: [{ name: 'x', nested: [{ name: 'n2', value: 2 }] }] },
    managed: {
      a: ['.list[name="x"]', '.list[name="x"].name'],
      b: ['.list[name="x"]', '.list[name="x"].name', '.list[name="x"].nested[name="n2"]', '.list[name="x"].nested[name="n2"].name', '.list[name="x"].nested[name="n2"].value'],
    },
  },
  {
    name: 'map list: an update adding an item owns it and its fields',
    schema: 'associative',
    type: 'type',
    ops: [
      { manager: 'a', apply: { list: [{ name: 'x', value: 1 }] } },
      { manager: 'controller', update: { list: [{ name: 'x', value: 1 }, { name: 'y', value: 2 }] } },
    ],
    object: { list: [{ name: 'x', value: 1 }, { name: 'y', value: 2 }] },
    managed: {
      a: ['.list[name="x"]', '.list[name="x"].name', '.list[name="x"].value'],
      controller: ['.list[name="y"]', '.list[name="y"].name', '.list[name="y"].value'],
    },
  },
  // ---- atomic lists and maps, granular maps ----
  {
    name: 'atomic list: owned as a whole, a different list conflicts',
    schema: 'associative',
    type: 'type',
    ops: [
      { manager: 'a', apply: { atomicList: ['x', 'y'] } },
      { manager: 'b', apply: { atomicList: ['x', 'y', 'z'] }, conflicts: ['a: .atomicList'] },
      { manager: 'b', apply: { atomicList: ['x', 'y', 'z'] }, force: true },
    ],
    object: { atomicList: ['x', 'y', 'z'] },
    managed: { b: ['.atomicList'] },
  },
  {
    name: 'granular map: keys owned separately',
    schema: 'associative',
    type: 'type',
    ops: [
      { manager: 'a', apply: { labels: { x: '1' } } },
      { manager: 'b', apply: { labels: { y: '2' } } },
      { manager: 'a', apply: {} },
    ],
    object: { labels: { y: '2' } },
    managed: { b: ['.labels.y'] },
  },
  {
    name: 'atomic map: owned as a whole',
    schema: 'associative',
    type: 'type',
    ops: [
      { manager: 'a', apply: { atomicMap: { x: '1' } } },
      { manager: 'b', apply: { atomicMap: { y: '2' } }, conflicts: ['a: .atomicMap'] },
    ],
    object: { atomicMap: { x: '1' } },
    managed: { a: ['.atomicMap'] },
  },
  // ---- nested structs ----
  {
    name: 'struct: dropping a nested struct removes it',
    schema: 'associative',
    type: 'type',
    ops: [
      { manager: 'a', apply: { struct: { name: 'a', complexField: { name: 'b', scalarField: 'c' } } } },
      { manager: 'a', apply: { struct: { name: 'a' } } },
    ],
    object: { struct: { name: 'a' } },
    managed: { a: ['.struct.name'] },
  },
  {
    name: 'struct: a field set by an update conflicts with an apply',
    schema: 'associative',
    type: 'type',
    ops: [
      { manager: 'controller', update: { struct: { name: 'a', scalarField: 's' } } },
      { manager: 'a', apply: { struct: { scalarField: 't' } }, conflicts: ['controller: .struct.scalarField'] },
    ],
    object: { struct: { name: 'a', scalarField: 's' } },
    managed: { controller: ['.struct', '.struct.name', '.struct.scalarField'] },
  },
  {
    name: 'struct: a dangling sub-field owned by nobody goes with its parent',
    schema: 'associative',
    type: 'type',
    ops: [
      { manager: 'a', apply: { struct: { name: 'a', complexField: { name: 'b' } } } },
      { manager: 'controller', update: { struct: { name: 'a', complexField: { name: 'b' } } } },
      { manager: 'a', apply: { struct: { name: 'a' } } },
    ],
    object: { struct: { name: 'a' } },
    managed: { a: ['.struct.name'] },
  },
  // ---- untyped (deduced) ----
  {
    name: 'deduced: maps are granular, lists atomic',
    schema: 'deduced',
    type: '__untyped_deduced_',
    ops: [
      { manager: 'a', apply: { a: 1, b: { c: 2 }, l: [1, 2] } },
      { manager: 'b', apply: { b: { d: 3 } } },
      { manager: 'a', apply: { a: 1 } },
    ],
    object: { a: 1, b: { d: 3 } },
    managed: { a: ['.a'], b: ['.b', '.b.d'] },
  },
  {
    name: 'deduced: a list is one field',
    schema: 'deduced',
    type: '__untyped_deduced_',
    ops: [
      { manager: 'a', apply: { l: [1] } },
      { manager: 'b', apply: { l: [2] }, conflicts: ['a: .l'] },
    ],
    object: { l: [1] },
    managed: { a: ['.l'] },
  },
  {
    name: 'deduced: a scalar replaced by a map',
    schema: 'deduced',
    type: '__untyped_deduced_',
    ops: [
      { manager: 'a', apply: { x: 'scalar' } },
      { manager: 'a', apply: { x: { y: 1 } } },
    ],
    object: { x: { y: 1 } },
    managed: { a: ['.x', '.x.y'] },
  },
];
