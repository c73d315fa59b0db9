// The real client: @skip-go/client registers and polls a transfer against our router app (the router of
// issue 4 with the tracking routes mounted, OpenAPI validation on) until it reports completion.
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setApiOptions, waitForTransaction, transactionStatus } from '@skip-go/client';
import { closeServer } from '../../api/http/app.js';
import { serveRouter, startHarness, type Harness } from './harness.js';
import { SIM } from '../../devnet/simnet/index.js';

let h: Harness;
let server: Server;
let url: string;
beforeAll(async () => {
  h = await startHarness({ simnet: { delays: { recvMs: 1_500, ackMs: 1_500 } } });
  ({ server, url } = await serveRouter(h));
  setApiOptions({ apiUrl: url });
});
afterAll(async () => {
  if (server) await closeServer(server);
  await h?.close();
});

describe('@skip-go/client against our router', () => {
  it('waitForTransaction tracks a multi-hop IBC transfer until STATE_COMPLETED_SUCCESS', async () => {
    const tx = h.simnet.ibcTransfer({ from: SIM.move, channel: 'channel-0', forward: { channel: 'channel-2' } });
    const seen: string[] = [];
    let tracked: { explorerLink?: string } = {};
    const res = await waitForTransaction({
      chainId: tx.chainId,
      txHash: tx.txHash,
      onTransactionTracked: async (t) => {
        tracked = t;
      },
      onStatusUpdated: (s) => {
        seen.push(s.state ?? '');
      },
    });
    expect(res.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(tracked.explorerLink).toBe(`https://scan.simnet.local/${SIM.move}/txs/${tx.txHash}`);
    expect(seen[0]).not.toBe('STATE_COMPLETED_SUCCESS'); // it really polled through in-flight states
    expect(seen).toContain('STATE_PENDING');
    expect(res.transferSequence).toHaveLength(2);
    expect(res.transferSequence?.[1]?.ibcTransfer?.state).toBe('TRANSFER_SUCCESS');
  }, 60_000);

  // biome-ignore lint/suspicious/noTemplateCurlyInString: the title quotes the client's message template
  it('surfaces a failed transfer as the client error `${type}: ${message}`', async () => {
    const tx = h.simnet.deposit({ l2: SIM.evm, outcome: 'hookFail' });
    await expect(waitForTransaction({ chainId: tx.chainId, txHash: tx.txHash })).rejects.toThrow(
      /^STATUS_ERROR_TRANSFER: hook failed; /,
    );
  }, 60_000);

  it('status of an unregistered tx is the 404 "tx not found" the client reports', async () => {
    await expect(transactionStatus({ chainId: SIM.l1, txHash: '12'.repeat(32) })).rejects.toThrow(/tx not found/);
  });
});
