// The maintained NFT state over the Move sample chain (0x1::collection/nft/object events).
import { describe } from 'vitest';
import { nftStateSuite } from './nft-state-suite.js';

describe('NFT state (move)', () => nftStateSuite('move'));
