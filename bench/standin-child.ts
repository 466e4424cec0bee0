/**
 * The OpenAI stand-in (test/support/openai-standin.ts) in a process of its own, for benches that time the service's
 * main thread: in the bench's own process its work (a vector per text, megabytes of JSON per answer) would be counted
 * as the service's. Embeddings are dense vectors of text-embedding-3-small's 1,536 dimensions, from the text's hash.
 * Prints its base URL as the first line on stdout; each line "stats" on stdin is answered with one line of JSON:
 * the embedding requests so far and the inputs of each.
 *
 *   started with standinProcess() below
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startOpenAiStandin } from '../test/support/openai-standin.js';
import { isMain } from './util.js';

/** A deterministic dense vector of 1,536 floats in (-1, 1) for a text. */
export function denseVector(text: string): number[] {
  let x = createHash('sha256').update(text).digest().readUInt32LE(0);
  return Array.from({ length: 1536 }, () => (x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0) / 2 ** 31 - 1);
}

export interface StandinProcess {
  baseUrl: string;
  /** The inputs of each embedding request so far. */
  embeddingInputs(): Promise<string[][]>;
  close(): Promise<void>;
}

/** Starts the stand-in in a child process (node with tsx, as the bench runs). */
export async function standinProcess(): Promise<StandinProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const waiting: Array<(line: string) => void> = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const next = () => new Promise<string>((resolve) => waiting.push(resolve));
  const baseUrl = await next();
  return {
    baseUrl,
    async embeddingInputs() {
      const answer = next();
      child.stdin!.write('stats\n');
      return JSON.parse(await answer) as string[][];
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin!.end();
      await exited;
    },
  };
}

if (isMain(import.meta.url)) {
  const standin = await startOpenAiStandin();
  standin.embedWith(denseVector);
  process.stdout.write(`${standin.baseUrl}\n`);
  const input = createInterface({ input: process.stdin });
  input.on('line', (line) => {
    if (line === 'stats') process.stdout.write(`${JSON.stringify(standin.embeddingRequests.map((r) => r.input))}\n`);
  });
  input.on('close', () => void standin.close());
}
