// End to end: the recorded Wasm sample chain ingested into chDB through the real code path.
import { describeSampleChainIngest } from '../support/sample-suite.js';

describeSampleChainIngest('wasm');
