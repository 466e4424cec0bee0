/**
 * The zod schemas of the contract tools' inputs and outputs (generate, validate, estimate), apart from the engine
 * that fills them (src/contracts/engine.ts re-exports them).
 */
import { z } from 'zod';
import { jurisdictionName } from '../law/names.js';
import { MADHHABS } from '../law/faraid/index.js';
import { PlanSchema } from './plan.js';
import { MAX_RUST_SOURCE } from './solana/parser.js';
import { MAX_FUNC_SOURCE } from './ton/compile.js';

/**
 * Per-chain limits on client source given to estimate_gas, checked before
 * anything parses it (the compile tools have the same limits).
 */
export const MAX_CONTRACT_CODE = { evm: 512 * 1024, solana: MAX_RUST_SOURCE, ton: MAX_FUNC_SOURCE } as const;

export const WarningSchema = z
  .object({
    id: z.string().describe('Stable identifier of the check that raised it.'),
    severity: z.enum(['high', 'medium', 'low', 'info']).describe('How much it matters.'),
    message: z.string().describe('What was found and what to do, in English.'),
    code: z
      .string()
      .optional()
      .describe(
        'Stable code of the sentence, for translation with params (e.g. "solana.short-interval"); absent where the warning has none yet.',
      ),
    params: z
      .record(z.string(), z.union([z.number(), z.string()]).describe('A figure or short string of the message.'))
      .optional()
      .describe('The figures and strings of the message as data, by name (e.g. {"intervalDays": 7}).'),
  })
  .describe('An analysis warning.');

export const AdviceSchema = z
  .object({
    code: z.string().describe('Stable code of the sentence, for translation with params (e.g. "evm.advice-check-in").'),
    params: z
      .record(z.string(), z.union([z.number(), z.string()]).describe('A figure or short string of the suggestion.'))
      .describe('The figures and strings of the suggestion as data, by name (e.g. {"intervalDays": 180}).'),
    message: z.string().describe('The suggestion in English, exactly as it appears in suggestions.'),
  })
  .describe('A suggestion with its code.');

export const GenerateInput = PlanSchema.extend({
  jurisdiction: jurisdictionName()
    .optional()
    .describe(
      'Optional jurisdiction id or name: its law is checked too (errors refuse the plan; warnings appear in analysis).',
    ),
  madhhab: z
    .enum(MADHHABS)
    .optional()
    .describe("School of Islamic law for the fara'id checks of the Islamic templates."),
})
  .strict()
  .describe('Plan of the contract to generate.');
export type GenerateInput = z.infer<typeof GenerateInput>;

export const GenerateOutput = z
  .object({
    id: z.string().describe('Id of the stored contract (ctr_...): get_contract and list_contracts read it again.'),
    contractCode: z.string().describe('Source: Solidity (evm), Rust/Anchor lib.rs (solana) or FunC (ton).'),
    contractInfo: z
      .object({
        blockchain: z.enum(['evm', 'solana', 'ton']).describe('Chain family.'),
        network: z.string().describe('Network the figures refer to.'),
        template: z.string().describe('Inheritance template applied.'),
        distribution: z
          .record(z.string(), z.number().describe('Percentage.'))
          .describe('Beneficiary address → percentage.'),
        features: z
          .array(z.string().describe('A feature.'))
          .describe('Features of the contract, e.g. deadMansSwitch, multiSig.'),
        estimatedGas: z.string().describe('Measured (evm, ton) or computed (solana) costs, naming the method.'),
        verified: z
          .array(z.string().describe('A check.'))
          .describe('What was verified before the contract was returned.'),
      })
      .describe('About the contract.'),
    compiled: z
      .object({
        abi: z.array(z.unknown().describe('ABI entry.')).optional().describe('evm: the ABI.'),
        bytecode: z.string().optional().describe('evm: creation bytecode, 0x-prefixed.'),
        deployData: z
          .string()
          .optional()
          .describe('evm: bytecode plus the ABI-encoded constructor arguments for this plan, ready to send.'),
        codeBoc: z.string().optional().describe('ton: the code cell as base64 BOC.'),
        codeHash: z.string().optional().describe('ton: hash of the code cell, hex.'),
        dataBoc: z.string().optional().describe("ton: the initial data cell (the plan's values) as base64 BOC."),
        stateInit: z
          .string()
          .optional()
          .describe(
            'ton: the StateInit (code and data cells) as base64 BOC: send it with the first message to deploy.',
          ),
        address: z
          .string()
          .optional()
          .describe('ton: the address the StateInit deploys to (workchain 0), user-friendly bounceable form.'),
        deployScript: z
          .string()
          .optional()
          .describe('ton: TypeScript (@ton/core) building the initial data and computing the address.'),
        buildRequired: z.string().optional().describe('solana: the build the user must run ("anchor build").'),
        commands: z
          .array(z.string().describe('A shell command.'))
          .optional()
          .describe('solana: exact commands to build and deploy.'),
        note: z.string().optional().describe('solana: what was and was not checked here.'),
        idl: z.record(z.string(), z.unknown()).optional().describe('solana: the Anchor IDL.'),
        clientSnippet: z.string().optional().describe('solana: TypeScript calling initialize with this plan.'),
        cargoToml: z.string().optional().describe('solana: Cargo.toml of the program.'),
        anchorToml: z.string().optional().describe('solana: Anchor.toml of the workspace.'),
        workspace: z
          .object({
            program: z.string().describe('The program (crate) name, as Anchor.toml names it.'),
            files: z
              .array(
                z
                  .object({
                    path: z.string().describe('Path in the workspace, e.g. programs/<name>/src/lib.rs.'),
                    content: z.string().describe('The file, UTF-8 text.'),
                  })
                  .describe('One file of the workspace.'),
              )
              .describe('Every file: Cargo.toml, Anchor.toml, programs/<name>/..., target/idl/<name>.json.'),
            commands: z
              .array(z.string().describe('A shell command.'))
              .describe('Run in the workspace root, in order, to build and deploy.'),
          })
          .optional()
          .describe('solana: a buildable Anchor workspace holding the generated program.'),
      })
      .describe('Compilation output (evm, ton) or build instructions (solana).'),
    analysis: z
      .object({
        securityScore: z.number().describe('0 to 100, from real checks of the source and of its execution.'),
        warnings: z.array(WarningSchema).describe('Findings of the analysis and of the law checks.'),
        suggestions: z.array(z.string().describe('A suggestion.')).describe('What to consider before deploying.'),
        advice: z
          .array(AdviceSchema)
          .optional()
          .describe(
            'The suggestions again, each with a stable code and params for translation; a suggestion absent here has no code yet.',
          ),
      })
      .describe('Security and plan analysis.'),
  })
  .describe('A generated inheritance contract.');
