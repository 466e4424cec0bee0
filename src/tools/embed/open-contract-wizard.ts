import { z } from 'zod';
import { MCP_APP_MIME_TYPE, WIZARD_APP_URI } from '../../resources/apps.js';
import { defineTool, READ } from '../define.js';
import { NAME_CHARS, NAME_CHARS_REASON } from '../text-guard.js';

/** The MCP Apps tool-to-document link (SEP-1865), and its older flat key that hosts of the first drafts read. */
const UI_META = { ui: { resourceUri: WIZARD_APP_URI }, 'ui/resourceUri': WIZARD_APP_URI };

const Prefill = z
  .strictObject({
    blockchain: z.enum(['evm', 'solana', 'ton']).optional().describe('Chain to preselect: evm, solana or ton.'),
    ownerAddress: z.string().min(1).max(100).optional().describe("The owner's wallet address, to prefill."),
    beneficiaries: z
      .array(
        z
          .strictObject({
            name: z
              .string()
              .min(1)
              .max(200)
              .regex(NAME_CHARS, { error: NAME_CHARS_REASON })
              .describe('Name of the beneficiary: one line, without control characters or bidirectional controls.'),
            address: z.string().min(1).max(100).describe('Wallet address of the beneficiary.'),
            percentage: z
              .number()
              .min(0)
              .max(100)
              .describe('Share in percent (all shares must sum to 100 when generating).'),
            relationship: z
              .string()
              .min(1)
              .max(60)
              .optional()
              .describe('Relationship to the owner (needed by the Islamic templates), e.g. son.'),
          })
          .describe('One beneficiary to prefill.'),
      )
      .max(50)
      .optional()
      .describe('Beneficiaries to prefill (the user can still change them).'),
  })
  .describe('What the wizard starts with; everything is optional and editable in the wizard.');

export const openContractWizardTool = defineTool({
  name: 'open_contract_wizard',
  example: { blockchain: 'evm', ownerAddress: '0x27b1fdb04752bbc536007a920d24acb045561c26' },
  title: 'Open the contract wizard',
  description:
    "Shows svc's inheritance contract wizard to the user, as an interactive app inside the conversation in hosts that support MCP Apps " +
    "(resource ui://svc/wizard): chain, template and jurisdiction, owner and beneficiaries, dead man's switch and guardians, review with law " +
    'findings and measured gas, then generation. The wizard calls generate_contract and the checks through this same MCP connection. Pass ' +
    'what is already known to prefill it. Hosts without MCP Apps get a text answer saying how to do the same with the other tools.',
  domain: 'embed',
  scope: 'contracts',
  bucket: 'default',
  annotations: READ,
  meta: UI_META,
  input: Prefill,
  output: z
    .object({
      resourceUri: z.string().describe('The MCP App document a host shows for this tool (ui://svc/wizard).'),
      mimeType: z.string().describe('Its MIME type (text/html;profile=mcp-app).'),
      message: z.string().describe('What happens next, in plain words, also for hosts that cannot show the app.'),
      prefill: Prefill,
    })
    .describe('The wizard to show, and a plain-text explanation.'),
  rest: { method: 'POST', path: '/contracts/wizard', shape: 'data' },
  handler: (input) => {
    const known = [
      input.blockchain ? `chain ${input.blockchain}` : '',
      input.ownerAddress ? 'the owner address' : '',
      input.beneficiaries?.length
        ? `${input.beneficiaries.length} beneficiar${input.beneficiaries.length === 1 ? 'y' : 'ies'}`
        : '',
    ].filter(Boolean);
    const message =
      `The contract wizard is open${known.length ? `, prefilled with ${known.join(', ')}` : ''}: the user completes it in the app shown in the ` +
      'conversation, and the generated contract appears there. If no app is shown (the host does not support MCP Apps), plan the contract ' +
      'in the conversation instead: ask for the chain, owner address, beneficiaries with shares summing to 100, template and jurisdiction and ' +
      "dead man's switch, check them with validate_plan and check_plan, then call generate_contract.";
    return { resourceUri: WIZARD_APP_URI, mimeType: MCP_APP_MIME_TYPE, message, prefill: input };
  },
});
