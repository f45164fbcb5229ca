import type { ServerResponse } from 'node:http';
import type { ApiRequest } from '../filters/api-request';
import type { FlowControl } from '../flowcontrol/flow-control';
import { tabwrite } from './tab.writer';

const PREFIX = '/debug/api_priority_and_fairness/';
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

export function dumpPriorityLevels(fc: FlowControl): string {
  // kube's ten columns, then the level's seats as borrowing left them (kube has those in metrics only).
  let out =
    row('PriorityLevelName', 'ActiveQueues', 'IsIdle', 'IsQuiescing', 'WaitingRequests', 'ExecutingRequests', 'DispatchedRequests', 'RejectedRequests', 'TimedoutRequests', 'CancelledRequests') +
    ',\t' +
    row('NominalLimitSeats', 'LowerLimitSeats', 'UpperLimitSeats', 'CurrentLimitSeats', 'SeatsInUse', 'DemandSeatsSmoothed') +
    '\n';
  for (const l of [...fc.priorityLevels()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    // An exempt level has no queues in kube either (its noRestraint set dumps empty and is never idle).
    const d = l.queueSet?.dump();
    const active = d ? d.queues.filter((q) => q.waiting.length > 0).length : 0;
    out += row(l.name, active, l.queueSet ? l.queueSet.idle : false, l.quiescing, d?.waiting ?? 0, d?.executing ?? 0, d?.dispatched ?? 0, d?.rejected ?? 0, d?.timedOut ?? 0, d?.cancelled ?? 0);
    out += ',\t' + row(l.nominalCL, l.minCL, l.maxCL, l.currentCL, d?.seatsInUse ?? l.seatDemand.value, l.seatDemandStats.smoothed.toFixed(2)) + '\n';
  }
  return out;
}

export function dumpQueues(fc: FlowControl): string {
  let out = row('PriorityLevelName', 'Index', 'PendingRequests', 'ExecutingRequests', 'SeatsInUse', 'NextDispatchR', 'InitialSeatsSum', 'MaxSeatsSum', 'TotalWorkSum') + '\n';
  for (const l of fc.priorityLevels()) {
    (l.queueSet?.dump().queues ?? []).forEach((q, i) => {
      out += row(l.name, i, q.waiting.length, q.executing, q.seatsInUse, seatSeconds(q.nextDispatchR), q.initialSeatsSum, q.maxSeatsSum, seatSeconds(q.totalWorkSum)) + '\n';
    });
  }
  return out;
}

const ZERO_TIME = '0001-01-01T00:00:00Z';

export function dumpRequests(fc: FlowControl, details: boolean): string {
  let out = row('PriorityLevelName', 'FlowSchemaName', 'QueueIndex', 'RequestIndexInQueue', 'FlowDistingsher', 'ArriveTime', 'InitialSeats', 'FinalSeats', 'AdditionalLatency', 'StartTime');
  if (details) out += ',\t' + row('UserName', 'Verb', 'APIPath', 'Namespace', 'Name', 'APIVersion', 'Resource', 'SubResource');
  out += '\n';
  for (const l of fc.priorityLevels()) {
    (l.queueSet?.dump().queues ?? []).forEach((q, iq) =>
      q.waiting.forEach((w, ir) => {
        const r = w.detail as ApiRequest | undefined;
        const schema = fc.flowSchema(w.tag.flowSchema);
        const distinguisher = r?.user && schema ? schema.distinguisher(r.user, r.info) : '';
        out += row(l.name, w.tag.flowSchema, iq, ir, distinguisher, rfc3339Nano(w.arrivedAt), w.estimate.initialSeats, w.estimate.finalSeats, goDuration(w.estimate.additionalLatencyMs), ZERO_TIME);
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
function seatSeconds(ss: number): string {
  const fixed = Math.round(ss * SS_SCALE);
  const sign = fixed < 0 ? '-' : '';
  const a = Math.abs(fixed);
  return `${sign}${Math.floor(a / SS_SCALE)}.${String(a % SS_SCALE).padStart(8, '0')}ss`;
}

/** Go's time.Duration.String() for durations under a minute. */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  const ns = Math.round(ms * 1e6);
  const trim = (x: number): string => String(Number(x.toFixed(9)));
  if (ns < 1000) return `${ns}ns`;
  if (ns < 1e6) return `${trim(ns / 1e3)}µs`;
  if (ns < 1e9) return `${trim(ns / 1e6)}ms`;
  return `${trim(ns / 1e9)}s`;
}

/** Go's time.RFC3339Nano in UTC: trailing zeros of the fraction dropped. */
function rfc3339Nano(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.replace(/\.(\d+)Z$/, (_, f: string) => (f.replace(/0+$/, '') ? `.${f.replace(/0+$/, '')}Z` : 'Z'));
}
