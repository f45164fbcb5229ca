import type { JSONSchemaProps } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import { CustomResourceSchema } from './custom-resource.schema';

/** The CronTab CRD of the Kubernetes docs, with defaults, an enum and an immutable field. */
const cronTabSchema: JSONSchemaProps = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      required: ['cronSpec', 'image'],
      properties: {
        cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
        image: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'field is immutable' }] },
        replicas: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
        concurrencyPolicy: { type: 'string', enum: ['Allow', 'Forbid', 'Replace'], default: 'Allow' },
        suspend: { type: 'boolean', nullable: true },
      },
    },
    status: { type: 'object', properties: { lastScheduleTime: { type: 'string', format: 'date-time' } } },
  },
};

/** A Gateway API Gateway, trimmed to its listeners (list-type=map) and their CEL rules. */
const gatewaySchema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['gatewayClassName', 'listeners'],
      properties: {
        gatewayClassName: { type: 'string', minLength: 1, maxLength: 253, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'field is immutable' }] },
        listeners: {
          type: 'array',
          minItems: 1,
          maxItems: 64,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            required: ['name', 'port', 'protocol'],
            properties: {
              name: { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' },
              hostname: { type: 'string' },
              port: { type: 'integer', format: 'int32', minimum: 1, maximum: 65535 },
              protocol: { type: 'string' },
              allowedRoutes: {
                type: 'object',
                default: { namespaces: { from: 'Same' } },
                properties: { namespaces: { type: 'object', default: { from: 'Same' }, properties: { from: { type: 'string', enum: ['All', 'Selector', 'Same'], default: 'Same' } } } },
              },
            },
          },
          'x-kubernetes-validations': [
            { rule: 'self.all(l, l.port > 0)', message: 'ports must be positive' },
            {
              rule: 'self.all(l1, self.exists_one(l2, l1.port == l2.port && l1.protocol == l2.protocol && (has(l1.hostname) && has(l2.hostname) ? l1.hostname == l2.hostname : !has(l1.hostname) && !has(l2.hostname))))',
              message: 'Combination of port, protocol and hostname must be unique for each listener',
            },
          ],
        },
      },
    },
  },
};

const cronTab = (spec: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'my-cron' }): Record<string, unknown> => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata,
  spec,
});

describe('CustomResourceSchema: CronTab', () => {
  const pipeline = new CustomResourceSchema(cronTabSchema);

  it('prunes, drops nulls, defaults and validates a good object', () => {
    const obj = cronTab({ cronSpec: '* * * * */5', image: 'my-awesome-cron-image', suspend: null, extra: 1 }, { name: 'my-cron', bogus: true });
    expect(pipeline.prune(obj)).toEqual(['metadata.bogus', 'spec.extra']);
    pipeline.default(obj);
    expect(obj.spec).toEqual({ cronSpec: '* * * * */5', image: 'my-awesome-cron-image', suspend: null, replicas: 1, concurrencyPolicy: 'Allow' });
    expect(pipeline.validate(obj)).toEqual([]);
  });

  it('reports every violation with kube messages', () => {
    const obj = cronTab({ cronSpec: 'every five minutes', replicas: 11, concurrencyPolicy: 'Sometimes' });
    pipeline.default(obj);
    expect(pipeline.validate(obj).map(String)).toEqual([
      "spec.cronSpec: Invalid value: \"every five minutes\": spec.cronSpec in body should match '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'",
      'spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10',
      'spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
      'spec.image: Required value',
      '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
    expect(pipeline.validate(cronTab({ cronSpec: '* * * * *', image: 'x', replicas: 'two' })).map(String)[0]).toBe(
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    );
  });

  it('keeps image immutable on update', () => {
    const old = cronTab({ cronSpec: '* * * * *', image: 'v1' });
    expect(pipeline.validate(cronTab({ cronSpec: '* * * * *', image: 'v2' }), old).map(String)).toEqual(['spec.image: Invalid value: "v2": field is immutable']);
    expect(pipeline.validate(cronTab({ cronSpec: '*/2 * * * *', image: 'v1' }), old)).toEqual([]);
  });
});

describe('CustomResourceSchema: Gateway', () => {
  const pipeline = new CustomResourceSchema(gatewaySchema);
  const gateway = (listeners: unknown[], gatewayClassName = 'istio'): Record<string, unknown> => ({
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'Gateway',
    metadata: { name: 'gw', namespace: 'default' },
    spec: { gatewayClassName, listeners },
  });

  it('defaults nested objects inside list items', () => {
    const obj = gateway([{ name: 'http', port: 80, protocol: 'HTTP' }]);
    pipeline.default(obj);
    expect((obj.spec as { listeners: unknown[] }).listeners[0]).toEqual({ name: 'http', port: 80, protocol: 'HTTP', allowedRoutes: { namespaces: { from: 'Same' } } });
    expect(pipeline.validate(obj)).toEqual([]);
  });

  it('reports duplicate map keys and then the listener rules', () => {
    const obj = gateway([
      { name: 'http', port: 80, protocol: 'HTTP' },
      { name: 'http', port: 80, protocol: 'HTTP' },
    ]);
    expect(pipeline.validate(obj).map(String)).toEqual([
      'spec.listeners[1]: Duplicate value: {"name":"http"}',
      'spec.listeners: Invalid value: Combination of port, protocol and hostname must be unique for each listener',
    ]);
  });

  it('runs CEL after non-blocking schema errors, and transition rules on update', () => {
    expect(pipeline.validate(gateway([{ name: 'http', port: 0, protocol: 'HTTP' }])).map(String)).toEqual([
      'spec.listeners[0].port: Invalid value: 0: spec.listeners[0].port in body should be greater than or equal to 1',
      'spec.listeners: Invalid value: ports must be positive',
    ]);
    const old = gateway([{ name: 'http', port: 80, protocol: 'HTTP' }]);
    expect(pipeline.validate(gateway([{ name: 'http', port: 80, protocol: 'HTTP' }], 'envoy'), old).map(String)).toEqual([
      'spec.gatewayClassName: Invalid value: "envoy": field is immutable',
    ]);
  });
});
