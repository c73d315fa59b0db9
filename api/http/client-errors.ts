// Node answers malformed requests and over-long request lines (> 16 KB, HTTP 431) itself, before express,
// with an empty text body. Every response of both services must be JSON, so answer those in the same error shape.
import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** The response Node is still writing on this connection, if any (node:http's own field, set per request). */
function responseInFlight(socket: Duplex): ServerResponse | undefined {
  return (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}

/** Node's client errors that are not a malformed request, with the status node itself would answer. */
const ANSWERS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'request line or headers too large'],
  HPE_URI_TOO_LONG: [414, 'request line or headers too large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'chunk extensions too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'the request was not received in time'],
};

export function installJsonClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // Garbage pipelined behind a response still in flight (an open event stream, a slow page): an answer written
    // now would land inside that response's body (a chunked stream would read it as a broken chunk), so the
    // connection closes instead; the client of the first response sees it end and reconnects.
    if (err.code === 'ECONNRESET' || !socket.writable || responseInFlight(socket)) {
      socket.destroy();
      return;
    }
    const [status, message] = ANSWERS[err.code ?? ''] ?? [400, 'malformed HTTP request'];
    const body = JSON.stringify({ code: status, message });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
