/**
 * kube's JSONPath template parser (k8s.io/client-go/util/jsonpath/parser.go), ported rune for rune so that
 * what kubectl and the apiserver accept, and the errors they give, are the same here.
 */

export interface ParamsEntry {
  value: number;
  known: boolean;
  /** The end of a single index `[i]` (i+1), which becomes relative to the length when i is negative. */
  derived: boolean;
}

export type JsonPathNode =
  | ListNode
  | { type: 'text'; text: string }
  | { type: 'field'; value: string }
  | { type: 'identifier'; name: string }
  | { type: 'array'; params: [ParamsEntry, ParamsEntry, ParamsEntry] }
  | { type: 'filter'; left: ListNode; right: ListNode; operator: string }
  | { type: 'int'; value: number }
  | { type: 'float'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'wildcard' }
  | { type: 'recursive' }
  | { type: 'union'; nodes: ListNode[] };

export interface ListNode {
  type: 'list';
  nodes: JsonPathNode[];
}

const EOF = -1;
const LEFT_DELIM = '{';
const RIGHT_DELIM = '}';
const DICT_KEY = /^'([^']*)'$/;
const SLICE_OPERATOR = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/;
const FILTER = /^([^!<>=]+)([!<>=]+)(.+?)$/s;

const newList = (): ListNode => ({ type: 'list', nodes: [] });

/** Parses a template (`text {.path} text {range .items[*]}…{end}`); throws an Error with kube's message. */
export function parseJsonPath(text: string): ListNode {
  return new Parser(text).parse();
}

/** The expression inside a delimiter, as kube's parseAction (used for unions, dict keys and filters). */
function parseAction(text: string): ListNode {
  const root = parseJsonPath(`${LEFT_DELIM}${text}${RIGHT_DELIM}`);
  return root.nodes[0] as ListNode;
}

class Parser {
  private readonly root = newList();
  private pos = 0;
  private start = 0;
  private width = 0;

  constructor(private readonly input: string) {}

  parse(): ListNode {
    this.parseText(this.root);
    return this.root;
  }

  private consumeText(): string {
    const value = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return value;
  }

  private next(): number {
    if (this.pos >= this.input.length) {
      this.width = 0;
      return EOF;
    }
    const r = this.input.codePointAt(this.pos) as number;
    this.width = r > 0xffff ? 2 : 1;
    this.pos += this.width;
    return r;
  }

  private peek(): number {
    const r = this.next();
    this.backup();
    return r;
  }

  private backup(): void {
    this.pos -= this.width;
  }

  private rest(): string {
    return this.input.slice(this.pos);
  }

  // The Go parser recurses once per token; these loops do the same without growing the stack.
  private parseText(cur: ListNode): void {
    for (;;) {
      if (this.rest().startsWith(LEFT_DELIM)) {
        if (this.pos > this.start) cur.nodes.push({ type: 'text', text: this.consumeText() });
        this.parseLeftDelim(cur);
        return;
      }
      if (this.next() === EOF) break;
    }
    if (this.pos > this.start) cur.nodes.push({ type: 'text', text: this.consumeText() });
  }

  private parseLeftDelim(cur: ListNode): void {
    this.pos += LEFT_DELIM.length;
    this.consumeText();
    const node = newList();
    cur.nodes.push(node);
    this.parseInsideAction(node);
  }

  /** Tokens inside `{…}` until the closing delimiter; then text again at the root. */
  private parseInsideAction(cur: ListNode): void {
    for (;;) {
      const rest = this.rest();
      if (rest.startsWith(RIGHT_DELIM)) {
        this.pos += RIGHT_DELIM.length;
        this.consumeText();
        this.parseText(this.root);
        return;
      }
      if (rest.startsWith('[?(')) {
        this.parseFilter(cur);
        continue;
      }
      if (rest.startsWith('..')) {
        this.parseRecursive(cur);
        continue;
      }
      const r = this.next();
      if (r === EOF || isEndOfLine(r)) throw new Error('unclosed action');
      if (r === 0x20 /* ' ' */ || r === 0x40 /* @ */ || r === 0x24 /* $ */) {
        this.consumeText();
      } else if (r === 0x5b /* [ */) {
        this.parseArray(cur);
      } else if (r === 0x22 /* " */ || r === 0x27 /* ' */) {
        this.parseQuote(cur, r);
      } else if (r === 0x2e /* . */) {
        this.parseField(cur);
      } else if (r === 0x2b /* + */ || r === 0x2d /* - */ || isDigit(r)) {
        this.backup();
        this.parseNumber(cur);
      } else if (isAlphaNumeric(r)) {
        this.backup();
        this.parseIdentifier(cur);
      } else {
        throw new Error(`unrecognized character in action: ${goRuneU(r)}`);
      }
    }
  }

