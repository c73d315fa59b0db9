// The maintained NFT state over the EVM sample chain (ERC721 collections with indexed contract creations).
import { describe } from 'vitest';
import { nftStateSuite } from './nft-state-suite.js';

describe('NFT state (evm)', () => nftStateSuite('evm'));
