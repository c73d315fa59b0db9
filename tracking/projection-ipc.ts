// The projection write of a chain worker child process, over its IPC channel to the main job (which owns embedded
// chDB, so only it can write). The child's local activity sends each version here instead of scheduling the
// projection activity on its task queue: one message each way on the same machine, no dispatch by Temporal.
// Durability is unchanged: the local activity is part of the workflow task, so a version whose reply never came
// (either process died) is sent again when the task is retried, and the write collapses onto a stored row by key.
import type { ChildProcess } from 'node:child_process';
import type { ProjectionSink } from '../activities/projection.js';
import type { Logger } from '../platform/log.js';
import type { RecordStatusArgs } from '../workflows/transfer.js';

/** A write not answered within this fails (the local activity retries it); under its 30 s start-to-close. */
const REPLY_TIMEOUT_MS = 25_000;

interface RecordRequest {
  kind: 'projection.record';
  id: number;
  args: RecordStatusArgs;
  atMs: number;
}
type RecordReply =
  | { kind: 'projection.recorded'; id: number; ok: true; result: { webhookDelivered?: boolean } | null }
  | { kind: 'projection.recorded'; id: number; ok: false; error: string };

const isRequest = (m: unknown): m is RecordRequest =>
  typeof m === 'object' &&
  m !== null &&
  (m as RecordRequest).kind === 'projection.record' &&
  Number.isSafeInteger((m as RecordRequest).id) &&
  typeof (m as RecordRequest).atMs === 'number' &&
  typeof (m as RecordRequest).args === 'object' &&
  (m as RecordRequest).args !== null;
const isReply = (m: unknown): m is RecordReply =>
  typeof m === 'object' && m !== null && (m as RecordReply).kind === 'projection.recorded';

/** Main job side: answer the child's writes with `sink` (the projection it owns). */
export function serveProjectionOverIpc(child: ChildProcess, sink: ProjectionSink, log: Logger): void {
  child.on('message', (m: unknown) => {
    if (!isRequest(m)) return;
    // A child that died between its request and this reply: the send fails (its callback takes the error, so it is
    // no 'error' event), and the child's retried workflow task writes again.
    const reply = (r: RecordReply) => {
      if (child.connected) child.send(r, (e) => e && log.debug('tracking.projection_ipc.reply_lost', { id: m.id }));
    };
    sink(m.args, m.atMs).then(
      (result) => reply({ kind: 'projection.recorded', id: m.id, ok: true, result: result ?? null }),
      (e: unknown) => {
        log.warn('tracking.projection_ipc.write_failed', { error: String(e) });
        reply({ kind: 'projection.recorded', id: m.id, ok: false, error: String(e) });
      },
    );
  });
}

/** Child side: a sink that sends each write to the main job; undefined when this process has no IPC channel. */
export function projectionSinkOverIpc(proc: NodeJS.Process = process): ProjectionSink | undefined {
  const send = proc.send?.bind(proc);
  if (!send || !proc.connected) return undefined;
  let next = 1;
  const waiting = new Map<number, { resolve(r: RecordReply): void; timer: NodeJS.Timeout }>();
  proc.on('message', (m: unknown) => {
    if (!isReply(m)) return;
    const w = waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id);
    clearTimeout(w.timer);
    w.resolve(m);
  });
  return async (args, atMs) => {
    if (!proc.connected) throw new Error('projection IPC channel closed');
    const id = next++;
    const reply = await new Promise<RecordReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(
          new Error(
            `projection write ${args.chainId}/${args.txHash} v${args.version}: no reply in ${REPLY_TIMEOUT_MS} ms`,
          ),
        );
      }, REPLY_TIMEOUT_MS);
      timer.unref();
      waiting.set(id, { resolve, timer });
      const req: RecordRequest = { kind: 'projection.record', id, args, atMs };
      send(req, (e: Error | null) => {
        if (!e) return;
        waiting.delete(id);
        clearTimeout(timer);
        reject(e);
      });
    });
    if (!reply.ok) throw new Error(`projection write failed in the main job: ${reply.error}`);
    return reply.result ?? undefined;
  };
}