  private parseIdentifier(cur: ListNode): void {
    for (;;) {
      if (isTerminator(this.next())) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (value === 'true' || value === 'false') cur.nodes.push({ type: 'bool', value: value === 'true' });
    else cur.nodes.push({ type: 'identifier', name: value });
  }

  private parseRecursive(cur: ListNode): void {
    if (cur.nodes.at(-1)?.type === 'recursive') throw new Error('invalid multiple recursive descent');
    this.pos += 2;
    this.consumeText();
    cur.nodes.push({ type: 'recursive' });
    if (isAlphaNumeric(this.peek())) this.parseField(cur);
  }

  private parseNumber(cur: ListNode): void {
    let r = this.peek();
    if (r === 0x2b || r === 0x2d) this.next();
    for (;;) {
      r = this.next();
      if (r !== 0x2e && !isDigit(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (/^[+-]?\d+$/.test(value) && Number.isSafeInteger(Number(value))) {
      cur.nodes.push({ type: 'int', value: Number(value) });
      return;
    }
    // strconv.ParseFloat: digits with at most one '.', at least one digit.
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(value)) {
      cur.nodes.push({ type: 'float', value: Number(value) });
      return;
    }
    throw new Error(`cannot parse number ${value}`);
  }

  private parseArray(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === 0x0a) throw new Error('unterminated array');
      if (r === 0x5d /* ] */) break;
    }
    let text = this.consumeText();
    text = text.slice(1, -1);
    if (text === '*') text = ':';

    const parts = text.split(',');
    if (parts.length > 1) {
      cur.nodes.push({ type: 'union', nodes: parts.map((s) => parseAction(`[${s.replace(/^ +| +$/g, '')}]`)) });
      return;
    }

    const dict = DICT_KEY.exec(text);
    if (dict) {
      cur.nodes.push(...parseAction(`.${dict[1]}`).nodes);
      return;
    }

    const slice = SLICE_OPERATOR.exec(text);
    if (!slice) throw new Error(`invalid array index ${text}`);
    const value = [slice[1] ?? '', slice[2] ?? '', slice[3] ?? ''];
    const params: [ParamsEntry, ParamsEntry, ParamsEntry] = [
      { value: 0, known: false, derived: false },
      { value: 0, known: false, derived: false },
      { value: 0, known: false, derived: false },
    ];
    for (let i = 0; i < 3; i++) {
      if (value[i] !== '') {
        if (i > 0) value[i] = value[i].slice(1);
        if (i > 0 && value[i] === '') {
          params[i].known = false;
        } else {
          params[i].known = true;
          const n = Number(value[i]);
          if (!/^[+-]?\d+$/.test(value[i]) || !Number.isSafeInteger(n)) throw new Error(`array index ${value[i]} is not a number`);
          params[i].value = n;
        }
      } else if (i === 1) {
        params[i] = { known: true, value: params[0].value + 1, derived: true };
      }
    }
    cur.nodes.push({ type: 'array', params });
  }

  private parseFilter(cur: ListNode): void {
    this.pos += 3;
    this.consumeText();
    let begin = false;
    let end = false;
    let pair = 0;
    for (;;) {
      const r = this.next();
      if (r === EOF || r === 0x0a) throw new Error('unterminated filter');
      if (r === 0x22 || r === 0x27) {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === 0x29 /* ) */ && begin === end) {
        break;
      }
    }
    if (this.next() !== 0x5d) throw new Error('unclosed array expect ]');
    let text = this.consumeText();
    text = text.slice(0, -2);
    const m = FILTER.exec(text);
    if (!m) {
      cur.nodes.push({ type: 'filter', left: parseAction(text), right: newList(), operator: 'exists' });
    } else {
      cur.nodes.push({ type: 'filter', left: parseAction(m[1]), right: parseAction(m[3]), operator: m[2] });
    }
  }

  private parseQuote(cur: ListNode, quote: number): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === 0x0a) throw new Error('unterminated quoted string');
      if (r === quote && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consumeText();
    let s: string;
    try {
      s = unquoteExtend(value);
    } catch (err) {
      throw new Error(`unquote string ${value} error ${(err as Error).message}`);
    }
    cur.nodes.push({ type: 'text', text: s });
  }

