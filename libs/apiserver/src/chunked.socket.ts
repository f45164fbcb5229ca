import { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The socket of an HTTP/1.1 response whose headers are out and whose body is chunked, when nothing else watches
 * its writes: a stream (a watch) may then write chunks framed once (frameChunk) straight to it. ServerResponse.write
 * frames every chunk anew (a hex length string, CRLFs, four pieces gathered by cork, a nextTick and writev), which a
 * fan-out pays once per watcher per event. undefined for anything else (HTTP/2, HTTP/1.0, a Content-Length, a
 * response whose write() someone wrapped — audit copying bodies — or one queued behind another on its connection):
 * that goes through res.write. The body still ends with res.end(), which writes the last chunk.
 */
export function chunkedSocket(res: ServerResponse): Socket | undefined {
  if (!(res instanceof ServerResponse) || !res.headersSent || !res.chunkedEncoding || res.writableEnded) return undefined;
  if (res.write !== ServerResponse.prototype.write) return undefined;
  // A HEAD response has no body: Node drops what res.write gives it, bytes written to the socket would desync the
  // connection's next response.
  if (res.req?.method === 'HEAD') return undefined;
  const socket = res.socket;
  // A response pipelined behind another has no socket until that one ends: its bytes wait in Node's queue.
  if (!socket || socket.destroyed || (socket as Socket & { _httpMessage?: unknown })._httpMessage !== res) return undefined;
  return socket;
}

/** `data` as one chunk of the chunked transfer coding (RFC 9112 7.1): size in hex, CRLF, data, CRLF. */
export function frameChunk(data: Buffer | string): Buffer {
  const length = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
  const size = `${length.toString(16)}\r\n`;
  // Memory of its own (not a slice of Node's shared 8 KiB pool): a framed event lives as long as the watch cache keeps it.
  const out = Buffer.allocUnsafeSlow(size.length + length + 2);
  out.write(size, 0, 'latin1');
  if (typeof data === 'string') out.write(data, size.length);
  else data.copy(out, size.length);
  out[out.length - 2] = 0x0d;
  out[out.length - 1] = 0x0a;
  return out;
}

/** The data of a chunk framed by frameChunk (a view, no copy). */
export function chunkData(framed: Buffer): Buffer {
  return framed.subarray(framed.indexOf(0x0a) + 1, framed.length - 2);
}
