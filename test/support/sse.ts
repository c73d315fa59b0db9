// A Server-Sent Events reader for tests and benches: parses the event-stream format as a browser's EventSource
// does (fields, multi-line data, comments and `retry` skipped), over fetch on loopback.

export interface ParsedEvent {
  id?: string;
  event?: string;
  data: string;
}

/** Parse complete events of an event stream's text; returns them and the unparsed rest. */
export function parseEvents(text: string): { events: ParsedEvent[]; rest: string } {
  const events: ParsedEvent[] = [];
  const blocks = text.split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    const e: ParsedEvent = { data: '' };
    const data: string[] = [];
    let any = false;
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':') || line.startsWith('retry:')) continue;
      const i = line.indexOf(':');
      const k = i === -1 ? line : line.slice(0, i);
      const v = i === -1 ? '' : line.slice(i + 1).replace(/^ /, '');
      any = true;
      if (k === 'data') data.push(v);
      else if (k === 'id') e.id = v;
      else if (k === 'event') e.event = v;
    }
    if (!any) continue;
    e.data = data.join('\n');
    events.push(e);
  }
  return { events, rest };
}

export interface SseClient {
  status: number;
  contentType: string;
  /** The body when the answer was not a stream (an error's JSON). */
  body: string;
  events: ParsedEvent[];
  /** Receipt time (Date.now()) of each event, same order. */
  receivedAt: number[];
  /** Resolves when the server closes the stream (or the client aborts it). */
  ended: Promise<void>;
  close(): void;
}

/** Open a stream; resolves once the response headers arrived (events keep arriving in `events`). */
export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const contentType = res.headers.get('content-type') ?? '';
  const client: SseClient = {
    status: res.status,
    contentType,
    body: '',
    events: [],
    receivedAt: [],
    ended: Promise.resolve(),
    close: () => abort.abort(),
  };
  if (!contentType.startsWith('text/event-stream')) {
    client.body = await res.text();
    return client;
  }
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  client.ended = (async () => {
    let buf = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buf += decoder.decode(value, { stream: true });
        const { events, rest } = parseEvents(buf);
        buf = rest;
        const now = Date.now();
        for (const e of events) {
          client.events.push(e);
          client.receivedAt.push(now);
        }
      }
    } catch (e) {
      if (!abort.signal.aborted) throw e;
    }
  })();
  return client;
}
