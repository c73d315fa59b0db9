// Analytics API and aggregates on the recorded wasm sample chain (test/indexer/stats-suite.ts).
import { statsSuite } from './stats-suite.js';

statsSuite('wasm');
