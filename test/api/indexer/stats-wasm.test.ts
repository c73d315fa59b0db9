// Analytics API and aggregates on the recorded wasm sample chain (test/api/indexer/stats-suite.ts).
import { statsSuite } from './stats-suite.js';

statsSuite('wasm');
