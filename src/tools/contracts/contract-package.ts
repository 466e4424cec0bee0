import { z } from 'zod';
import { contractPackage, PACKAGE_FORMATS } from '../../contracts/package/index.js';
import { getStoredContract } from '../../contracts/stored.js';
import { defineTool, type FileAnswer, READ } from '../define.js';

/** The archive as a download; the file name is built from the chain and the id only, so it is always header-safe. */
function packageFile(output: Record<string, unknown>): FileAnswer {
  const out = output as { contentBase64: string; contentType: string; fileName: string };
  return {
    contentType: out.contentType,
    headers: { 'Content-Disposition': `attachment; filename="${out.fileName}"`, 'Cache-Control': 'no-store' },
    body: Buffer.from(out.contentBase64, 'base64'),
  };
}

export const getContractPackageTool = defineTool({
  name: 'get_contract_package',
  example: { id: 'ctr_01JD0000000000000000000000', format: 'zip' },
  title: 'Download a deployable contract package',
  description:
    'One archive (zip or tar.gz) with everything needed to deploy a stored contract and check in. evm: a Foundry ' +
    'project (src/, script/Deploy.s.sol with the plan as constructor arguments, foundry.toml pinned to the solc ' +
    'version and optimizer settings used), deploy.mjs (viem) sending the stored deployment data, abi.json, ' +
    'deploy-data.hex. ton: the FunC source, code/data/StateInit BoC, address.txt and deploy.mjs (@ton/core). ' +
    'solana: the Anchor workspace. Each with a README on deploying, checking in and registering the deployment. ' +
    'The same contract always gives the same bytes. Over REST a file download; over MCP the archive in base64. ' +
    "404 NOT_FOUND for an unknown id or another account's contract.",
  domain: 'contracts',
  scope: 'contracts',
  bucket: 'default',
  annotations: READ,
  input: z
    .strictObject({
      id: z.string().min(1).max(64).describe('Id of a generated contract (ctr_...), as answered by generate_contract.'),
      format: z
        .enum(PACKAGE_FORMATS)
        .default('zip')
        .describe('"zip" (the default) or "tar.gz" (a gzipped ustar archive).'),
    })
    .describe('Which contract, and the archive format.'),
  output: z
    .object({
      contentBase64: z.string().max(20_000_000).describe('The archive, base64.'),
      contentType: z.enum(['application/zip', 'application/gzip']).describe('Its media type.'),
      fileName: z.string().max(120).describe('A file name for it: svc-<chain>-<id>.zip (or .tar.gz).'),
    })
    .describe('The package.'),
  rest: {
    method: 'GET',
    path: '/contracts/:id/package',
    shape: 'data',
    extraStatuses: [404],
    file: packageFile,
    docs: {
      parameters: [
        {
          in: 'path',
          name: 'id',
          required: true,
          description: 'Id of a generated contract (ctr_...).',
          schema: { type: 'string', minLength: 1, maxLength: 64 },
          example: 'ctr_01JD0000000000000000000000',
        },
        {
          in: 'query',
          name: 'format',
          required: false,
          description: '"zip" (the default) or "tar.gz".',
          schema: { type: 'string', enum: [...PACKAGE_FORMATS], default: 'zip' },
          example: 'zip',
        },
      ],
      success: {
        description: 'The package, as a file download.',
        headers: {
          'Content-Disposition': {
            description: 'attachment; filename="svc-<chain>-<id>.zip" (or .tar.gz).',
            schema: { type: 'string', maxLength: 140 },
          },
          'Cache-Control': { description: 'no-store.', schema: { type: 'string', enum: ['no-store'] } },
        },
        content: {
          'application/zip': { schema: { type: 'string', format: 'binary', description: 'A zip archive.' } },
          'application/gzip': { schema: { type: 'string', format: 'binary', description: 'A gzipped tar.' } },
        },
      },
    },
  },
  handler: async (input, ctx) => {
    const c = await getStoredContract(ctx.store, input.id);
    const p = await contractPackage(c, input.format);
    return { contentBase64: Buffer.from(p.bytes).toString('base64'), contentType: p.contentType, fileName: p.fileName };
  },
});
