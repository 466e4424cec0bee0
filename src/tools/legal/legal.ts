import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import { offsetPageInput } from '../../core/pagination.js';
import { defineTool, OUTBOUND, READ, WRITE } from '../define.js';

// Legal documents are planned for v1.1. The routes exist, authenticate
// like every other, and answer 501 NOT_IMPLEMENTED until they are built.

const notYet = (what: string) => (): never => {
  throw new ApiError('NOT_IMPLEMENTED', `${what} is planned for API version v1.1 and not available yet.`);
};

const Planned = z
  .object({ planned: z.literal('v1.1').describe('The version that will bring this operation.') })
  .describe('Not available before v1.1.');

const common = {
  domain: 'legal',
  scope: 'legal' as const,
  mcp: false,
  bucket: 'default' as const,
  output: Planned,
};

export const generateLegalDocumentTool = defineTool({
  ...common,
  name: 'generate_legal_document',
  example: { jurisdiction: 'us-ca' },
  title: 'Generate a legal document (v1.1)',
  description:
    'Planned for v1.1: generates a will or related document for a jurisdiction. Answers 501 NOT_IMPLEMENTED until then. REST only.',
  annotations: WRITE,
  input: z
    .object({
      jurisdiction: z.string().max(64).optional().describe('Jurisdiction id (planned).'),
      template: z.string().max(64).optional().describe('Document template (planned).'),
    })
    .describe('Planned input; not validated before v1.1.'),
  rest: { method: 'POST', path: '/legal/generate', shape: 'data', extraStatuses: [501] },
  handler: notYet('Legal document generation'),
});

export const listLegalTemplatesTool = defineTool({
  ...common,
  name: 'list_legal_templates',
  example: { jurisdiction: 'us-ca' },
  title: 'List legal document templates (v1.1)',
  description:
    'Planned for v1.1: lists document templates by jurisdiction. Answers 501 NOT_IMPLEMENTED until then. REST only.',
  annotations: READ,
  input: z
    .object({ jurisdiction: z.string().max(64).optional().describe('Jurisdiction id (planned).'), ...offsetPageInput })
    .describe('Planned filter and paging.'),
  rest: { method: 'GET', path: '/legal/templates', shape: 'data', extraStatuses: [501] },
  handler: notYet('The legal template list'),
});

export const signLegalDocumentTool = defineTool({
  ...common,
  name: 'sign_legal_document',
  example: { id: 'doc_01M89NZVSK4RA0343PNJQFCVBJ' },
  title: 'Start an e-signature (v1.1)',
  description:
    'Planned for v1.1: starts an e-signature flow for a generated document. Answers 501 NOT_IMPLEMENTED until then. REST only.',
  annotations: OUTBOUND,
  input: z.object({ id: z.string().min(1).max(64).describe('Document id (planned).') }).describe('Which document.'),
  rest: { method: 'POST', path: '/legal/documents/:id/sign', shape: 'data', extraStatuses: [501] },
  handler: notYet('Electronic signing'),
});