export type GenerateOutput = z.infer<typeof GenerateOutput>;

export const ValidatePlanOutput = z
  .object({
    valid: z
      .literal(true)
      .describe('Always true: a plan with problems is answered with VALIDATION_ERROR and one detail per problem.'),
    warnings: z
      .array(WarningSchema)
      .describe('Law findings and defaults that generate_contract would report in its analysis.'),
  })
  .describe('The plan passes every check generate_contract makes before building.');

/** Every check generate_contract makes before building (plan rules, template and jurisdiction law), without building. */
export const EstimateInput = z
  .strictObject({
    blockchain: z.enum(['evm', 'solana', 'ton']).describe('Chain family: evm, solana or ton.'),
    contractCode: z
      .string()
      .max(MAX_CONTRACT_CODE.evm, {
        error: `too long: at most ${MAX_CONTRACT_CODE.solana} characters for solana, ${MAX_CONTRACT_CODE.ton} for ton, ${MAX_CONTRACT_CODE.evm} for evm`,
      })
      .optional()
      .describe(
        `Source to measure; the default contract is measured when omitted. At most ${MAX_CONTRACT_CODE.evm} characters for evm, ${MAX_CONTRACT_CODE.ton} for ton, ${MAX_CONTRACT_CODE.solana} for solana.`,
      ),
    gasPriceGwei: z
      .number()
      .positive()
      .max(100_000)
      .optional()
      .describe('evm: gas price for the cost in ETH (default stated in the answer).'),
    beneficiaries: z
      .number()
      .int()
      .min(1)
      .max(50)
      .optional()
      .describe(
        "Number of beneficiaries: solana, for account sizes; evm, the sample list the contract is deployed, claimed and updated with, when the code does not say: a fixed-size beneficiary array in the constructor takes its own length, and a constructor call in the code (a deploy script or factory calling new C(owner, heirs, ...) with an array literal or a local new address[](N)) its list's length; otherwise this number, default 3. The answer's method says which.",
      ),
    plan: GenerateInput.optional().describe(
      "A plan, exactly as generate_contract takes it: the plan's own contract is built in memory and measured (on evm, deployed, updated and claimed with the plan's own constructor arguments); nothing is stored and no event is sent. Not with contractCode; blockchain must be the plan's.",
    ),
  })
  .superRefine((v, ctx) => {
    if (v.plan !== undefined) {
      if (v.contractCode !== undefined)
        ctx.addIssue({ code: 'custom', path: ['contractCode'], message: 'give either plan or contractCode, not both' });
      if (v.plan.blockchain !== v.blockchain)
        ctx.addIssue({
          code: 'custom',
          path: ['plan', 'blockchain'],
          message: `the plan is for ${v.plan.blockchain}, but blockchain is ${v.blockchain}`,
        });
    }
    const max = MAX_CONTRACT_CODE[v.blockchain];
    // (beyond the largest limit, the field's own check has said so)
    if (v.contractCode !== undefined && v.contractCode.length > max && v.contractCode.length <= MAX_CONTRACT_CODE.evm) {
      ctx.addIssue({
        code: 'custom',
        path: ['contractCode'],
        message: `at most ${max} characters for ${v.blockchain} (got ${v.contractCode.length})`,
      });
    }
  })
  .describe('What to estimate.');

export const EstimateOutput = z
  .object({
    estimate: z
      .object({
        deployment: z.string().describe('Cost of deployment.'),
        claim: z.string().describe('Cost of one beneficiary claim.'),
        update: z.string().describe('Cost of updating the beneficiaries.'),
        currency: z.string().describe('ETH, SOL or TON.'),
      })
      .describe('Estimate, from measured or computed figures.'),
    method: z.string().describe('How the figures were obtained (no network is asked).'),
    gasPriceGwei: z.number().optional().describe('evm: the gas price used.'),
    figures: z
      .record(z.string(), z.unknown().describe('A figure.'))
      .describe(
        'The raw figures behind the estimate, to write in any language: evm, gas per operation; ton, `nanoton` ({deployment, claim, update}) and `storageRent`; solana, `lamports` ({deployment, claim, update}), `computeUnits` ({claim}), `lamportsPerAddedBeneficiary` and the itemised `items`.',
      ),
    contractCode: z
      .string()
      .optional()
      .describe("With plan: the plan's source that was measured, as generate_contract would return it."),
  })
  .describe('A cost estimate.');
export type EstimateOutput = z.infer<typeof EstimateOutput>;
