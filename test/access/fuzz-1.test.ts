// The property-based fuzz of every tool (./fuzz-suite.ts), part 1 of 2.
import { fuzzSuite } from './fuzz-suite.js';

fuzzSuite(0, 2);
