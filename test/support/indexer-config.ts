// The indexer settings the tests serve a chain with: one VM, one chain id, the `init` prefix, no build identity.
import type { IndexerAppOptions } from '../../api/indexer/app.js';

type IndexerConfig = IndexerAppOptions['config'];

export function indexerConfig(
  vm: NonNullable<IndexerConfig['VM']>,
  chainId: string | undefined,
  over: Partial<IndexerConfig> = {},
): IndexerConfig {
  return {
    CHAIN_ID: chainId,
    VM: vm,
    BECH32_PREFIX: 'init',
    VERSION: 'dev',
    COMMIT_HASH: 'unknown',
    EVM_INTERNAL_TXS: false,
    ...over,
  };
}
