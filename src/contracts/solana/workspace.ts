/**
 * The files around lib.rs: Cargo.toml and Anchor.toml (printed from a small
 * TOML model), the build instructions, and the TypeScript client snippet with
 * the plan's values.
 */
import { guardianTiming } from '../guardians.js';
import type { Plan } from '../plan.js';
import type { SolanaShape } from './program.js';
import { CRATE_NAME } from './program.js';

export const ANCHOR_VERSION = '0.31.1';
export const SOLANA_CLI_VERSION = '2.1.21';

type TomlValue = string | number | boolean | string[] | { [k: string]: string | boolean | string[] };
export interface TomlSection {
  name: string | null;
  entries: Array<[string, TomlValue]>;
}

function tomlValue(v: TomlValue): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => JSON.stringify(x)).join(', ')}]`;
  return `{ ${Object.entries(v)
    .map(([k, x]) => `${k} = ${tomlValue(x)}`)
    .join(', ')} }`;
}

export function printToml(sections: TomlSection[]): string {
  return (
    sections
      .map((s) =>
        [...(s.name ? [`[${s.name}]`] : []), ...s.entries.map(([k, v]) => `${k} = ${tomlValue(v)}`)].join('\n'),
      )
      .join('\n\n') + '\n'
  );
}

export function cargoToml(shape: SolanaShape): string {
  return printToml([
    {
      name: 'package',
      entries: [
        ['name', CRATE_NAME],
        ['version', '0.1.0'],
        ['description', `svc inheritance vault (${shape.template})`],
        ['edition', '2021'],
        ['license', 'MIT'],
      ],
    },
    {
      name: 'lib',
      entries: [
        ['crate-type', ['cdylib', 'lib']],
        ['name', CRATE_NAME],
      ],
    },
    {
      name: 'features',
      entries: [
        ['default', []],
        ['cpi', ['no-entrypoint']],
        ['no-entrypoint', []],
        ['no-idl', []],
        ['no-log-ix-name', []],
        ['idl-build', shape.splTokens ? ['anchor-lang/idl-build', 'anchor-spl/idl-build'] : ['anchor-lang/idl-build']],
      ],
    },
    {
      name: 'dependencies',
      entries: [
        ['anchor-lang', shape.splTokens ? { version: ANCHOR_VERSION, features: ['init-if-needed'] } : ANCHOR_VERSION],
        ...(shape.splTokens ? ([['anchor-spl', ANCHOR_VERSION]] as Array<[string, TomlValue]>) : []),
      ],
    },
  ]);
}

export function anchorToml(programId: string): string {
  return printToml([
    {
      name: 'toolchain',
      entries: [
        ['anchor_version', ANCHOR_VERSION],
        ['solana_version', SOLANA_CLI_VERSION],
      ],
    },
    {
      name: 'features',
      entries: [
        ['resolution', true],
        ['skip-lint', false],
      ],
    },
    { name: 'programs.localnet', entries: [[CRATE_NAME, programId]] },
    { name: 'programs.devnet', entries: [[CRATE_NAME, programId]] },
    {
      name: 'provider',
      entries: [
        ['cluster', 'devnet'],
        ['wallet', '~/.config/solana/id.json'],
      ],
    },
    { name: 'scripts', entries: [['test', 'npx ts-mocha -p ./tsconfig.json -t 1000000 tests/**/*.ts']] },
  ]);
}

export function buildInstructions(): { required: 'anchor build'; commands: string[]; note: string } {
  return {
    required: 'anchor build',
    commands: [
      `avm install ${ANCHOR_VERSION} && avm use ${ANCHOR_VERSION}`,
      `anchor init ${CRATE_NAME} --no-install --no-git && cd ${CRATE_NAME}`,
      `# save contractCode as programs/${CRATE_NAME}/src/lib.rs, cargoToml as programs/${CRATE_NAME}/Cargo.toml, anchorToml as Anchor.toml`,
      'anchor keys sync',
      'anchor build',
      `jq '.instructions | map(.name)' target/idl/${CRATE_NAME}.json`,
      'anchor deploy --provider.cluster devnet',
    ],
    note:
      `The Solana toolchain (Anchor CLI ${ANCHOR_VERSION}, Solana CLI ${SOLANA_CLI_VERSION} or later, Rust stable) is not on this server, so the program was ` +
      'not compiled here. It was parsed with tree-sitter-rust and checked structurally, and its IDL was checked against the source. ' +
      '`anchor keys sync` replaces the placeholder program id in declare_id! and Anchor.toml with the id of the keypair `anchor build` creates; ' +
      'the IDL `anchor build` writes should list the same instructions, accounts and seeds as the IDL returned here.',
  };
}

