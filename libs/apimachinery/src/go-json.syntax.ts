/**
 * encoding/json's syntax error for bytes that are not JSON, worded as Go's scanner (encoding/json/scanner.go)
 * words it: kube passes these texts on in its 400s ("error decoding patch: invalid character 'b' looking for
 * beginning of object key string"). Only called once JSON.parse refused a body, so never on a hot path.
 */

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const GO_ESCAPES: Record<number, string> = { 0x07: '\\a', 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0b: '\\v', 0x0c: '\\f', 0x0d: '\\r', 0x5c: '\\\\' };

/** Go's quoteChar: the byte as strconv.Quote shows that rune, in single quotes. */
export function goQuoteChar(b: number): string {
  if (b === 0x27) return `'\\''`;
  if (b === 0x22) return `'"'`;
  const hex = b.toString(16).padStart(2, '0');
  const quoted = GO_ESCAPES[b] ?? (b < 0x20 || b === 0x7f ? `\\x${hex}` : b >= 0x80 && (b < 0xa1 || b === 0xad) ? `\\u00${hex}` : String.fromCharCode(b));
  return `'${quoted}'`;
}

class SyntaxFailure extends Error {}

const fail = (b: number, context: string): never => {
  throw new SyntaxFailure(`invalid character ${goQuoteChar(b)} ${context}`);
};
const END = 'unexpected end of JSON input';

/** The first syntax error in `data` as Go reports it, or undefined when it is valid JSON. */
export function goJsonSyntaxError(data: Uint8Array): string | undefined {
  let i = 0;
  const at = (): number | undefined => (i < data.length ? data[i] : undefined);
  const skip = (): void => {
    while (i < data.length && WS.has(data[i])) i++;
  };
  const need = (): number => {
    const b = at();
    if (b === undefined) throw new SyntaxFailure(END);
    return b;
  };
  const literal = (word: string): void => {
    // The first letter was matched; Go names the literal and the letter it expected.
    for (let k = 1; k < word.length; k++) {
      const b = need();
      if (b !== word.charCodeAt(k)) fail(b, `in literal ${word} (expecting ${goQuoteChar(word.charCodeAt(k))})`);
      i++;
    }
  };
  const digits = (context: string, atLeastOne: boolean): void => {
    const start = i;
    while (at() !== undefined && (at() as number) >= 0x30 && (at() as number) <= 0x39) i++;
    if (atLeastOne && i === start) {
      const b = need();
      fail(b, context);
    }
  };
  const number = (): void => {
    if (at() === 0x2d) {
      i++;
      const b = need();
      if (b < 0x30 || b > 0x39) fail(b, 'in numeric literal');
    }
    if (at() === 0x30) i++;
    else digits('in numeric literal', true);
    if (at() === 0x2e) {
      i++;
      digits('after decimal point in numeric literal', true);
    }
    if (at() === 0x65 || at() === 0x45) {
      i++;
      if (at() === 0x2b || at() === 0x2d) i++;
      digits('in exponent of numeric literal', true);
    }
  };
  const string = (): void => {
    i++; // the opening quote
    for (;;) {
      const b = need();
      i++;
      if (b === 0x22) return;
      if (b < 0x20) fail(b, 'in string literal');
      if (b === 0x5c) {
        const e = need();
        i++;
        if (e === 0x75) {
          for (let k = 0; k < 4; k++) {
            const h = need();
            if (!/[0-9a-fA-F]/.test(String.fromCharCode(h))) fail(h, 'in \\u hexadecimal character escape');
            i++;
          }
        } else if (!'"\\/bfnrt'.includes(String.fromCharCode(e))) fail(e, 'in string escape code');
      }
    }
  };
  const value = (): void => {
    skip();
    const b = need();
    switch (b) {
      case 0x7b: {
        i++;
        skip();
        if (at() === 0x7d) {
          i++;
          return;
        }
        for (;;) {
          skip();
          const k = need();
          if (k !== 0x22) fail(k, 'looking for beginning of object key string');
          string();
          skip();
          const colon = need();
          if (colon !== 0x3a) fail(colon, 'after object key');
          i++;
          value();
          skip();
          const next = need();
          i++;
          if (next === 0x7d) return;
          if (next !== 0x2c) fail(next, 'after object key:value pair');
        }
      }
      case 0x5b: {
        i++;
        skip();
        if (at() === 0x5d) {
          i++;
          return;
        }
        for (;;) {
          value();
          skip();
          const next = need();
          i++;
          if (next === 0x5d) return;
          if (next !== 0x2c) fail(next, 'after array element');
        }
      }
      case 0x22:
        return string();
      case 0x74:
        i++;
        return literal('true');
      case 0x66:
        i++;
        return literal('false');
      case 0x6e:
        i++;
        return literal('null');
      default:
        if (b === 0x2d || (b >= 0x30 && b <= 0x39)) return number();
        fail(b, 'looking for beginning of value');
    }
  };
  try {
    value();
    skip();
    const rest = at();
    if (rest !== undefined) fail(rest, 'after top-level value');
    return undefined;
  } catch (err) {
    if (err instanceof SyntaxFailure) return err.message;
    throw err;
  }
}
