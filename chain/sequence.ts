// A tx's position in the chain as one number: sequence = height * SEQUENCE_STRIDE + index in the block
// (the txs table's sort key, clickhouse/migrations/001). One block holds fewer than SEQUENCE_STRIDE txs.
export const SEQUENCE_STRIDE = 1_000_000;
export const sequenceOf = (height: number, index: number) => height * SEQUENCE_STRIDE + index;
