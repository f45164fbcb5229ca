import { describe, expect, it } from 'vitest';
import { JsonPath } from './jsonpath';

// Ported in meaning from k8s.io/client-go/util/jsonpath/jsonpath_test.go. Go structs become JSON objects
// (their fields addressed by JSON name); integral numbers are int64 as unstructured decoding makes them.

type Case = [name: string, template: string, input: unknown, expect: string | Error];

function run(cases: Case[], allowMissingKeys = false): void {
  for (const [name, template, input, expected] of cases) {
    it(name, () => {
      if (expected instanceof Error) {
        expect(() => JsonPath.parse(template, name).allowMissingKeys(allowMissingKeys).execute(input)).toThrow(expected.message || undefined);
        return;
      }
      expect(JsonPath.parse(template, name).allowMissingKeys(allowMissingKeys).execute(input)).toBe(expected);
    });
  }
}

const fail = (message = ''): Error => new Error(message);

describe('JsonPath: types input', () => {
  const types = {
    bools: [true, false, true, false],
    integers: [1, 2, 3, 4],
    floats: [1.0, 2.2, 3.3, 4.0],
    strings: ['one', 'two', 'three', 'four'],
    interfaces: [true, 'one', 1, 1.1],
    maps: [
      { name: 'one', value: 1 },
      { name: 'two', value: 2.02 },
      { name: 'three', value: 3.03 },
      { name: 'four', value: 4.04 },
    ],
  };
  run([
    ['boolSlice', '{ .bools }', types, '[true,false,true,false]'],
    ['boolSliceIndex', '{ .bools[0] }', types, 'true'],
    ['boolSliceIndexReverse', '{ .bools[-1] }', types, 'false'],
    ['boolSubSlice', '{ .bools[0:2] }', types, 'true false'],
    ['boolSubSliceFirst2', '{ .bools[:2] }', types, 'true false'],
    ['boolSubSliceStep2', '{ .bools[:4:2] }', types, 'true true'],
    ['integerSlice', '{ .integers }', types, '[1,2,3,4]'],
    ['integerSliceIndexReverse', '{ .integers[-2] }', types, '3'],
    ['integerSubSliceStep2', '{ .integers[:4:2] }', types, '1 3'],
    ['floatSlice', '{ .floats }', types, '[1,2.2,3.3,4]'],
    ['floatSliceIndexReverse', '{ .floats[-2] }', types, '3.3'],
    ['floatSubSliceStep2', '{ .floats[:4:2] }', types, '1 3.3'],
    ['stringSlice', '{ .strings }', types, '["one","two","three","four"]'],
    ['stringSliceIndexReverse', '{ .strings[-2] }', types, 'three'],
    ['stringSubSliceFirst2Alt', '{ .strings[:2] }', types, 'one two'],
    ['interfaceSlice', '{ .interfaces }', types, '[true,"one",1,1.1]'],
    ['interfaceSubSliceStep2', '{ .interfaces[:4:2] }', types, 'true 1'],
    ['mapSlice', '{ .maps }', types, '[{"name":"one","value":1},{"name":"two","value":2.02},{"name":"three","value":3.03},{"name":"four","value":4.04}]'],
    ['mapSliceIndexReverse', '{ .maps[-2] }', types, '{"name":"three","value":3.03}'],
    ['mapSubSliceStepOdd', '{ .maps[::2] }', types, '{"name":"one","value":1} {"name":"three","value":3.03}'],
    ['mapSubSliceStepEven', '{ .maps[1::2] }', types, '{"name":"two","value":2.02} {"name":"four","value":4.04}'],
  ]);
});

