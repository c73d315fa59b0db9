// Node answers malformed requests and over-long request lines (> 16 KB, HTTP 431) itself, before express,
// with an empty text body. Every response of both services must be JSON, so answer those in the same error shape.
import { type IncomingMessage, STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** The response Node is still writing on this connection, if any (node:http's own field, set per request). */
function responseInFlight(socket: Duplex): (ServerResponse & { req?: IncomingMessage }) | undefined {
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
    // connection closes instead; the client of the first response sees it end and reconnects. A request whose own
    // body is broken (a bad chunk) while nothing of its response is written yet gets the JSON 400: it is the
    // response that request is waiting for, and nothing else will write it.
    const inFlight = responseInFlight(socket);
    const ownBody = inFlight !== undefined && !inFlight.headersSent && inFlight.req?.complete === false;
    if (err.code === 'ECONNRESET' || !socket.writable || (inFlight !== undefined && !ownBody)) {
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
