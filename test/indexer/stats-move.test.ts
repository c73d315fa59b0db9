// Analytics API and aggregates on the recorded move sample chain (test/indexer/stats-suite.ts).
import { statsSuite } from './stats-suite.js';

statsSuite('move');
