import { describe, expect, it } from 'vitest';
import { parseJsonPath, unquoteExtend, type JsonPathNode, type ListNode } from './jsonpath.parser';

// Ported in meaning from k8s.io/client-go/util/jsonpath/parser_test.go: the parsed tree, flattened in the
// same depth-first order (list, filter left/right, union members) and written as short descriptions.

function describeNode(n: JsonPathNode): string {
  switch (n.type) {
    case 'list':
      return 'list';
    case 'text':
      return `text:${n.text}`;
    case 'field':
      return `field:${n.value}`;
    case 'identifier':
      return `identifier:${n.name}`;
    case 'array':
      return `array:${n.params.map((p) => `${p.value},${p.known},${p.derived}`).join('|')}`;
    case 'filter':
      return `filter:${n.operator}`;
    case 'int':
    case 'float':
    case 'bool':
      return `${n.type}:${n.value}`;
    case 'union':
      return 'union';
    default:
      return n.type;
  }
}

function collect(n: JsonPathNode, out: string[] = []): string[] {
  out.push(describeNode(n));
  if (n.type === 'list') for (const c of n.nodes) collect(c, out);
  if (n.type === 'filter') collect(n.left, out), collect(n.right, out);
  if (n.type === 'union') for (const c of n.nodes) collect(c, out);
  return out;
}

const flat = (text: string): string[] => collect(parseJsonPath(text) as ListNode).slice(1);
const unknown = '0,false,false';

describe('parseJsonPath', () => {
  it.each<[string, string, string[]]>([
    ['plain', 'hello jsonpath', ['text:hello jsonpath']],
    ['variable', 'hello {.jsonpath}', ['text:hello ', 'list', 'field:jsonpath']],
    ['arrayfiled', "hello {['jsonpath']}", ['text:hello ', 'list', 'field:jsonpath']],
    ['quote', '{"{"}', ['list', 'text:{']],
    ['array', '{[1:3]}', ['list', `array:1,true,false|3,true,false|${unknown}`]],
    ['allarray', '{.book[*].author}', ['list', 'field:book', `array:${unknown}|${unknown}|${unknown}`, 'field:author']],
    ['wildcard', '{.bicycle.*}', ['list', 'field:bicycle', 'wildcard']],
    ['filter', '{[?(@.price<3)]}', ['list', 'filter:<', 'list', 'field:price', 'list', 'int:3']],
    ['recursive', '{..}', ['list', 'recursive']],
    ['recurField', '{..price}', ['list', 'recursive', 'field:price']],
    ['arraydict', "{['book.price']}", ['list', 'field:book', 'field:price']],
    [
      'union',
      "{['bicycle.price', 3, 'book.price']}",
      ['list', 'union', 'list', 'field:bicycle', 'field:price', 'list', `array:3,true,false|4,true,true|${unknown}`, 'list', 'field:book', 'field:price'],
    ],
    ['range', '{range .items}{.name},{end}', ['list', 'identifier:range', 'field:items', 'list', 'field:name', 'text:,', 'list', 'identifier:end']],
    ['paired parentheses in quotes', '{[?(@.status.nodeInfo.osImage == "()")]}', ['list', 'filter:==', 'list', 'field:status', 'field:nodeInfo', 'field:osImage', 'list', 'text:()']],
    [
      'paired parentheses in double quotes with escaped double quotes',
      '{[?(@.status.nodeInfo.osImage == "(\\"\\")")]}',
      ['list', 'filter:==', 'list', 'field:status', 'field:nodeInfo', 'field:osImage', 'list', 'text:("")'],
    ],
    ['unregular parentheses in double quotes', '{[?(@.test == "())(")]}', ['list', 'filter:==', 'list', 'field:test', 'list', 'text:())(']],
    ['plain text in single quotes', "{[?(@.status.nodeInfo.osImage == 'Linux')]}", ['list', 'filter:==', 'list', 'field:status', 'field:nodeInfo', 'field:osImage', 'list', 'text:Linux']],
    ['filter suffix', '{[?(@.status.nodeInfo.osImage == "{[()]}")]}', ['list', 'filter:==', 'list', 'field:status', 'field:nodeInfo', 'field:osImage', 'list', 'text:{[()]}']],
    ['double inside single', `{[?(@.status.nodeInfo.osImage == "''")]}`, ['list', 'filter:==', 'list', 'field:status', 'field:nodeInfo', 'field:osImage', 'list', "text:''"]],
    ['single inside double', `{[?(@.status.nodeInfo.osImage == '""')]}`, ['list', 'filter:==', 'list', 'field:status', 'field:nodeInfo', 'field:osImage', 'list', 'text:""']],
    ['single containing escaped single', "{[?(@.status.nodeInfo.osImage == '\\\\\\'')]}", ['list', 'filter:==', 'list', 'field:status', 'field:nodeInfo', 'field:osImage', 'list', "text:\\'"]],
    ['negative index slice a[len-5:]', '{[-5:]}', ['list', `array:-5,true,false|${unknown}|${unknown}`]],
    ['negative index a[len-1]', '{[-1]}', ['list', `array:-1,true,false|0,true,true|${unknown}`]],
    ['negative index slice a[1:len-1]', '{[1:-1]}', ['list', `array:1,true,false|-1,true,false|${unknown}`]],
    ['exists filter', '{[?(@.z)]}', ['list', 'filter:exists', 'list', 'field:z', 'list']],
    ['numbers and booleans', '{[?(@.a>=1.5)]}{true}', ['list', 'filter:>=', 'list', 'field:a', 'list', 'float:1.5', 'list', 'bool:true']],
  ])('%s', (_name, text, nodes) => {
    expect(flat(text)).toEqual(nodes);
  });

  it('rejects malformed input', () => {
    expect(() => parseJsonPath('{\\\\\\}')).toThrow();
  });

  it.each([
    ['unclosed action', '{.hello', 'unclosed action'],
    ['unrecognized character', '{*}', "unrecognized character in action: U+002A '*'"],
    ['invalid number', '{+12.3.0}', 'cannot parse number +12.3.0'],
    ['unterminated array', '{[1}', 'unterminated array'],
    ['unterminated filter', '{[?(.price]}', 'unterminated filter'],
    ['invalid multiple recursive descent', '{........}', 'invalid multiple recursive descent'],
    ['invalid array index', '{[a]}', 'invalid array index a'],
    ['unclosed filter', '{[?(@.a)x}', 'unclosed array expect ]'],
    ['doubled braces (a column written as {.x})', '{{.spec.x}}', "unrecognized character in action: U+007B '{'"],
  ])('fails: %s', (_name, text, message) => {
    expect(() => parseJsonPath(text)).toThrow(new Error(message));
  });

  it('unquotes like strconv.Unquote, single quotes included', () => {
    expect(unquoteExtend('"a\\tb"')).toBe('a\tb');
    expect(unquoteExtend("'it\\'s'")).toBe("it's");
    expect(unquoteExtend('"\\u00e9\\x41"')).toBe('éA');
    expect(() => unquoteExtend('"a"b"')).toThrow('invalid syntax');
    expect(() => unquoteExtend("'a")).toThrow('invalid syntax');
  });
});