  private parseField(cur: ListNode): void {
    this.consumeText();
    while (this.advance()) {
      /* scan to the next unescaped terminator */
    }
    const value = this.consumeText();
    if (value === '*') cur.nodes.push({ type: 'wildcard' });
    else cur.nodes.push({ type: 'field', value: value.replaceAll('\\', '') });
  }

  private advance(): boolean {
    const r = this.next();
    if (r === 0x5c /* \ */) {
      this.next();
    } else if (isTerminator(r)) {
      this.backup();
      return false;
    }
    return true;
  }
}

function isTerminator(r: number): boolean {
  if (r === 0x20 || r === 0x09 || isEndOfLine(r)) return true;
  return r === EOF || '.,[]$@{}'.includes(String.fromCodePoint(r));
}

function isEndOfLine(r: number): boolean {
  return r === 0x0d || r === 0x0a;
}

function isDigit(r: number): boolean {
  return r >= 0 && /\p{Nd}/u.test(String.fromCodePoint(r));
}

function isAlphaNumeric(r: number): boolean {
  return r === 0x5f || (r >= 0 && /[\p{L}\p{Nd}]/u.test(String.fromCodePoint(r)));
}

/** Go's %#U: U+002A '*'. */
function goRuneU(r: number): string {
  const hex = r.toString(16).toUpperCase().padStart(4, '0');
  return `U+${hex} '${String.fromCodePoint(r)}'`;
}

const SIMPLE_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

/** strconv.Unquote extended to single-quoted strings of any length (kube's UnquoteExtend). */
export function unquoteExtend(s: string): string {
  const n = s.length;
  if (n < 2) throw new Error('invalid syntax');
  const quote = s[0];
  if (quote !== s[n - 1] || (quote !== '"' && quote !== "'")) throw new Error('invalid syntax');
  const body = s.slice(1, -1);
  if (!body.includes('\\') && !body.includes(quote)) return body;
  let out = '';
  for (let i = 0; i < body.length; ) {
    const c = body[i];
    if (c === quote) throw new Error('invalid syntax');
    if (c !== '\\') {
      out += c;
      i++;
      continue;
    }
    const e = body[i + 1];
    if (e === undefined) throw new Error('invalid syntax');
    if (SIMPLE_ESCAPES[e] !== undefined) {
      out += SIMPLE_ESCAPES[e];
      i += 2;
    } else if (e === "'" || e === '"') {
      if (e !== quote) throw new Error('invalid syntax');
      out += e;
      i += 2;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = body.slice(i + 2, i + 2 + len);
      if (hex.length !== len || !/^[0-9a-fA-F]+$/.test(hex)) throw new Error('invalid syntax');
      const v = parseInt(hex, 16);
      if (e !== 'x' && (v > 0x10ffff || (v >= 0xd800 && v < 0xe000))) throw new Error('invalid syntax');
      // \x is one byte in Go; as text that is the Latin-1 character of that byte.
      out += String.fromCodePoint(v);
      i += 2 + len;
    } else if (e >= '0' && e <= '7') {
      const oct = body.slice(i + 1, i + 4);
      if (!/^[0-7]{3}$/.test(oct) || parseInt(oct, 8) > 255) throw new Error('invalid syntax');
      out += String.fromCharCode(parseInt(oct, 8));
      i += 4;
    } else {
      throw new Error('invalid syntax');
    }
  }
  return out;
}
