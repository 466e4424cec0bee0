import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The import directions around admission, read from the sources: core imports nothing of the service, accounts
 * knows nothing of keys, keys nothing of embedding, and admission nothing of the tools and transports above it.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|mts)$/.test(f))
    .map((f) => path.join(dir, f));
}

/** The src folder (or top-level file) each relative import of a file lands in. */
function importedFolders(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = path.relative(path.join(ROOT, 'src'), path.resolve(path.dirname(path.join(ROOT, file)), m[1]!));
    out.push(target.split(path.sep)[0]!.replace(/\.js$/, ''));
  }
  return out;
}

function violations(dir: string, forbidden: readonly string[]): string[] {
  return sourceFiles(dir).flatMap((file) =>
    importedFolders(file)
      .filter((f) => forbidden.includes(f))
      .map((f) => `${file} -> ${f}`),
  );
}

const ABOVE_DOMAINS = ['access', 'tools', 'http', 'mcp', 'app', 'cli', 'admin'];

describe('layers around admission', () => {
  it('core imports nothing outside core', () => {
    const outside = sourceFiles('src/core').flatMap((file) =>
      importedFolders(file)
        .filter((f) => f !== 'core')
        .map((f) => `${file} -> ${f}`),
    );
    expect(outside).toEqual([]);
  });

  it('accounts does not import keys or embed; keys does not import embed', () => {
    expect(violations('src/accounts', ['keys', 'embed', ...ABOVE_DOMAINS])).toEqual([]);
    expect(violations('src/keys', ['embed', ...ABOVE_DOMAINS])).toEqual([]);
  });

  it('admission does not import the tools or the transports', () => {
    expect(violations('src/access', ['tools', 'http', 'mcp', 'app', 'cli', 'admin'])).toEqual([]);
  });

  it('sees imports at all (the check itself works)', () => {
    expect(importedFolders('src/access/key.ts')).toEqual(
      expect.arrayContaining(['core', 'accounts', 'keys', 'access']),
    );
  });
});
