// Compiles the devnet's Solidity contracts in-process with solc from npm, so
// the traffic generator needs no network and no native compiler.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InterfaceAbi } from 'ethers';

const require = createRequire(import.meta.url);
// solc ships as CommonJS without types; we only use its compile(string) entry.
const solc = require('solc') as { compile(input: string): string; version(): string };

const CONTRACTS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'contracts');

export type ContractName = 'DevToken' | 'DevCollection';

export interface CompiledContract {
  name: ContractName;
  abi: InterfaceAbi;
  /** 0x-prefixed creation bytecode */
  bytecode: string;
}

interface SolcOutput {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: InterfaceAbi; evm: { bytecode: { object: string } } }>>;
}

let cache: Map<ContractName, CompiledContract> | undefined;

export function solcVersion(): string {
  return solc.version();
}

/**
 * Compiles both contracts once per process. EVM version "paris" avoids PUSH0
 * and newer opcodes, so the bytecode runs on any EVM fork minievm ships.
 */
export function compileContracts(): Map<ContractName, CompiledContract> {
  if (cache) return cache;
  const names: ContractName[] = ['DevToken', 'DevCollection'];
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(
      names.map((n) => [`${n}.sol`, { content: readFileSync(join(CONTRACTS_DIR, `${n}.sol`), 'utf8') }]),
    ),
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'paris',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) {
    throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  }
  const result = new Map<ContractName, CompiledContract>();
  for (const name of names) {
    const c = out.contracts?.[`${name}.sol`]?.[name];
    if (!c || c.evm.bytecode.object.length === 0) throw new Error(`solc produced no bytecode for ${name}`);
    result.set(name, { name, abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` });
  }
  cache = result;
  return result;
}

export function getContract(name: ContractName): CompiledContract {
  const c = compileContracts().get(name);
  if (!c) throw new Error(`unknown contract ${name}`);
  return c;
}
