import type { ServerResponse } from 'node:http';
import type { ApiRequest } from '../filters/api-request';
import type { FlowControl, FlowMetrics } from '../flowcontrol/flow-control';
import type { QueueSetDump } from '../flowcontrol/queue-set';
import { tabwrite } from './tab.writer';

const PREFIX = '/debug/api_priority_and_fairness/';
/** kube's estimated service time of one seat (the work our queues count one unit of). */
const SEAT_SECONDS_PER_UNIT = 0.003;
const SS_SCALE = 100_000_000;

/**
 * kube's /debug/api_priority_and_fairness/dump_priority_levels, dump_queues and dump_requests
 * (apf_controller_debug.go): comma-and-tab separated rows through a tabwriter, in kube's columns. Served where
 * APF runs (the front door), authorized as the non-resource URLs they are.
 */
export function serveApfDump(res: ServerResponse, path: string, query: URLSearchParams, flowControl: FlowControl): number {
  if (!path.startsWith(PREFIX)) return 0;
  let text: string;
  switch (path.slice(PREFIX.length)) {
    case 'dump_priority_levels':
      text = dumpPriorityLevels(flowControl);
      break;
    case 'dump_queues':
      text = dumpQueues(flowControl);
      break;
    case 'dump_requests':
      text = dumpRequests(flowControl, (query.get('includeRequestDetails') ?? '').length > 0);
      break;
    default:
      return 0;
  }
  const body = Buffer.from(tabwrite(text));
  // Go's ResponseWriter sniffs plain text for these.
  res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length });
  res.end(body);
  return 200;
}

const row = (...columns: Array<string | number | boolean>): string => columns.map(String).join(',\t');

function levels(fc: FlowControl): Array<{ name: string; quiescing: boolean; dump?: QueueSetDump<FlowMetrics>; idle: boolean }> {
  return [...fc.priorityLevels()].map((l) => ({ name: l.name, quiescing: l.quiescing, dump: l.queueSet?.dump(), idle: l.queueSet ? l.queueSet.idle : false }));
}

export function dumpPriorityLevels(fc: FlowControl): string {
  let out = row('PriorityLevelName', 'ActiveQueues', 'IsIdle', 'IsQuiescing', 'WaitingRequests', 'ExecutingRequests') + '\n';
  for (const l of levels(fc)) {
    // An exempt level has no queues in kube either (its noRestraint set dumps empty and is never idle).
    const d = l.dump ?? { queues: [], waiting: 0, executing: 0 };
    out += row(l.name, d.queues.filter((q) => q.waiting.length > 0).length, l.idle, l.quiescing, d.waiting, d.executing) + '\n';
  }
  return out;
}

export function dumpQueues(fc: FlowControl): string {
  let out = row('PriorityLevelName', 'Index', 'PendingRequests', 'ExecutingRequests', 'SeatsInUse', 'NextDispatchR', 'InitialSeatsSum', 'MaxSeatsSum', 'TotalWorkSum') + '\n';
  for (const l of levels(fc)) {
    (l.dump?.queues ?? []).forEach((q, i) => {
      const waiting = q.waiting.length;
      out += row(l.name, i, waiting, q.executing, q.executing, seatSeconds(q.nextDispatch), waiting, waiting, seatSeconds(waiting)) + '\n';
    });
  }
  return out;
}

export function dumpRequests(fc: FlowControl, details: boolean): string {
  let out = row('PriorityLevelName', 'FlowSchemaName', 'QueueIndex', 'RequestIndexInQueue', 'FlowDistingsher', 'ArriveTime', 'InitialSeats', 'FinalSeats', 'AdditionalLatency');
  if (details) out += ',\t' + row('UserName', 'Verb', 'APIPath', 'Namespace', 'Name', 'APIVersion', 'Resource', 'SubResource');
  out += '\n';
  for (const l of levels(fc)) {
    (l.dump?.queues ?? []).forEach((q, iq) =>
      q.waiting.forEach((w, ir) => {
        const r = w.detail as ApiRequest | undefined;
        const schema = fc.flowSchema(w.tag.flowSchema);
        const distinguisher = r?.user && schema ? schema.distinguisher(r.user, r.info) : '';
        out += row(l.name, w.tag.flowSchema, iq, ir, distinguisher, rfc3339Nano(w.arrivedAt), 1, 0, '0s');
        if (details) {
          const info = r?.info;
          const gv = info ? (info.group ? `${info.group}/${info.version}` : info.version) : '';
          out += ',\t' + row(r?.user?.name ?? '', info?.verb ?? '', info?.path ?? '', info?.namespace ?? '', info?.name ?? '', gv, info?.resource ?? '', info?.subresource ?? '');
        }
        out += '\n';
      }),
    );
  }
  return out;
}

/** kube's SeatSeconds.String(): fixed point with 8 decimals and the unit "ss". */
function seatSeconds(units: number): string {
  const ss = Math.round(units * SEAT_SECONDS_PER_UNIT * SS_SCALE);
  return `${Math.floor(ss / SS_SCALE)}.${String(ss % SS_SCALE).padStart(8, '0')}ss`;
}

/** Go's time.RFC3339Nano in UTC: trailing zeros of the fraction dropped. */
function rfc3339Nano(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.replace(/\.(\d+)Z$/, (_, f: string) => (f.replace(/0+$/, '') ? `.${f.replace(/0+$/, '')}Z` : 'Z'));
}
