import { describe, expect, it } from 'vitest';
import { goJsonSyntaxError } from './go-json.syntax';

const err = (text: string): string | undefined => goJsonSyntaxError(Buffer.from(text, 'latin1'));

// Texts of Go's encoding/json scanner (json.Unmarshal's SyntaxError), which kube passes on in its 400s.
describe('goJsonSyntaxError', () => {
  it('accepts JSON', () => {
    for (const ok of ['{}', '[]', ' {"a": [1, -2.5e+3, true, false, null, "x\\u00e9\\n"]} ', '0', '"s"']) expect(err(ok), ok).toBeUndefined();
  });

  it.each([
    ['{bad', "invalid character 'b' looking for beginning of object key string"],
    ['[bad', "invalid character 'b' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
    ['[1 2]', "invalid character '2' after array element"],
    ['{"a":tru}', "invalid character '}' in literal true (expecting 'e')"],
    ['{"a":nul', 'unexpected end of JSON input'],
    ['-x', "invalid character 'x' in numeric literal"],
    ['1.e', "invalid character 'e' after decimal point in numeric literal"],
    ['1ex', "invalid character 'x' in exponent of numeric literal"],
    ['{} x', "invalid character 'x' after top-level value"],
    ['"a\\q"', "invalid character 'q' in string escape code"],
    ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
    ['"a\tb"', "invalid character '\\t' in string literal"],
    ["'a'", "invalid character '\\'' looking for beginning of value"],
    ['\x81', "invalid character '\\u0081' looking for beginning of value"],
    ['', 'unexpected end of JSON input'],
  ])('%j: %s', (text, message) => {
    expect(err(text)).toBe(message);
  });
});
