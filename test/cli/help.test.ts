import { describe, expect, it } from 'vitest';
import { commandHelp } from '../../src/cli.js';

const COMMANDS = ['serve', 'mcp', 'keys', 'accounts', 'credits', 'secrets', 'migrate'];
const OPERATOR_NOTE = 'Account, key and credit commands work whether or not';

describe('svc <command> --help', () => {
  it.each(COMMANDS)('%s: its own usage lines, none of another command', (command) => {
    const help = commandHelp(command);
    const entries = help.split('\n').filter((l) => l.startsWith('  svc '));
    expect(entries.length).toBeGreaterThan(0);
    for (const line of entries) expect(line).toMatch(new RegExp(`^  svc ${command}( |$)`));
    // each entry keeps the description indented under it
    const lines = help.split('\n');
    for (const line of entries) expect(lines[lines.indexOf(line) + 1]).toMatch(/^ {6}\S/);
    expect(help).toContain('svc --help lists every command');
    expect(help.includes(OPERATOR_NOTE)).toBe(['keys', 'accounts', 'credits'].includes(command));
  });

  it('keeps every option the full help gives a command', () => {
    expect(commandHelp('keys')).toContain('svc keys create --tier public|partner|internal --scopes a,b --name NAME');
    expect(commandHelp('keys')).toContain('svc keys list [--json]');
    expect(commandHelp('mcp')).toContain('svc mcp --url https://host/mcp [--api-key-file PATH]');
    expect(commandHelp('serve')).not.toContain('svc secrets');
  });
});
