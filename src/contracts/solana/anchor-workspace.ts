/**
 * The generated Solana program as a buildable Anchor workspace: every file `anchor build` needs, at the path it
 * expects, with the IDL this service checked placed where `anchor build` writes its own (target/idl/), and the
 * commands that build and deploy it.
 */
import { CRATE_NAME } from './program.js';
import { ANCHOR_VERSION, printToml } from './workspace.js';

export interface WorkspaceFile {
  path: string;
  content: string;
}

export interface AnchorWorkspace {
  /** The program's name (the crate and the key of Anchor.toml's [programs.*] sections). */
  program: string;
  files: WorkspaceFile[];
  /** Run in the workspace's root, in order. */
  commands: string[];
}

/** The root Cargo.toml: one workspace holding the programs, released with overflow checks on. */
function workspaceCargoToml(): string {
  return printToml([
    {
      name: 'workspace',
      entries: [
        ['members', ['programs/*']],
        ['resolver', '2'],
      ],
    },
    {
      name: 'profile.release',
      entries: [
        ['overflow-checks', true],
        ['lto', 'fat'],
        ['codegen-units', 1],
      ],
    },
  ]);
}

export function anchorWorkspace(g: {
  contractCode: string;
  cargoToml: string;
  anchorToml: string;
  idl: Record<string, unknown>;
  clientSnippet: string;
}): AnchorWorkspace {
  const dir = `programs/${CRATE_NAME}`;
  return {
    program: CRATE_NAME,
    files: [
      { path: 'Cargo.toml', content: workspaceCargoToml() },
      { path: 'Anchor.toml', content: g.anchorToml },
      { path: `${dir}/Cargo.toml`, content: g.cargoToml },
      { path: `${dir}/src/lib.rs`, content: g.contractCode },
      { path: `target/idl/${CRATE_NAME}.json`, content: `${JSON.stringify(g.idl, null, 2)}\n` },
      { path: 'app/initialize.ts', content: g.clientSnippet },
    ],
    commands: [
      `avm install ${ANCHOR_VERSION} && avm use ${ANCHOR_VERSION}`,
      'anchor keys sync',
      'anchor build',
      'anchor deploy --provider.cluster devnet',
    ],
  };
}
