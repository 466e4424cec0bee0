/**
 * The EVM package: a Foundry project holding the stored source, a forge script deploying it with the plan's
 * constructor arguments, foundry.toml pinned to the compiler and settings the service compiled with, and a Node
 * script (viem) sending the stored creation data as it is, which is what registration then finds on chain.
 */
import { createRequire } from 'node:module';
import { type Abi, type AbiParameter, decodeDeployData, getAddress, type Hex } from 'viem';
import { COMPILER_SETTINGS } from '../evm/pool.js';
import type { PackageFile } from './archive.js';
import { type PackageContract, registerCall, WARNINGS } from './common.js';

const require = createRequire(import.meta.url);

/** The solc release the service compiles with (the installed `solc` package), e.g. "0.8.37". */
export function solcVersion(): string {
  return (require('solc/package.json') as { version: string }).version;
}

/** The viem release deploy.mjs is written against: the one the service itself uses. */
function viemVersion(): string {
  return (require('viem/package.json') as { version: string }).version;
}

/** The main contract's name: the last `contract X` of the source (interfaces and libraries come first). */
export function contractName(source: string): string {
  const names = [...source.matchAll(/^contract\s+([A-Za-z_]\w*)/gm)].map((m) => m[1] as string);
  return names.at(-1) ?? 'Inheritance';
}

/** A value of a static ABI type as a Solidity literal (addresses checksummed, as solc requires). */
function literal(type: string, value: unknown): string {
  if (type === 'address') return getAddress(value as string);
  if (/^u?int\d*$/.test(type)) return (value as bigint | number).toString();
  if (type === 'bool') return value ? 'true' : 'false';
  if (/^bytes\d+$/.test(type)) return `bytes${type.slice(5)}(${value as string})`;
  throw new Error(`no Solidity literal for constructor argument type ${type}`);
}

/** Statements declaring one constructor argument as a local variable named `name`. */
function declare(p: AbiParameter, name: string, value: unknown): string[] {
  const fixed = /^(.+)\[(\d+)\]$/.exec(p.type);
  if (fixed) {
    const values = value as readonly unknown[];
    return [`${p.type} memory ${name};`, ...values.map((v, i) => `${name}[${i}] = ${literal(fixed[1] as string, v)};`)];
  }
  const array = /^(.+)\[\]$/.exec(p.type);
  if (!array) return [`${p.type} ${name} = ${literal(p.type, value)};`];
  const item = array[1] as string;
  const values = value as readonly unknown[];
  return [
    `${p.type} memory ${name} = new ${item}[](${values.length});`,
    ...values.map((v, i) => `${name}[${i}] = ${literal(item, v)};`),
  ];
}

/** script/Deploy.s.sol: declares the plan's arguments as literals and deploys the contract between broadcasts. */
export function deployScript(c: PackageContract, name: string, abi: Abi): string {
  const ctor = abi.find((x) => x.type === 'constructor');
  const inputs = ctor && 'inputs' in ctor ? ctor.inputs : [];
  const { args } = decodeDeployData({ abi, bytecode: c.compiled.bytecode as Hex, data: c.deployData as Hex });
  const names = inputs.map((p, i) => (p.name ? p.name.replace(/_+$/, '') : `arg${i}`));
  const body = inputs.flatMap((p, i) => declare(p, names[i] as string, (args ?? [])[i]));
  return [
    '// SPDX-License-Identifier: MIT',
    `pragma solidity ${solcVersion()};`,
    '',
    `import {${name}} from "../src/${name}.sol";`,
    '',
    '/// The two cheatcodes this script uses, declared here so the project needs no forge-std install.',
    'interface Vm {',
    '    function startBroadcast() external;',
    '    function stopBroadcast() external;',
    '}',
    '',
    `/// Deploys ${name} with the plan's arguments: forge script script/Deploy.s.sol --rpc-url $RPC_URL --private-key $PRIVATE_KEY --broadcast`,
    'contract Deploy {',
    '    bool public IS_SCRIPT = true;',
    '    Vm private constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));',
    '',
    `    function run() external returns (${name} deployed) {`,
    ...body.map((l) => `        ${l}`),
    '        vm.startBroadcast();',
    `        deployed = new ${name}(${names.join(', ')});`,
    '        vm.stopBroadcast();',
    '    }',
    '}',
    '',
  ].join('\n');
}

function foundryToml(): string {
  return [
    '# Pinned to the compiler and settings svc compiled this contract with.',
    '[profile.default]',
    'src = "src"',
    'script = "script"',
    'out = "out"',
    'libs = []',
    `solc_version = "${solcVersion()}"`,
    'optimizer = true',
    `optimizer_runs = ${COMPILER_SETTINGS.optimizerRuns}`,
    `evm_version = "${COMPILER_SETTINGS.evmVersion}"`,
    `bytecode_hash = "${COMPILER_SETTINGS.bytecodeHash}"`,
    '',
  ].join('\n');
}

