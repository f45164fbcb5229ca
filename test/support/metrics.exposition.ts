/** Reading Prometheus text exposition in tests. */

/** The sum of a metric's samples whose labels contain every `match` pair. */
export function metricTotal(exposition: string, name: string, match: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of exposition.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const labels = m[2] ?? '';
    if (Object.entries(match).every(([k, v]) => labels.includes(`${k}="${v}"`))) sum += Number(m[3]);
  }
  return sum;
}

/** Whether the exposition has at least one sample of `name`. */
export function hasMetric(exposition: string, name: string): boolean {
  return new RegExp(`^${name}(\\{[^}]*\\})? `, 'm').test(exposition);
}
