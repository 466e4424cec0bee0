import { TEMPLATE_TYPES } from '../../../src/law/templates.js';
import { REFERENCE_TEMPLATE, tonMatrix } from './matrix-cases.js';

// Every other template: the plainest and the richest feature sets, for 1 and 50 beneficiaries.
tonMatrix(TEMPLATE_TYPES.filter((t) => t !== REFERENCE_TEMPLATE));
