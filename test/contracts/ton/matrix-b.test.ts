import { tonMatrix } from './matrix-cases.js';

tonMatrix(['islamic-wasiyyah', 'custom']);
