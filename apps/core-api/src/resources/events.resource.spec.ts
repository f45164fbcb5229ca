import { describe, expect, it } from 'vitest';
import { eventsResource, type Event } from './events.resource';
import { cells, create, messages, meta } from './strategy.testing';

const podEvent = (fields: Partial<Event> = {}): Event => ({
  metadata: meta('web-0.17a', 'default'),
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-0', uid: 'u-1', apiVersion: 'v1', fieldPath: 'spec.containers{app}' },
  reason: 'Pulled',
  message: ' Successfully pulled image "nginx" \n',
  source: { component: 'kubelet', host: 'node-1' },
  type: 'Normal',
  count: 3,
  firstTimestamp: '2024-01-01T00:00:00Z',
  lastTimestamp: '2024-01-01T00:09:00Z',
  ...fields,
});

describe('events', () => {
  it('is namespaced with the ev short name', () => {
    expect(eventsResource).toMatchObject({ kind: 'Event', plural: 'events', shortNames: ['ev'], namespaced: true });
  });

  it('requires an involved object', () => {
    expect(messages(create(eventsResource, { metadata: meta('e', 'default'), reason: 'X' }))).toEqual(['involvedObject: Required value']);
    expect(create(eventsResource, podEvent())).toEqual([]);
  });

  it('requires the event to live in its object\'s namespace', () => {
    const e = podEvent({ involvedObject: { kind: 'Pod', namespace: 'other', name: 'x' } });
    expect(messages(create(eventsResource, e))).toEqual(['involvedObject.namespace: Invalid value: "other": does not match event.namespace']);
    const nodeEvent = podEvent({ involvedObject: { kind: 'Node', name: 'node-1' } });
    expect(create(eventsResource, nodeEvent)).toEqual([]);
  });

  it('checks reporting fields of events with an eventTime', () => {
    const e = podEvent({ eventTime: '2024-01-01T00:00:00.000000Z', reason: '' });
    const errs = messages(create(eventsResource, e));
    expect(errs.filter((m) => !m.startsWith('reportingController: Invalid value'))).toEqual([
      'reportingController: Required value',
      'reportingInstance: Required value',
      'action: Required value',
      'reason: Required value',
    ]);
    expect(errs).toContain('reportingController: Invalid value: "": name part must be non-empty');
    const reported = podEvent({ eventTime: '2024-01-01T00:00:00.000000Z', reportingComponent: 'kubelet', reportingInstance: 'node-1', action: 'Pulling' });
    expect(create(eventsResource, reported)).toEqual([]);
  });

  it('exposes the field selectors describe and kubectl use', () => {
    expect(eventsResource.strategy?.fields?.(podEvent())).toEqual({
      'involvedObject.kind': 'Pod',
      'involvedObject.namespace': 'default',
      'involvedObject.name': 'web-0',
      'involvedObject.uid': 'u-1',
      'involvedObject.apiVersion': 'v1',
      'involvedObject.resourceVersion': '',
      'involvedObject.fieldPath': 'spec.containers{app}',
      reason: 'Pulled',
      reportingComponent: '',
      source: 'kubelet',
      type: 'Normal',
    });
  });

  it('prints like kubectl get events, with the extra wide columns', () => {
    expect(cells(eventsResource, podEvent())).toEqual({
      'Last Seen': '60s',
      Type: 'Normal',
      Reason: 'Pulled',
      Object: 'pod/web-0',
      Subobject: 'spec.containers{app}',
      Source: 'kubelet, node-1',
      Message: 'Successfully pulled image "nginx"',
      'First Seen': '10m',
      Count: 3,
      Name: 'web-0.17a',
    });
    expect(eventsResource.tableColumns?.filter((c) => !c.priority).map((c) => c.name)).toEqual(['Last Seen', 'Type', 'Reason', 'Object', 'Message']);
  });

  it('falls back to eventTime, series and the reporting controller', () => {
    const e = podEvent({
      firstTimestamp: null,
      lastTimestamp: null,
      count: 0,
      eventTime: '2024-01-01T00:05:00.000000Z',
      series: { count: 7, lastObservedTime: '2024-01-01T00:08:00.000000Z' },
      source: {},
      reportingComponent: 'kubelet',
      reportingInstance: 'node-2',
      involvedObject: { kind: 'Node' },
    });
    expect(cells(eventsResource, e)).toMatchObject({ 'Last Seen': '2m', 'First Seen': '5m', Count: 7, Source: 'kubelet, node-2', Object: 'node' });
  });
});
