import { describe, expect, it } from 'vitest';
import {
  generateName,
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  regexError,
  validateAnnotations,
  validateFinalizerName,
  validateGenerateName,
  validateLabels,
  validateObjectMetaName,
} from './names.validation';

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('regexError', () => {
  it('joins examples the way Go does (with the double space before "or")', () => {
    expect(regexError('msg', 're', 'a', 'b')).toBe("msg (e.g. 'a',  or 'b', regex used for validation is 're')");
    expect(regexError('msg', 're')).toBe("msg (regex used for validation is 're')");
  });
});

describe('isDNS1123Subdomain', () => {
  it.each(['a', 'ab', 'a-b', 'a.b', '0.a', 'a--b.c-d', '1.2.3.4', 'x'.repeat(253)])('accepts %s', (v) => expect(isDNS1123Subdomain(v)).toEqual([]));

  it.each(['', 'A', 'a_b', '-a', 'a-', 'a..b', '.a', 'a.', 'a@b'])('rejects %j with the regex message', (v) => expect(isDNS1123Subdomain(v)).toEqual([SUBDOMAIN_MSG]));

  it('reports the length first for long names', () => {
    expect(isDNS1123Subdomain('x'.repeat(254))).toEqual(['must be no more than 253 characters']);
    expect(isDNS1123Subdomain(`${'x'.repeat(253)}-`)).toEqual(['must be no more than 253 characters', SUBDOMAIN_MSG]);
  });
});

describe('isDNS1123Label', () => {
  it('accepts labels and rejects dotted names with a specific message', () => {
    expect(isDNS1123Label('my-name')).toEqual([]);
    expect(isDNS1123Label('123-abc')).toEqual([]);
    expect(isDNS1123Label('a.b')).toEqual(['must not contain dots']);
    expect(isDNS1123Label('My-Name')).toEqual([LABEL_MSG]);
    expect(isDNS1123Label('x'.repeat(64))).toEqual(['must be no more than 63 characters']);
  });
});

describe('isDNS1035Label', () => {
  it('requires a leading letter', () => {
    expect(isDNS1035Label('abc-123')).toEqual([]);
    expect(isDNS1035Label('1abc')).toEqual([
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });
});

describe('isQualifiedName', () => {
  it.each(['simple', 'now-with-dashes', '1-starts-with-num', '1234', 'simple/simple', 'now-with-dashes/simple', 'example.com/Upper_Case', 'a'.repeat(63)])(
    'accepts %s',
    (v) => expect(isQualifiedName(v)).toEqual([]),
  );

  it('explains bad name parts and prefixes', () => {
    expect(isQualifiedName('-bad')).toEqual([NAME_PART_MSG]);
    expect(isQualifiedName('')).toEqual(['name part must be non-empty', NAME_PART_MSG]);
    expect(isQualifiedName('/name')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('Example.com/name')).toEqual([`prefix part ${SUBDOMAIN_MSG}`]);
    expect(isQualifiedName('a'.repeat(64))).toEqual(['name part must be no more than 63 characters']);
  });

  it('rejects more than one slash', () => {
    expect(isQualifiedName('a/b/c')).toEqual([
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ]);
  });
});

describe('isValidLabelValue', () => {
  it('allows empty values and rejects bad characters and long values', () => {
    expect(isValidLabelValue('')).toEqual([]);
    expect(isValidLabelValue('My_value-1.2')).toEqual([]);
    expect(isValidLabelValue('has space')).toEqual([
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]);
    expect(isValidLabelValue('v'.repeat(64))).toEqual(['must be no more than 63 characters']);
  });
});

describe('validateObjectMetaName / validateGenerateName', () => {
  it('requires a name', () => {
    const [err] = validateObjectMetaName('', 'metadata.name', nameIsDNSSubdomain);
    expect(err.toString()).toBe('metadata.name: Required value: name or generateName is required');
  });

  it('reports each message of the rule as Invalid', () => {
    const errs = validateObjectMetaName('Bad_Name', 'metadata.name', nameIsDNSSubdomain);
    expect(errs.map(String)).toEqual([`metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN_MSG}`]);
    expect(validateObjectMetaName('ok.name', 'metadata.name', nameIsDNSSubdomain)).toEqual([]);
    expect(validateObjectMetaName('a.b', 'metadata.name', nameIsDNSLabel).map(String)).toEqual(['metadata.name: Invalid value: "a.b": must not contain dots']);
  });

  it('lets a generateName end with a dash', () => {
    expect(validateGenerateName('web-', 'metadata.generateName', nameIsDNSSubdomain)).toEqual([]);
    expect(validateGenerateName('Web-', 'metadata.generateName', nameIsDNSSubdomain)).toHaveLength(1);
    expect(validateGenerateName(undefined, 'metadata.generateName', nameIsDNSSubdomain)).toEqual([]);
  });
});

describe('validateLabels', () => {
  it('reports bad keys and values at the labels path', () => {
    const errs = validateLabels({ ok: 'fine', '-bad': 'x', k: 'bad value' }, 'metadata.labels');
    expect(errs.map((e) => [e.field, e.value])).toEqual([
      ['metadata.labels', '-bad'],
      ['metadata.labels', 'bad value'],
    ]);
    expect(errs[0].toString()).toBe(`metadata.labels: Invalid value: "-bad": ${NAME_PART_MSG}`);
    expect(validateLabels(undefined, 'metadata.labels')).toEqual([]);
  });
});

describe('validateAnnotations', () => {
  it('checks keys case-insensitively but reports the original key', () => {
    expect(validateAnnotations({ 'Example.COM/Key': 'v' }, 'metadata.annotations')).toEqual([]);
    const [err] = validateAnnotations({ 'a b': 'v' }, 'metadata.annotations');
    expect(err.value).toBe('a b');
  });

  it('limits the total size to 256 KiB', () => {
    expect(validateAnnotations({ k: 'x'.repeat(256 * 1024 - 1) }, 'metadata.annotations')).toEqual([]);
    const errs = validateAnnotations({ k: 'x'.repeat(256 * 1024) }, 'metadata.annotations');
    expect(errs.map(String)).toEqual(['metadata.annotations: Too long: must have at most 262144 bytes']);
    expect(errs[0].type).toBe('FieldValueTooLong');
  });

  it('counts bytes, not characters', () => {
    expect(validateAnnotations({ k: 'é'.repeat(128 * 1024) }, 'metadata.annotations')).toHaveLength(1);
  });
});

describe('validateFinalizerName', () => {
  it('accepts qualified names only', () => {
    expect(validateFinalizerName('kubernetes.io/pv-protection', 'metadata.finalizers[0]')).toEqual([]);
    expect(validateFinalizerName('a/b/c', 'metadata.finalizers[0]')[0].field).toBe('metadata.finalizers[0]');
  });
});

describe('generateName', () => {
  it('appends five characters from the vowel-free alphabet', () => {
    for (let i = 0; i < 50; i++) expect(generateName('web-')).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('truncates the base to 58 characters', () => {
    const name = generateName('x'.repeat(100));
    expect(name).toHaveLength(63);
    expect(name.startsWith('x'.repeat(58))).toBe(true);
    expect(isDNS1123Label(generateName(`${'a'.repeat(57)}-`))).toEqual([]);
  });
});
