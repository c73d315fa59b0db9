import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Interface, id } from 'ethers';
import { compileContracts, getContract, solcVersion } from '../../../devnet/minievm/contracts.js';

interface RecordedLog {
  address: string;
  topics: string[];
  data: string;
}
function recordedLogs(path: string, exportName: string): RecordedLog[] {
  const j = JSON.parse(
    readFileSync(new URL(`../../../devnet/recorded/initia-tx-decoder/${path}`, import.meta.url), 'utf8'),
  ) as Record<string, { txReceipt: { logs: RecordedLog[] } }>;
  const logs = j[exportName]?.txReceipt.logs;
  if (!logs) throw new Error(`${path} has no ${exportName}`);
  return logs;
}

// Real yominet-1 (minievm) receipts: an ERC20 transfer and an ERC721 transferFrom.
const erc20Log = recordedLogs('ethereum/erc20/erc20-transfer.json', 'mockErc20TransferPayload')[0];
const erc721Log = recordedLogs('ethereum/erc721/erc721-transfer-from.json', 'mockErc721TransferFromPayload')[0];

describe('devnet contracts compiled in-process with solc', () => {
  it('compiles both contracts with the pinned solc', () => {
    expect(solcVersion()).toMatch(/^0\.8\.28\+/);
    const all = compileContracts();
    expect([...all.keys()].sort()).toEqual(['DevCollection', 'DevToken']);
    for (const c of all.values()) expect(c.bytecode).toMatch(/^0x(?:[0-9a-f]{2})+$/);
    expect(compileContracts()).toBe(all); // compiled once per process
  });

  it('exposes the ERC20 surface the traffic generator and rich-list check call', () => {
    const token = new Interface(getContract('DevToken').abi);
    for (const fn of ['transfer', 'transferFrom', 'approve', 'balanceOf', 'totalSupply', 'decimals']) {
      expect(token.getFunction(fn), fn).not.toBeNull();
    }
    expect(token.getFunction('transfer')?.selector).toBe('0xa9059cbb');
    expect(token.getFunction('balanceOf')?.selector).toBe('0x70a08231');
  });

  it('emits ERC20 Transfer exactly as the recorded chain log (3 topics, amount in data)', () => {
    if (!erc20Log) throw new Error('no recorded ERC20 log');
    const token = new Interface(getContract('DevToken').abi);
    expect(token.getEvent('Transfer')?.topicHash).toBe(erc20Log.topics[0]);
    expect(erc20Log.topics).toHaveLength(3);
    const parsed = token.parseLog(erc20Log);
    expect(parsed?.name).toBe('Transfer');
    expect(String(parsed?.args[0]).toLowerCase()).toBe(`0x${erc20Log.topics[1]?.slice(-40)}`);
    expect(parsed?.args[2]).toBe(BigInt(erc20Log.data));
  });

  it('emits ERC721 Transfer as the recorded chain log (4 topics, data 0x), which is how the indexer spots NFTs', () => {
    if (!erc721Log) throw new Error('no recorded ERC721 log');
    const nft = new Interface(getContract('DevCollection').abi);
    const ev = nft.getEvent('Transfer');
    expect(ev?.topicHash).toBe(id('Transfer(address,address,uint256)'));
    expect(ev?.topicHash).toBe(erc721Log.topics[0]);
    expect(ev?.inputs.every((i) => i.indexed)).toBe(true);
    expect(erc721Log.topics).toHaveLength(4);
    expect(erc721Log.data).toBe('0x');
    const parsed = nft.parseLog(erc721Log);
    expect(parsed?.args[2]).toBe(BigInt(erc721Log.topics[3] ?? '0x0'));
    // the ERC20 event has the same topic0 but must NOT parse as 4-topic: indexing differs
    const token = new Interface(getContract('DevToken').abi);
    expect(token.getEvent('Transfer')?.inputs.filter((i) => i.indexed)).toHaveLength(2);
  });

  it('exposes the ERC721 surface: mint, transfer, burn, ownerOf, totalSupply, metadata', () => {
    const nft = new Interface(getContract('DevCollection').abi);
    for (const fn of [
      'mint',
      'transferFrom',
      'burn',
      'ownerOf',
      'totalSupply',
      'tokenURI',
      'name',
      'supportsInterface',
    ]) {
      expect(nft.getFunction(fn), fn).not.toBeNull();
    }
    expect(nft.getFunction('ownerOf')?.selector).toBe('0x6352211e');
    expect(nft.getFunction('transferFrom')?.selector).toBe('0x23b872dd');
  });
});