/** deploy.mjs: sends the stored creation data as a contract-creation transaction and prints what to register. */
function deployMjs(id: string): string {
  return `// Deploys the svc contract ${id}: sends deploy-data.hex (the bytecode svc compiled plus the plan's
// constructor arguments) as a contract-creation transaction, waits for the receipt, and prints the address,
// the transaction hash and the call that registers the deployment with svc.
// Usage: RPC_URL=https://... PRIVATE_KEY=0x... node deploy.mjs   (after npm install)
import { readFileSync } from 'node:fs';
import { createPublicClient, createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const rpcUrl = process.env.RPC_URL;
const key = process.env.PRIVATE_KEY;
if (!rpcUrl || !key) {
  console.error('Set RPC_URL (the chain\\'s JSON-RPC endpoint) and PRIVATE_KEY (the deploying account, 0x...).');
  process.exit(2);
}
const data = readFileSync(new URL('./deploy-data.hex', import.meta.url), 'utf8').trim();
const account = privateKeyToAccount(key.startsWith('0x') ? key : \`0x\${key}\`);
const transport = http(rpcUrl);
const reader = createPublicClient({ transport });
const chainId = await reader.getChainId();
const chain = {
  id: chainId,
  name: \`chain \${chainId}\`,
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [rpcUrl] } },
};
const wallet = createWalletClient({ account, chain, transport });
const hash = await wallet.sendTransaction({ data });
const receipt = await reader.waitForTransactionReceipt({ hash });
if (receipt.status !== 'success' || !receipt.contractAddress) {
  console.error(\`The deployment failed (transaction \${hash}).\`);
  process.exit(1);
}
console.log(\`address: \${receipt.contractAddress}\`);
console.log(\`txHash: \${hash}\`);
console.log('Register it so svc verifies and watches it:');
console.log(\`curl -X POST "$SVC_URL/api/v1/contracts/${id}/deployments" \\\\\`);
console.log('  -H "Authorization: Bearer $SVC_API_KEY" -H "Content-Type: application/json" \\\\');
console.log(\`  -d '{"network": \${chainId}, "address": "\${receipt.contractAddress}", "txHash": "\${hash}"}'\`);
`;
}

/** Owner-only functions of the source (every one counts as proof of life before the release), checkIn first. */
function ownerActions(source: string): string[] {
  const names = [...source.matchAll(/function\s+(\w+)\([^)]*\)\s+external[^{]*\bonlyOwner\b/g)].map(
    (m) => m[1] as string,
  );
  return names.sort((a, b) => (a === 'checkIn' ? -1 : b === 'checkIn' ? 1 : 0));
}

function readme(c: PackageContract, name: string): string {
  const actions = ownerActions(c.source);
  return [
    `# ${name} (svc contract ${c.id})`,
    '',
    `Generated by svc on ${c.created} from your plan. Files: \`src/${name}.sol\` (the source), ` +
      '`script/Deploy.s.sol` (a forge script with your plan as constructor arguments), `foundry.toml` (the compiler ' +
      'and settings svc used), `deploy.mjs` + `package.json` (deployment with Node and viem), `abi.json`, ' +
      "`deploy-data.hex` (the exact creation data: bytecode plus your plan's arguments).",
    '',
    ...WARNINGS,
    '## Deploy with Node (recommended: sends exactly what svc compiled)',
    '',
    '```sh',
    'npm install',
    'RPC_URL=https://your-node PRIVATE_KEY=0x... node deploy.mjs',
    '```',
    '',
    'It prints the address, the transaction hash and the registration call below, filled in.',
    '',
    '## Deploy with Foundry',
    '',
    '```sh',
    'forge script script/Deploy.s.sol --rpc-url "$RPC_URL" --private-key "$PRIVATE_KEY" --broadcast',
    '```',
    '',
    'forge compiles the same source with the same settings; solc appends a metadata hash that depends on file ' +
      'names, so if registration reports other code, deploy with `deploy.mjs` instead.',
    '',
    '## Check in (proof of life)',
    '',
    `The owner calls \`checkIn()\` from the owner's address before each deadline. Every owner action counts as ` +
      `proof of life: ${actions.map((a) => `\`${a}\``).join(', ')}, and ETH sent to the contract by the owner.`,
    '',
    '```sh',
    'cast send <address> "checkIn()" --rpc-url "$RPC_URL" --private-key "$OWNER_KEY"',
    '```',
    '',
    '## Register the deployment',
    '',
    'So svc verifies the code and arguments on chain and watches the switch (network = the chain id):',
    '',
    '```sh',
    registerCall(c.id, '<chainId>', '<address>', '<txHash>'),
    '```',
    '',
  ].join('\n');
}

/** Every file of the EVM package. */
export function evmPackage(c: PackageContract): PackageFile[] {
  if (!c.deployData) throw new Error('an evm contract without deployment data');
  const name = contractName(c.source);
  const abi = c.compiled.abi as Abi;
  const pkg = {
    name: `svc-${c.id.toLowerCase()}`,
    private: true,
    type: 'module',
    scripts: { deploy: 'node deploy.mjs' },
    dependencies: { viem: viemVersion() },
  };
  return [
    { path: `src/${name}.sol`, content: c.source },
    { path: 'script/Deploy.s.sol', content: deployScript(c, name, abi) },
    { path: 'foundry.toml', content: foundryToml() },
    { path: 'deploy.mjs', content: deployMjs(c.id), executable: true },
    { path: 'package.json', content: `${JSON.stringify(pkg, null, 2)}\n` },
    { path: 'abi.json', content: `${JSON.stringify(abi, null, 2)}\n` },
    { path: 'deploy-data.hex', content: `${c.deployData}\n` },
    { path: 'README.md', content: readme(c, name) },
  ];
}