describe('JsonPath: store input', () => {
  const store = {
    Name: 'jsonpath',
    Book: [
      { Category: 'reference', Author: 'Nigel Rees', Title: 'Sayings of the Centurey', Price: 8.95 },
      { Category: 'fiction', Author: 'Evelyn Waugh', Title: 'Sword of Honour', Price: 12.99 },
      { Category: 'fiction', Author: 'Herman Melville', Title: 'Moby Dick', Price: 8.99 },
    ],
    Bicycle: [
      { Color: 'red', Price: 19.95, IsNew: true },
      { Color: 'green', Price: 20.01, IsNew: false },
    ],
    Labels: { engieer: 10, 'web/html': 15, 'k8s-app': 20 },
    Employees: { jason: 'manager', dan: 'clerk' },
  };
  run([
    ['plain', 'hello jsonpath', null, 'hello jsonpath'],
    ['recursive', '{..}', [1, 2, 3], '[1,2,3]'],
    ['filter', '{[?(@<5)]}', [2, 6, 3, 7], '2 3'],
    ['quote', '{"{"}', null, '{'],
    ['union', '{[1,3,4]}', [0, 1, 2, 3, 4], '1 3 4'],
    ['array', '{[0:2]}', ['Monday', 'Tudesday'], 'Monday Tudesday'],
    ['variable', 'hello {.Name}', store, 'hello jsonpath'],
    ['dict/', '{$.Labels.web/html}', store, '15'],
    ['dict/ employees', '{$.Employees.jason}', store, 'manager'],
    ['dict-', '{.Labels.k8s-app}', store, '20'],
    ['nest', '{.Bicycle[*].Color}', store, 'red green'],
    ['allarray', '{.Book[*].Author}', store, 'Nigel Rees Evelyn Waugh Herman Melville'],
    ['allfields', '{range .Bicycle[*]}{ "{" }{ @.* }{ "} " }{end}', store, '{red 19.95 true} {green 20.01 false} '],
    ['recurfields', '{..Price}', store, '8.95 12.99 8.99 19.95 20.01'],
    ['recurdotfields', '{...Price}', store, '8.95 12.99 8.99 19.95 20.01'],
    ['superrecurfields', '{............................................................Price}', store, fail('invalid multiple recursive descent')],
    ['allstructsSlice', '{.Bicycle}', store, '[{"Color":"red","IsNew":true,"Price":19.95},{"Color":"green","IsNew":false,"Price":20.01}]'],
    ['allstructs', '{range .Bicycle[*]}{ @ }{ " " }{end}', store, '{"Color":"red","IsNew":true,"Price":19.95} {"Color":"green","IsNew":false,"Price":20.01} '],
    ['lastarray', '{.Book[-1:]}', store, '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}'],
    ['recurarray', '{..Book[2]}', store, '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}'],
    ['bool', '{.Bicycle[?(@.IsNew==true)]}', store, '{"Color":"red","IsNew":true,"Price":19.95}'],
  ]);

  describe('missing keys allowed', () => {
    run(
      [
        ['nonexistent field', '{.hello}', store, ''],
        ['nonexistent field 2', 'before-{.hello}after', store, 'before-after'],
      ],
      true,
    );
  });

  describe('evaluation errors', () => {
    run([
      ['invalid identifier', '{hello}', store, fail('unrecognized identifier hello')],
      ['nonexistent field', '{.hello}', store, fail('hello is not found')],
      ['invalid array', '{.Labels[0]}', store, fail('map[string]interface {} is not array or slice')],
      ['invalid filter operator', '{.Book[?(@.Price<>10)]}', store, fail('unrecognized filter operator <>')],
      ['redundant end', '{range .Labels.*}{@}{end}{end}', store, fail('not in range, nothing to end')],
    ]);
  });
});

describe('JsonPath: JSON input', () => {
  const points = [
    { id: 'i1', x: 4, y: -5 },
    { id: 'i2', x: -2, y: -5, z: 1 },
    { id: 'i3', x: 8, y: 3 },
    { id: 'i4', x: -6, y: -1 },
    { id: 'i5', x: 0, y: 2, z: 1 },
    { id: 'i6', x: 1, y: 4 },
  ];
  run([
    ['exists filter', '{[?(@.z)].id}', points, 'i2 i5'],
    ['bracket key', "{[0]['id']}", points, 'i1'],
    ['comparison filter', '{[?(@.x>=1)].id}', points, 'i1 i3 i6'],
    ['not equal filter', '{[?(@.y!=-5)].id}', points, 'i3 i4 i5 i6'],
    ['float against int is incompatible', '{[?(@.x<1.5)].id}', points, fail('incompatible types for comparison')],
  ]);
});

