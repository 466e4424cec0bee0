// The property-based fuzz of every tool (./fuzz-suite.ts), part 2 of 2.
import { fuzzSuite } from './fuzz-suite.js';

fuzzSuite(1, 2);
