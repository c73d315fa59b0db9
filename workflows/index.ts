// Workflow bundle entry: everything the worker's workflow sandbox loads (no I/O imports allowed below).
export { trackTransfer, stateQuery } from './transfer.js';
