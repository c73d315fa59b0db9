// Analytics API and aggregates on the recorded move sample chain (test/api/indexer/stats-suite.ts).
import { statsSuite } from './stats-suite.js';

statsSuite('move');