describe('JsonPath: kubernetes use cases', () => {
  const nodes = {
    kind: 'List',
    items: [
      {
        kind: 'None',
        metadata: { name: '127.0.0.1', labels: { 'kubernetes.io/hostname': '127.0.0.1' } },
        status: { capacity: { cpu: '4' }, ready: true, addresses: [{ type: 'LegacyHostIP', address: '127.0.0.1' }] },
      },
      {
        kind: 'None',
        metadata: { name: '127.0.0.2', labels: { 'kubernetes.io/hostname': '127.0.0.2' } },
        status: {
          capacity: { cpu: '8' },
          ready: false,
          addresses: [
            { type: 'LegacyHostIP', address: '127.0.0.2' },
            { type: 'another', address: '127.0.0.3' },
          ],
        },
      },
    ],
    users: [
      { name: 'myself', user: {} },
      { name: 'e2e', user: { username: 'admin', password: 'secret' } },
    ],
  };
  run([
    ['range item', '{range .items[*]}{.metadata.name}, {end}{.kind}', nodes, '127.0.0.1, 127.0.0.2, List'],
    ['range item with quote', '{range .items[*]}{.metadata.name}{"\\t"}{end}', nodes, '127.0.0.1\t127.0.0.2\t'],
    ['range addresss', '{.items[*].status.addresses[*].address}', nodes, '127.0.0.1 127.0.0.2 127.0.0.3'],
    ['double range', '{range .items[*]}{range .status.addresses[*]}{.address}, {end}{end}', nodes, '127.0.0.1, 127.0.0.2, 127.0.0.3, '],
    ['item name', '{.items[*].metadata.name}', nodes, '127.0.0.1 127.0.0.2'],
    ['union nodes capacity', "{.items[*]['metadata.name', 'status.capacity']}", nodes, '127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}'],
    ['range nodes capacity', '{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}', nodes, '[127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] '],
    ['user password', '{.users[?(@.name=="e2e")].user.password}', nodes, 'secret'],
    ['hostname', '{.items[0].metadata.labels.kubernetes\\.io/hostname}', nodes, '127.0.0.1'],
    ['hostname filter', '{.items[?(@.metadata.labels.kubernetes\\.io/hostname=="127.0.0.1")].kind}', nodes, 'None'],
    ['bool item', '{.items[?(@..ready==true)].metadata.name}', nodes, '127.0.0.1'],
  ]);

  it('recursive name (map order is free, so sorted)', () => {
    const out = JsonPath.parse('{..name}').execute(nodes).split(' ').sort();
    expect(out).toEqual(['127.0.0.1', '127.0.0.2', 'e2e', 'myself']);
  });
});

describe('JsonPath: ranges', () => {
  describe('empty', () => {
    run(
      [
        ['empty range', '{range .items[*]}{.metadata.name}{end}', { items: [] }, ''],
        ['empty nested range', '{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}', { items: [] }, ''],
      ],
      true,
    );
  });
  const pods = {
    items: [
      {
        metadata: { name: 'pod1' },
        spec: {
          containers: [
            { name: 'foo', another: [{ name: 'value1' }, { name: 'value2' }] },
            { name: 'bar', another: [{ name: 'value1' }, { name: 'value2' }] },
          ],
        },
      },
      { metadata: { name: 'pod2' }, spec: { containers: [{ name: 'baz', another: [{ name: 'value1' }, { name: 'value2' }] }] } },
    ],
  };
  run([
    ['nested range with a trailing newline', '{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}', pods, 'pod1:foo,bar,+pod2:baz,+'],
    [
      'nested range within another nested range',
      '{range .items[*]}{.metadata.name}{"~"}{range @.spec.containers[*]}{.name}{":"}{range @.another[*]}{.name}{","}{end}{"+"}{end}{"#"}{end}',
      pods,
      'pod1~foo:value1,value2,+bar:value1,value2,+#pod2~baz:value1,value2,+#',
    ],
    [
      'two nested ranges at the same level',
      '{range .items[*]}{.metadata.name}{"\\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\\n"}{end}',
      pods,
      'pod1\tfoo bar \tfoo bar \npod2\tbaz \tbaz \n',
    ],
  ]);
});

describe('JsonPath: filters over partial matches (issue 45546)', () => {
  const data = {
    kind: 'List',
    items: [
      { kind: 'Pod', metadata: { name: 'pod1', annotations: { color: 'blue' } } },
      { kind: 'Pod', metadata: { name: 'pod2' } },
      { kind: 'Pod', metadata: { name: 'pod3', annotations: { color: 'green' } } },
      { kind: 'Pod', metadata: { name: 'pod4', annotations: { color: 'blue' } } },
    ],
  };
  const template = '{.items[?(@.metadata.annotations.color=="blue")].metadata.name}';
  run([['tolerating missing items', template, data, 'pod1 pod4']], true);
  run([['error on missing items', template, data, fail('annotations is not found')]], false);
  run([['range over running pods', '{range .items[?(.status.phase=="Running")]}{.metadata.name}{" is Running\\n"}{end}', { items: [{ metadata: { name: 'p1' }, status: { phase: 'Running' } }, { metadata: { name: 'p2' }, status: { phase: 'Pending' } }, { resourceVersion: '' }] }, 'p1 is Running\n']], true);
});

