import type { JSONSchemaProps } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import { celEquals, formatIssue, schemaRules } from './cel.compilation';

const listeners: JSONSchemaProps = {
  type: 'array',
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['name'],
  items: { type: 'object', required: ['name', 'port'], properties: { name: { type: 'string' }, port: { type: 'integer' }, hostname: { type: 'string' } } },
  'x-kubernetes-validations': [
    { rule: 'self.all(l, l.port > 0)' },
    { rule: 'self.all(l, l.nope)' },
    { rule: 'self.size()' },
    { rule: 'self.all(l, l.hostname.matches("^[a-z.]+$"))', messageExpression: '"bad hostname in " + string(self.size())' },
    { rule: 'self == oldSelf', messageExpression: 'self.size()' },
    { rule: '  ' },
  ],
};
const schema: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { listeners } } } };

describe('schemaRules', () => {
  const node = schemaRules(schema).forNode(listeners);

  it('compiles once per schema object', () => {
    expect(schemaRules(schema)).toBe(schemaRules(schema));
    expect(schemaRules(schema).forNode(listeners)).toBe(node);
  });

  it('type-checks rules against the schema, with cel-go style issues', () => {
    const [ok, undefinedField, notBool, withMessage, transition, empty] = node.rules;
    expect(ok.error).toBeUndefined();
    expect(ok.depth).toBe(1);
    expect(undefinedField.error).toBe("compilation failed: ERROR: <input>:1:15: undefined field 'nope'\n | self.all(l, l.nope)\n | ..............^");
    expect(notBool.error).toBe('cel expression must evaluate to a bool');
    expect(withMessage.messageProgram).toBeDefined();
    expect(transition.usesOldSelf).toBe(true);
    expect(transition.messageError).toBe('messageExpression must evaluate to a string');
    expect(empty.program).toBeUndefined();
  });

  it('sees apiVersion, kind and metadata.name at the root, not other metadata', () => {
    const root: JSONSchemaProps = {
      type: 'object',
      'x-kubernetes-validations': [{ rule: 'self.metadata.name.startsWith(self.kind.lowerAscii())' }, { rule: 'self.metadata.labels.size() > 0' }],
    };
    const [name, labels] = schemaRules(root).forNode(root).rules;
    expect(name.error).toBeUndefined();
    expect(labels.error).toContain("undefined field 'labels'");
  });

  it('reports nodes that have no CEL type', () => {
    const untyped: JSONSchemaProps = { type: 'object', properties: { raw: { 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-validations': [{ rule: 'true' }] } } };
    expect(schemaRules(untyped).forNode(untyped.properties?.raw as JSONSchemaProps).initError).toBe('failed to convert to declType for CEL validation rules');
  });
});

describe('formatIssue', () => {
  it('renders a parse error with line, column and caret', () => {
    expect(formatIssue('self ==', { name: 'ParseError', summary: 'Unexpected token: EOF', message: '', range: { start: 7 } })).toBe(
      'ERROR: <input>:1:8: Syntax error: Unexpected token: EOF\n | self ==\n | .......^',
    );
  });
});

describe('celEquals', () => {
  it('compares CEL values structurally, ints and doubles numerically', () => {
    expect(celEquals(new Map([['a', [1n]]]), new Map([['a', [1]]]))).toBe(true);
    expect(celEquals([1n, 2n], [2n, 1n])).toBe(false);
    expect(celEquals(new Date(0), new Date(0))).toBe(true);
  });
});
