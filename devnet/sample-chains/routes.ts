// Extra REST routes of the sample chains, answered from recorded tx-decoder mock_api GETs.
import type { RestHandler } from '../chain-sim/rest.js';
import { grpcError } from '../chain-sim/rest.js';
import { recordedGets } from './fixtures.js';

export interface SampleRoute {
  pattern: RegExp;
  handler: RestHandler;
}

/** Paths the simulated chain answers itself (its own txs, node info) or that are not chain REST at all. */
const NOT_REPLAYED = [/^\/cosmos\/tx\/v1beta1\/txs\//, /^\/cosmos\/base\/tendermint\//, /^\/chains\.json/];

interface MoveResource {
  address: string;
  struct_tag: string;
  move_resource: string;
  raw_bytes: string;
}

/**
 * Replays recorded GET answers (exact path + query), and derives
 * `/initia/move/v1/accounts/{addr}/resources/by_struct_tag?struct_tag=` from the recorded resource lists.
 */
export function recordedRoutes(files: string[]): { routes: SampleRoute[]; paths: string[] } {
  const recorded = new Map([...recordedGets(files)].filter(([p]) => !NOT_REPLAYED.some((re) => re.test(p))));
  const byStructTag: SampleRoute = {
    pattern: /^\/initia\/move\/v1\/accounts\/(0x[0-9a-fA-F]{1,64})\/resources\/by_struct_tag$/,
    handler: (m, q) => {
      const tag = q.get('struct_tag');
      if (!tag) return grpcError(400, 3, 'struct_tag is required');
      const list = recorded.get(`/initia/move/v1/accounts/${m[1] ?? ''}/resources`) as
        | { resources?: MoveResource[] }
        | undefined;
      const resource = list?.resources?.find((r) => r.struct_tag === tag);
      return resource ? { resource } : grpcError(404, 5, `resource ${tag.slice(0, 200)} not found`);
    },
  };
  const replay: SampleRoute = {
    pattern: /^\/.*$/,
    handler: (m, q) => {
      const qs = q.toString();
      const key = qs ? `${m[0]}?${qs}` : m[0];
      if (recorded.has(key)) return recorded.get(key);
      // Recorded keys keep the client's own escaping; also try the decoded form.
      const decoded = qs ? `${m[0]}?${decodeURIComponent(qs)}` : m[0];
      return recorded.get(decoded);
    },
  };
  return { routes: [byStructTag, replay], paths: [...recorded.keys()] };
}
