/** Go's fmt verbs the kube messages use, so our texts match byte for byte. */

/** %q of a string (strconv.Quote): JSON's escaping is the same for the printable ASCII names kube deals in. */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** %q of a []string: `["a" "b"]`. */
export function goQuoteList(list: readonly string[]): string {
  return `[${list.map(goQuote).join(' ')}]`;
}

/** utilerrors.NewAggregate(errs).Error(): one message as is, several deduplicated in brackets. */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length <= 1) return unique[0] ?? '';
  return `[${unique.join(', ')}]`;
}
