// JSON-RPC batch answers matched to their calls (chain/rpc-batch.ts), with the shapes real servers answer: CometBFT
// 0.38 refusing a batch above its max_request_batch_size (http_server.go: an array holding one Invalid Request
// error without an id), answers out of order, answers left out, per-call errors.
import { describe, expect, it } from 'vitest';
import { BatchRefusedError, batchBody, matchBatch } from '../../chain/rpc-batch.js';

const refusedBy = (body: unknown, count: number): unknown => {
  try {
    matchBatch(body, 1, count);
  } catch (err) {
    return err;
  }
  return undefined;
};

describe('JSON-RPC batches', () => {
  it('numbers the calls from the first id', () => {
    const calls = [
      { method: 'block', params: { height: '5' } },
      { method: 'health', params: {} },
    ];
    expect(JSON.parse(batchBody(calls, 41))).toEqual([
      { jsonrpc: '2.0', id: 41, method: 'block', params: { height: '5' } },
      { jsonrpc: '2.0', id: 42, method: 'health', params: {} },
    ]);
  });

  it('matches answers by id whatever their order, and marks the ones left out', () => {
    const data = 'height 9 must be less than or equal to the current blockchain height 3';
    const answers = matchBatch(
      [
        { jsonrpc: '2.0', id: 12, error: { code: -32603, message: 'Internal error', data } },
        { jsonrpc: '2.0', id: 10, result: { a: 1 } },
        { jsonrpc: '2.0', id: 99, result: 'not ours' },
      ],
      10,
      3,
    );
    expect(answers[0]).toEqual({ result: { a: 1 } });
    expect(answers[1]).toEqual({ missing: true });
    expect(answers[2]).toEqual({ error: { code: -32603, message: 'Internal error', data } });
  });

  it('reads a refusal for size, in an array or alone, with the limit the server states', () => {
    const refusal = {
      jsonrpc: '2.0',
      id: -1,
      error: {
        code: -32600,
        message: 'Invalid Request',
        data: 'batch request exceeds maximum (10) allowed number of requests',
      },
    };
    for (const body of [[refusal], refusal]) {
      const e = refusedBy(body, 12);
      expect(e).toBeInstanceOf(BatchRefusedError);
      expect((e as BatchRefusedError).limit).toBe(10);
    }
    // geth-style servers say "batch too large" without a number.
    const geth = refusedBy([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch too large' } }], 2);
    expect(geth).toBeInstanceOf(BatchRefusedError);
    expect((geth as BatchRefusedError).limit).toBeUndefined();
  });

  it('rejects an answer that is not a batch answer', () => {
    expect(() => matchBatch([1, 2], 1, 2)).toThrow(TypeError);
    expect(() => matchBatch(null, 1, 2)).toThrow(TypeError);
  });
});
