import { describe, expect, it } from 'vitest';
import { LabelSelector, labelSelectorFromMetav1, labelSelectorFromSet, parseLabelSelector } from './label-selector';
import { StatusError } from './status.errors';

function parseError(s: string): StatusError {
  try {
    parseLabelSelector(s);
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(s)} to fail`);
}

const reqs = (s: string): Array<[string, string, readonly string[]]> => parseLabelSelector(s).requirements.map((r) => [r.key, r.operator, r.values]);

describe('parseLabelSelector: syntax (kube TestSelectorParse / TestSetSelectorParser)', () => {
  it.each(['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= ', '!x', 'x>1', 'x>1,z<5'])('round-trips %j', (s) => {
    expect(parseLabelSelector(s).toString()).toBe(s.replace(/ /g, ''));
  });

  it.each(['x=a||y=b', 'x==a==b', '!x=a', 'x<a', 'x,,y', ',x,y', 'x nott in (y)', 'a in (xyz),', 'a in (xyz)b notin ()', 'a in (xyz abc)', 'a notin(', 'a (', '('])(
    'rejects %j',
    (s) => expect(parseError(s).code).toBe(400),
  );

  it('parses set-based requirements with whitespace, sorting keys and values', () => {
    expect(reqs('x notin (abc,,def),bar,z in (),w')).toEqual([
      ['bar', 'exists', []],
      ['w', 'exists', []],
      ['x', 'notin', ['', 'abc', 'def']],
      ['z', 'in', ['']],
    ]);
    expect(reqs('foo  in\t (abc)')).toEqual([['foo', 'in', ['abc']]]);
    expect(reqs('x notin\n (abc)')).toEqual([['x', 'notin', ['abc']]]);
    expect(reqs('\rx')).toEqual([['x', 'exists', []]]);
    expect(reqs('0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)')).toEqual([['0.1.2.domain/99', 'notin', ['10.10.100.1', 'tick.tack.clock']]]);
  });

  it('handles empty entries in value lists', () => {
    expect(reqs('x in (abc,)')).toEqual([['x', 'in', ['', 'abc']]]);
    expect(reqs('x in (abc,abc)')).toEqual([['x', 'in', ['abc']]]);
    expect(reqs('x in (a,,,,,,)')).toEqual([['x', 'in', ['', 'a']]]);
    expect(reqs('x in (a,,a,,a,,a,,)')).toEqual([['x', 'in', ['', 'a']]]);
    expect(reqs('x notin (, a)')).toEqual([['x', 'notin', ['', 'a']]]);
    expect(reqs('x notin ( )')).toEqual([['x', 'notin', ['']]]);
  });

  it('treats in/notin as identifiers inside value lists and as values', () => {
    expect(reqs('a in (x,y,notin, z,in)')).toEqual([['a', 'in', ['in', 'notin', 'x', 'y', 'z']]]);
    expect(parseLabelSelector('notin=in').matches({ notin: 'in' })).toBe(true);
  });

  it('is deterministic regardless of term order', () => {
    expect(parseLabelSelector('x=a,a=x').toString()).toBe(parseLabelSelector('a=x,x=a').toString());
    expect(parseLabelSelector('x in (c,a,b)').toString()).toBe('x in (a,b,c)');
  });
});

describe('parseLabelSelector: kube error messages', () => {
  it.each([
    ['x=a y=b', "found 'y', expected: ',' or 'end of string'"],
    ['x,,y', "found ',', expected: identifier after ','"],
    [',x', "found ',', expected: !, identifier, or 'end of string'"],
    ['a in (xyz abc)', "unable to parse requirement: found 'abc', expected: ',' or ')'"],
    ['a notin(', "unable to parse requirement: found '', expected: ',', ')' or identifier"],
    ['x nott in (y)', "unable to parse requirement: found 'nott', expected: in, notin, =, ==, !=, gt, lt"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['x in y', "unable to parse requirement: found 'y' expected: '('"],
  ])('%j → %s', (s, message) => {
    const err = parseError(s);
    expect(err.status).toMatchObject({ code: 400, reason: 'BadRequest', message });
  });

  it('validates keys with a nil field path, as kube prints it', () => {
    expect(parseError('-ltier=postgres').message).toBe(
      "unable to parse requirement: <nil>: Invalid value: \"-ltier\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    );
  });

  it('validates values at values[i][key]', () => {
    expect(parseError('app=a_').message).toBe(
      "unable to parse requirement: values[0][app]: Invalid value: \"a_\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
  });

  it('requires integers for > and <', () => {
    expect(parseError('x<a').message).toBe("unable to parse requirement: values[0]: Invalid value: \"a\": for 'Gt', 'Lt' operators, the value must be an integer");
  });
});

describe('LabelSelector.matches (kube TestSelectorMatches)', () => {
  it.each([
    ['', { x: 'y' }],
    ['x=y', { x: 'y' }],
    ['x==y', { x: 'y' }],
    ['x=y,z=w', { x: 'y', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'a' }],
    ['x!=y', {}],
    ['x', { x: 'z' }],
    ['!x', { y: 'z' }],
    ['x>1', { x: '2' }],
    ['x<1', { x: '0' }],
    ['x in (a,b)', { x: 'b' }],
    ['x notin (a,b)', { x: 'c' }],
    ['x notin (a,b)', {}],
    ['x=', { x: '' }],
  ])('%j matches %j', (s, labels) => expect(parseLabelSelector(s).matches(labels)).toBe(true));

  it.each([
    ['x=z', {}],
    ['x=y', { x: 'z' }],
    ['x=y,z=w', { x: 'w', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'w' }],
    ['x', { y: 'z' }],
    ['!x', { x: 'z' }],
    ['x>1', { x: '0' }],
    ['x<1', { x: '2' }],
    ['x>1', { x: 'abc' }],
    ['x>1', {}],
    ['x in (a,b)', {}],
    ['x notin (a,b)', { x: 'a' }],
    ['constructor', {}],
  ])('%j does not match %j', (s, labels) => expect(parseLabelSelector(s).matches(labels)).toBe(false));

  it('treats undefined labels as an empty set', () => {
    expect(parseLabelSelector('!x').matches(undefined)).toBe(true);
    expect(parseLabelSelector('x').matches(undefined)).toBe(false);
  });

  it('knows when it is empty and which value a key is pinned to', () => {
    expect(parseLabelSelector('').empty).toBe(true);
    expect(parseLabelSelector('a=b').empty).toBe(false);
    const sel = parseLabelSelector('a=b,c in (d),e in (f,g),h!=i');
    expect(sel.requiresExactMatch('a')).toBe('b');
    expect(sel.requiresExactMatch('c')).toBe('d');
    expect(sel.requiresExactMatch('e')).toBeUndefined();
    expect(sel.requiresExactMatch('h')).toBeUndefined();
  });
});

describe('labelSelectorFromMetav1', () => {
  it('selects nothing for a missing selector and everything for an empty one', () => {
    const nothing = labelSelectorFromMetav1(undefined);
    expect(nothing.matches({ a: 'b' })).toBe(false);
    expect(nothing.empty).toBe(false);
    expect(labelSelectorFromMetav1({}).empty).toBe(true);
    expect(labelSelectorFromMetav1({}).matches({ a: 'b' })).toBe(true);
  });

  it('combines matchLabels and matchExpressions', () => {
    const sel = labelSelectorFromMetav1({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['frontend', 'edge'] },
        { key: 'env', operator: 'NotIn', values: ['dev'] },
        { key: 'team', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    });
    expect(sel.toString()).toBe('app=web,env notin (dev),!legacy,team,tier in (edge,frontend)');
    expect(sel.matches({ app: 'web', tier: 'edge', team: 'a' })).toBe(true);
    expect(sel.matches({ app: 'web', tier: 'edge', team: 'a', env: 'dev' })).toBe(false);
    expect(sel.matches({ app: 'web', tier: 'edge', team: 'a', legacy: 'y' })).toBe(false);
    expect(sel.matches({ app: 'web', tier: 'back', team: 'a' })).toBe(false);
  });

  it('rejects bad operators and value sets with kube messages', () => {
    expect(() => labelSelectorFromMetav1({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] })).toThrow('"Gt" is not a valid label selector operator');
    expect(() => labelSelectorFromMetav1({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] })).toThrow(
      "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    );
    expect(() => labelSelectorFromMetav1({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x', 'y'] }] })).toThrow(
      'values: Invalid value: []string{"x", "y"}: values set must be empty for exists and does not exist',
    );
  });

  it('aggregates several problems of one requirement', () => {
    expect(() => labelSelectorFromMetav1({ matchLabels: { 'a b': 'c d' } })).toThrow(/^\[key: Invalid value: "a b": .*, values\[0\]\[a b\]: Invalid value: "c d": .*\]$/);
  });
});

describe('labelSelectorFromSet', () => {
  it('matches exactly the given labels', () => {
    const sel = labelSelectorFromSet({ b: '2', a: '1' });
    expect(sel.toString()).toBe('a=1,b=2');
    expect(sel.matches({ a: '1', b: '2', c: '3' })).toBe(true);
    expect(sel.matches({ a: '1' })).toBe(false);
    expect(labelSelectorFromSet({}).empty).toBe(true);
    expect(LabelSelector.everything().matches({})).toBe(true);
  });
});