const q = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** A TypeScript snippet (@coral-xyz/anchor) that initialises the vault with the plan's values. */
export function clientSnippet(plan: Plan, shape: SolanaShape): string {
  const bps = plan.beneficiaries.map((b) => Math.round(b.percentage * 100));
  const lines: string[] = [
    `// svc inheritance vault: initialise with the plan's values (Anchor ${ANCHOR_VERSION}, @coral-xyz/anchor, @solana/web3.js).`,
    `// Run after \`anchor build\` and \`anchor deploy\`; the IDL and types come from target/.`,
    "import * as anchor from '@coral-xyz/anchor';",
    "import { PublicKey } from '@solana/web3.js';",
    `import idl from '../target/idl/${CRATE_NAME}.json' with { type: 'json' };`,
    `import type { SvcInheritance } from '../target/types/${CRATE_NAME}';`,
    '',
    'const provider = anchor.AnchorProvider.env();',
    'anchor.setProvider(provider);',
    'const program = new anchor.Program<SvcInheritance>(idl as SvcInheritance, provider);',
    '',
    `const owner = new PublicKey(${q(plan.ownerAddress)});`,
    "if (!provider.wallet.publicKey.equals(owner)) throw new Error('sign with the owner wallet');",
    "const [vault] = PublicKey.findProgramAddressSync([Buffer.from('vault'), owner.toBuffer()], program.programId);",
    '',
    'const args = {',
    '  beneficiaries: [',
    ...plan.beneficiaries.map(
      (b, i) => `    { wallet: new PublicKey(${q(b.address)}), shareBps: ${bps[i]} }, // ${b.percentage}%`,
    ),
    '  ],',
  ];
  if (shape.deadMansSwitch) {
    lines.push(
      `  intervalDays: ${plan.deadMansSwitch?.intervalDays ?? 365},`,
      `  gracePeriodDays: ${plan.deadMansSwitch?.gracePeriodDays ?? 0},`,
    );
  }
  if (shape.multiSig && plan.guardians) {
    lines.push(
      `  guardians: [${plan.guardians.addresses.map((a) => `new PublicKey(${q(a)})`).join(', ')}],`,
      `  threshold: ${plan.guardians.threshold},`,
      `  guardianWaitDays: ${guardianTiming(plan.guardians).waitDays},`,
      ...(shape.deadMansSwitch ? [`  maxVetoes: ${guardianTiming(plan.guardians).maxVetoes},`] : []),
    );
  }
  lines.push(
    '};',
    'const signature = await program.methods.initialize(args).accountsPartial({ owner, vault }).rpc();',
    "console.log('vault', vault.toBase58(), 'initialised:', signature);",
    '',
    '// Fund it with SOL (anyone may deposit, also after the release):',
    'await program.methods.depositSol(new anchor.BN(1_000_000_000)).accountsPartial({ depositor: owner, vault }).rpc();',
  );
  if (shape.splTokens) {
    const mints = (plan.assets ?? []).filter((a) => a.type === 'spl' && a.address).map((a) => a.address!);
    lines.push(
      '',
      "// SPL tokens of the plan: deposit into the vault's associated token account.",
      `const mints = [${mints.map((m) => `new PublicKey(${q(m)})`).join(', ')}];`,
      'for (const mint of mints) {',
      '  const depositorTokenAccount = anchor.utils.token.associatedAddress({ mint, owner });',
      "  const amount = new anchor.BN(1); // in the mint's base units",
      '  await program.methods.depositToken(amount).accountsPartial({ depositor: owner, vault, mint, depositorTokenAccount }).rpc();',
      '}',
    );
  }
  lines.push('');
  if (shape.deadMansSwitch) {
    lines.push(
      '// Check in before the deadline (owner):',
      '// await program.methods.checkIn().accountsPartial({ owner, vault }).rpc();',
    );
    lines.push(
      '// After the deadline anyone may trigger:',
      '// await program.methods.trigger().accountsPartial({ caller: provider.wallet.publicKey, vault }).rpc();',
    );
  } else {
    lines.push(
      "// No dead man's switch: the owner (or an executor with the owner key) opens the claims:",
      '// await program.methods.release().accountsPartial({ owner, vault }).rpc();',
    );
  }
  if (shape.multiSig)
    lines.push(
      `// Guardians confirm the owner's absence (m of n); the claims open ${guardianTiming(plan.guardians).waitDays} days later unless the owner acts first:`,
      '// await program.methods.confirmRelease().accountsPartial({ guardian, vault }).rpc();',
    );
  lines.push(
    '// Each beneficiary then claims, signing with its own wallet:',
    '// await program.methods.claimSol().accountsPartial({ beneficiary, vault }).rpc();',
  );
  if (shape.splTokens)
    lines.push('// await program.methods.claimToken().accountsPartial({ beneficiary, vault, mint }).rpc();');
  return lines.join('\n') + '\n';
}
