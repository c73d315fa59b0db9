// The maintained NFT state over the Wasm sample chain (CW721 wasm events).
import { describe } from 'vitest';
import { nftStateSuite } from './nft-state-suite.js';

describe('NFT state (wasm)', () => nftStateSuite('wasm'));
