import type { JSONSchemaProps } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import { validateCelRules } from './cel.validation';

/** A trimmed Gateway API Gateway schema with its listener rules, plus an immutable field. */
const gateway: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['gatewayClassName', 'listeners'],
      properties: {
        gatewayClassName: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'field is immutable' }] },
        listeners: {
          type: 'array',
          maxItems: 64,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            required: ['name', 'port', 'protocol'],
            properties: {
              name: { type: 'string' },
              hostname: { type: 'string' },
              port: { type: 'integer' },
              protocol: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'protocol is immutable', reason: 'FieldValueForbidden' }] },
              tls: { type: 'object', properties: { mode: { type: 'string' } } },
            },
          },
          'x-kubernetes-validations': [
            { rule: 'self.all(l, l.port > 0)', message: 'ports must be positive' },
            { rule: "self.all(l, l.protocol in ['HTTP', 'TCP', 'UDP'] ? !has(l.tls) : true)", message: "tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']" },
            {
              rule: 'self.all(l1, self.exists_one(l2, l1.port == l2.port && l1.protocol == l2.protocol && (has(l1.hostname) && has(l2.hostname) ? l1.hostname == l2.hostname : !has(l1.hostname) && !has(l2.hostname))))',
              message: 'Combination of port, protocol and hostname must be unique for each listener',
            },
          ],
        },
      },
      'x-kubernetes-validations': [
        { rule: 'self.listeners.size() <= 2', messageExpression: "'at most 2 listeners, got ' + string(self.listeners.size())", fieldPath: '.listeners', reason: 'FieldValueForbidden' },
      ],
    },
  },
  'x-kubernetes-validations': [{ rule: "self.metadata.name != 'forbidden'", reason: 'FieldValueRequired' }],
};

const gw = (listeners: unknown[], className = 'istio', name = 'gw'): Record<string, unknown> => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'Gateway',
  metadata: { name },
  spec: { gatewayClassName: className, listeners },
});

const http = (name: string, port = 80, extra: Record<string, unknown> = {}) => ({ name, port, protocol: 'HTTP', ...extra });
const check = (obj: unknown, old?: unknown): string[] => validateCelRules(obj, gateway, old).map(String);

describe('validateCelRules', () => {
  it('accepts a valid Gateway and skips transition rules on create', () => {
    expect(check(gw([http('web'), http('admin', 8080)]))).toEqual([]);
  });

  it('reports failed rules with their message at the rule node, without echoing lists', () => {
    expect(check(gw([http('a', 0), http('b', 0, { tls: { mode: 'Terminate' } })]))).toEqual([
      'spec.listeners: Invalid value: ports must be positive',
      "spec.listeners: Invalid value: tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']",
      'spec.listeners: Invalid value: Combination of port, protocol and hostname must be unique for each listener',
    ]);
  });

  it('uses messageExpression, reason and fieldPath', () => {
    expect(check(gw([http('a', 1), http('b', 2), http('c', 3)]))).toEqual(['spec.listeners: Forbidden: at most 2 listeners, got 3']);
  });

  it('reports root rules under <nil>, with the reason given', () => {
    expect(check(gw([], 'istio', 'forbidden'))).toEqual(["<nil>: Required value: failed rule: self.metadata.name != 'forbidden'"]);
  });

  it('runs transition rules on update against the correlated old value', () => {
    const old = gw([http('web'), { name: 'dns', port: 53, protocol: 'UDP' }], 'istio');
    const updated = gw([{ name: 'dns', port: 53, protocol: 'TCP' }, http('web'), { name: 'new', port: 9, protocol: 'TCP' }].slice(0, 2), 'envoy');
    expect(check(updated, old)).toEqual([
      'spec.gatewayClassName: Invalid value: "envoy": field is immutable',
      'spec.listeners[0].protocol: Forbidden: protocol is immutable',
    ]);
  });

  it('does not correlate list items that have no old counterpart', () => {
    const old = gw([http('web')]);
    expect(check(gw([http('web'), { name: 'other', port: 81, protocol: 'TCP' }]), old)).toEqual([]);
  });

  it('reports evaluation errors and stops runaway rules', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        m: { type: 'object', additionalProperties: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: "self['missing'] > 0" }] },
        l: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.all(a, self.all(b, self.all(c, a + b + c >= 0)))' }, { rule: 'false' }] },
      },
    };
    const many = Array.from({ length: 101 }, (_, i) => i);
    expect(validateCelRules({ m: { a: 1 }, l: many }, schema).map(String)).toEqual([
      "m: Invalid value: \"object\": no such key: missing evaluating rule: self['missing'] > 0",
      "l: Invalid value: \"array\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.all(a, self.all(b, self.all(c, a + b + c >= 0)))",
    ]);
  });
});

describe('has() on any field selection (cel-go accepts it, Gateway API HTTPRoute/GRPCRoute use it)', () => {
  const rules: JSONSchemaProps = {
    type: 'object',
    properties: {
      rules: {
        type: 'array',
        maxItems: 16,
        items: { type: 'object', properties: { matches: { type: 'array', maxItems: 8, items: { type: 'object', properties: { path: { type: 'string' } } } } } },
        'x-kubernetes-validations': [{ rule: '(self.size() > 0 ? (has(self[0].matches) ? self[0].matches.size() : 0) : 0) <= 1', message: 'at most one match in the first rule' }],
      },
    },
  };
  it('compiles and evaluates presence on an indexed operand', () => {
    expect(validateCelRules({ rules: [{ matches: [{ path: '/' }] }] }, rules).map(String)).toEqual([]);
    expect(validateCelRules({ rules: [{}] }, rules).map(String)).toEqual([]);
    expect(validateCelRules({ rules: [{ matches: [{ path: '/' }, { path: '/b' }] }] }, rules).map(String)).toEqual(['rules: Invalid value: at most one match in the first rule']);
  });
});
