// The status stream's resume point (api/router/tracking/status-stream.ts statusSender), apart from sockets: the
// id a stream ends with must name a version the client has, so that a reconnect with it gets every later version.
// A stream cut for overflow used to end with the id of the version whose frame it could not write: when that
// version was the terminal one, the reconnect was answered 204 and the client never saw the final state.
import { describe, expect, it } from 'vitest';
import { statusSender } from '../../api/router/tracking/status-stream.js';

const doc = (state: string, n = 0) => JSON.stringify({ state, n });
const terminal = (json: string) => (JSON.parse(json) as { state: string }).state.startsWith('STATE_COMPLETED');

function connection(room: number) {
  const frames: string[] = [];
  return {
    frames,
    offer: (frame: string) => {
      if (frames.length >= room) return false;
      frames.push(frame);
      return true;
    },
  };
}

describe('statusSender', () => {
  it('ends an overflow at the last version written, so a reconnect gets the refused one', () => {
    const c = connection(1);
    const s = statusSender(-1, c.offer, terminal);
    expect(s.send({ version: 1, json: doc('STATE_PENDING') })).toBeNull();
    expect(s.send({ version: 2, json: doc('STATE_COMPLETED_SUCCESS') })).toBe('overflow');
    expect(s.resume()).toBe(1);
    expect(c.frames).toHaveLength(1);
    expect(c.frames[0]).toContain('id: 1\n');

    // The reconnect (Last-Event-ID 1) sends version 2, then ends as terminal at it.
    const again = connection(10);
    const r = statusSender(1, again.offer, terminal);
    expect(r.send({ version: 2, json: doc('STATE_COMPLETED_SUCCESS') })).toBe('terminal');
    expect(r.resume()).toBe(2);
    expect(again.frames.map((f) => f.match(/^id: (\d+)$/m)?.[1])).toEqual(['2']);
  });

  it('moves the resume point past a version that repeats the document, and sends each change once, in order', () => {
    const c = connection(10);
    const s = statusSender(-1, c.offer, terminal);
    s.send({ version: 1, json: doc('STATE_PENDING') });
    s.send({ version: 1, json: doc('STATE_PENDING') });
    s.send({ version: 2, json: doc('STATE_PENDING') }); // the same document: nothing to write
    expect(s.resume()).toBe(2);
    s.send({ version: 4, json: doc('STATE_PENDING', 1) });
    s.send({ version: 3, json: doc('STATE_PENDING', 2) }); // older than what was sent
    expect(s.send({ version: 5, json: doc('STATE_COMPLETED_ERROR') })).toBe('terminal');
    expect(c.frames.map((f) => f.match(/^id: (\d+)$/m)?.[1])).toEqual(['1', '4', '5']);
    expect(s.resume()).toBe(5);
  });

  it('starts after a Last-Event-ID: only newer versions are written', () => {
    const c = connection(10);
    const s = statusSender(7, c.offer, terminal);
    expect(s.send({ version: 7, json: doc('STATE_PENDING') })).toBeNull();
    expect(c.frames).toEqual([]);
    expect(s.resume()).toBe(7);
  });
});
