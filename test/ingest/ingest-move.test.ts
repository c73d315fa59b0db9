// End to end: the recorded Move sample chain ingested into chDB through the real code path.
import { expect, it } from 'vitest';
import { describeSampleChainIngest } from '../support/sample-suite.js';

describeSampleChainIngest('move', (get) => {
  it('lists collections created before the indexed range, named from the chain (0x1::collection::Collection)', async () => {
    const rows = await get().store.rows<{ collection: string; name: string }>(
      'SELECT collection, name FROM nft_collection_events',
    );
    const byAddr = new Map(rows.map((r) => [r.collection, r.name]));
    // Recorded resource of the collection minted in cosmos/move/nft/nft-mint.json (mock_api fixture).
    expect(byAddr.get('0x0597cd3f37f21f59c771731a31e92ac1214f72b4f8a86541a94b50f0308f4e20')).toBe('Favorite food');
    expect(rows.length).toBe(new Set(rows.map((r) => r.collection)).size);
  });
});
