// The kinds of Initia rollup this project indexes (the indexer's `VM` setting, the sample chains).
export type Vm = 'evm' | 'move' | 'wasm';
