// Replay: histories recorded from real runs (devnet/tools/record-histories.ts) must replay against the
// current workflow code without determinism errors. A workflow change that breaks this needs `patched()`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Worker } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { workflowBundle } from '../../tracking/worker.js';

const dir = path.join(__dirname, '../fixtures/tracking/histories');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('workflow replay of recorded histories', () => {
  it('covers every recorded scenario', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });
  it.each(files)(
    '%s replays deterministically',
    async (file) => {
      const raw = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { events: { eventType: string }[] };
      // The stored form is the protobuf JSON of fetchHistory(); fromObject revives enums, int64s and bytes.
      const history = temporal.api.history.v1.History.fromObject(raw);
      expect(history.events?.length).toBe(raw.events.length);
      // Throws DeterminismViolationError / ReplayError on any mismatch.
      await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, `replay-${file}`);
      if (file.startsWith('withdrawal'))
        expect(raw.events.some((e) => e.eventType === 'EVENT_TYPE_TIMER_STARTED')).toBe(true);
    },
    60_000,
  );
});
