// A raw loopback HTTP client for tests that check the bytes on the wire (chunked framing, pipelining, Node's own
// error answers), which fetch would parse away.
import net from 'node:net';

/**
 * Sends `parts` on one connection (50 ms apart, so each reaches the server on its own) and returns everything
 * received, as latin1 (one character a byte), until `done(received)` says it has enough or the peer closes.
 */
export function rawExchange(
  port: number,
  parts: string | readonly string[],
  done: (received: string) => boolean = () => false,
): Promise<string> {
  const writes = typeof parts === 'string' ? [parts] : parts;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', async () => {
      for (const [i, part] of writes.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, 50));
        if (!socket.writable) return;
        socket.write(part);
      }
    });
    let received = '';
    socket.on('data', (b) => {
      received += b.toString('latin1');
      if (done(received)) {
        socket.destroy();
        resolve(received);
      }
    });
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}
