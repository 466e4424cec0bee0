import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
/** Long enough for a loaded machine to start the child and its workers; a child still running then was held open. */
export const GIVE_UP_MS = 60_000;

export interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Killed after GIVE_UP_MS: something held the process open. */
  killed: boolean;
}

/** Runs `script` (an ES module, TypeScript allowed, importing the sources by file URL) in a node process of its own. */
export async function runChild(script: string): Promise<ChildRun> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-child-'));
  const file = path.join(dir, 'child.mts');
  writeFileSync(file, script);
  try {
    return await runFile(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runFile(file: string): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, GIVE_UP_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, killed });
    });
  });
}
