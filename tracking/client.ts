// Registration: one workflow per (chain_id, normalised tx_hash). The id is the idempotency key;
// USE_EXISTING returns the running execution, REJECT_DUPLICATE keeps a finished one from re-running.
import {
  Client,
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdConflictPolicy,
  WorkflowIdReusePolicy,
} from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { WEBHOOK_SIGNAL, type TrackingTimings } from '../workflows/model.js';
import type { TrackInput } from '../workflows/transfer.js';
import { installRuntime, projectionQueue } from './worker.js';

export const workflowIdOf = (chainId: string, txHash: string) => `transfer:${chainId}:${txHash}`;

export class TrackingClient {
  private constructor(
    readonly client: Client,
    private readonly connection: NativeConnection,
    private readonly taskQueue: string,
    private readonly timings: TrackingTimings,
  ) {}

  static async connect(o: {
    address: string;
    namespace: string;
    taskQueue: string;
    timings: TrackingTimings;
  }): Promise<TrackingClient> {
    // The Rust (core) connection keeps gRPC work off the API's event loop; grpc-js would compete with it.
    installRuntime();
    const connection = await NativeConnection.connect({ address: o.address });
    return new TrackingClient(new Client({ connection, namespace: o.namespace }), connection, o.taskQueue, o.timings);
  }

  /**
   * Start (or reach) the tracking workflow, handing it `webhook` (a signal with the start, so a running workflow
   * gets it too). Returns false when it already existed and had finished.
   */
  async register(
    chainId: string,
    txHash: string,
    registeredAtMs = Date.now(),
    webhook?: string,
    fromVersion = 0,
  ): Promise<boolean> {
    const input: TrackInput = {
      chainId,
      txHash,
      registeredAtMs,
      timings: this.timings,
      projectionTaskQueue: projectionQueue(this.taskQueue),
      ...(fromVersion > 0 ? { fromVersion } : {}),
    };
    const options = {
      workflowId: workflowIdOf(chainId, txHash),
      taskQueue: this.taskQueue,
      args: [input] as [TrackInput],
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    };
    try {
      if (webhook)
        await this.client.workflow.signalWithStart('trackTransfer', {
          ...options,
          signal: WEBHOOK_SIGNAL,
          signalArgs: [{ url: webhook }],
        });
      else
        await this.client.workflow.start('trackTransfer', {
          ...options,
          workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
        });
      return true;
    } catch (e) {
      if (e instanceof WorkflowExecutionAlreadyStartedError) return false;
      throw e;
    }
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
