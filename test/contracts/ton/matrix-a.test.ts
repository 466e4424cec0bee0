import { tonMatrix } from './matrix-cases.js';

tonMatrix(['common-law', 'civil-law', 'islamic-mirth']);