describe('JsonPath: negative indexes and steps', () => {
  const pod = { spec: { containers: [0, 1, 2, 3, 4, 5].map((i) => ({ name: `fake${i}` })) } };
  const four = { spec: { containers: pod.spec.containers.slice(0, 4) } };
  run([
    ['containers[0]', '{.spec.containers[0].name}', four, 'fake0'],
    ['containers[0:0] is empty', '{.spec.containers[0:0].name}', four, ''],
    ['containers[0:-1]', '{.spec.containers[0:-1].name}', four, 'fake0 fake1 fake2'],
    ['containers[-1:0] errors', '{.spec.containers[-1:0].name}', four, fail('starting index 3 is greater than ending index 0')],
    ['containers[-1]', '{.spec.containers[-1].name}', four, 'fake3'],
    ['containers[-1:]', '{.spec.containers[-1:].name}', four, 'fake3'],
    ['containers[-2:]', '{.spec.containers[-2:].name}', four, 'fake2 fake3'],
    ['containers[-4]', '{.spec.containers[-4].name}', four, 'fake0'],
    ['containers[-5] out of bounds', '{.spec.containers[-5].name}', four, fail('array index out of bounds: index -1, length 4')],
    ['containers[5:5] is empty', '{.spec.containers[5:5].name}', four, ''],
    ['containers[-5:-5] is empty', '{.spec.containers[-5:-5].name}', four, ''],
    ['containers[3:1] errors', '{.spec.containers[3:1].name}', four, fail('starting index 3 is greater than ending index 1')],
    ['containers[0:6:] is all', '{.spec.containers[0:6:].name}', pod, 'fake0 fake1 fake2 fake3 fake4 fake5'],
    ['step 0 errors', '{.spec.containers[0:6:0].name}', pod, fail('step must be > 0')],
    ['negative step errors', '{.spec.containers[0:6:-1].name}', pod, fail('step must be > 0')],
    ['containers[1:4:2]', '{.spec.containers[1:4:2].name}', pod, 'fake1 fake3'],
    ['containers[1:4:4]', '{.spec.containers[1:4:4].name}', pod, 'fake1'],
    ['containers[0:6:5]', '{.spec.containers[0:6:5].name}', pod, 'fake0 fake5'],
  ]);
});

describe('JsonPath: printer-column shapes of real operators', () => {
  const cert = {
    metadata: { name: 'c', annotations: { 'cert-manager.io/issuer': 'x' } },
    spec: { secretName: 'tls', dnsNames: ['a.example', 'b.example'] },
    status: {
      conditions: [
        { type: 'Issuing', status: 'False', message: 'not yet' },
        { type: 'Ready', status: 'True', message: 'Certificate is up to date and has not expired', lastTransitionTime: '2024-01-01T00:00:00Z' },
      ],
      replicas: 3,
      ratio: 2.5,
    },
  };
  run([
    ['condition status by type', '{.status.conditions[?(@.type=="Ready")].status}', cert, 'True'],
    ['single-quoted literal', "{.status.conditions[?(@.type=='Ready')].message}", cert, 'Certificate is up to date and has not expired'],
    ['annotation key with escaped dots', "{.metadata.annotations['cert-manager\\.io/issuer']}", cert, 'x'],
    ['annotation key with unescaped dots is a path', "{.metadata.annotations['cert-manager.io/issuer']}", cert, ''],
    ['annotation by escaped field', '{.metadata.annotations.cert-manager\\.io/issuer}', cert, 'x'],
    ['first of a list', '{.spec.dnsNames[0]}', cert, 'a.example'],
    ['integer compare', '{.items[?(@.replicas>2)].name}', { items: [{ name: 'a', replicas: 3 }, { name: 'b', replicas: 1 }, { name: 'c' }] }, 'a'],
    ['string order compare', '{.items[?(@.name<"b")].name}', { items: [{ name: 'a' }, { name: 'b' }] }, 'a'],
    ['float prints like Go', '{.status.ratio}', cert, '2.5'],
  ], true);

  it('floats print as Go prints float64', () => {
    expect(JsonPath.parse('{.a} {.b} {.c}').execute({ a: 1234567.5, b: 0.00001, c: 0.5 })).toBe('1.2345675e+06 1e-05 0.5');
  });

  it('objects print as encoding/json does: sorted keys, HTML escaped', () => {
    expect(JsonPath.parse('{.a}').execute({ a: { z: '<b>', a: 1 } })).toBe('{"a":1,"z":"\\u003cb\\u003e"}');
  });

  it('results keep their groups (what printer columns read)', () => {
    const jp = JsonPath.parse('{.status.conditions[*].type}').allowMissingKeys(true);
    expect(jp.findResults(cert)).toEqual([['Issuing', 'Ready']]);
    expect(jp.findResults({})).toEqual([[]]);
  });
});
