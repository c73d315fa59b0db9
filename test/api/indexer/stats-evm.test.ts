// Analytics API and aggregates on the recorded evm sample chain (test/api/indexer/stats-suite.ts).
import { statsSuite } from './stats-suite.js';

statsSuite('evm');
