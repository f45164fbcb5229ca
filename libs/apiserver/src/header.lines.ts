/** What a request carries its header lines in: node's IncomingMessage and the HTTP/2 compatibility request alike. */
export interface RawHeaderSource {
  readonly rawHeaders: readonly string[];
}

/**
 * The values of the headers whose lower-cased name `pick` accepts, one per header line, as Go's http.Header keeps
 * them. Node's `req.headers` joins a repeated header into one string with ", ", so a value holding a comma (a group
 * `,,,chameleon`, kube's own test-cmd case) could not be told from several; kube never splits a line on commas.
 */
export function headerLines(req: RawHeaderSource, pick: (name: string) => boolean): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (pick(name)) (out[name] ??= []).push(raw[i + 1]);
  }
  return out;
}
