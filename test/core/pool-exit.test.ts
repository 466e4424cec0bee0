import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GIVE_UP_MS, runChild } from '../support/child-script.js';

// A process that used a worker pool and has nothing else to do ends by itself: the pool's idle workers are unref'd,
// and what they print reaches the process's stderr without holding it open (svc serve ends this way on SIGTERM, once
// its server and store are closed, and svc mcp when its client goes away).

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const POOL = pathToFileURL(path.join(ROOT, 'src', 'core', 'worker-pool.ts')).href;
const SEND = pathToFileURL(path.join(ROOT, 'src', 'webhooks', 'send.ts')).href;
const TASKS = pathToFileURL(path.join(import.meta.dirname, 'fixtures', 'pool-tasks.ts')).href;

describe('WorkerPool in a process of its own', () => {
  it('lets the process end once its job is done, and forwards what the worker printed to stderr', async () => {
    const script = [
      `import { WorkerPool } from ${JSON.stringify(POOL)};`,
      `const pool = new WorkerPool({ name: 'The test task', module: new URL(${JSON.stringify(TASKS)}) });`,
      `process.stdout.write('result: ' + (await pool.run('print', 'a line from the worker')) + '\\n');`,
    ].join('\n');
    const run = await runChild(script);
    expect(run.killed, `still running ${GIVE_UP_MS} ms after its job: the idle pool held it open`).toBe(false);
    expect(run.code, run.stderr).toBe(0);
    // stdout carries the process's own output alone (it may be a protocol); the worker's lines went to stderr.
    expect(run.stdout).toBe('result: printed\n');
    expect(run.stderr).toContain('a line from the worker on stdout');
    expect(run.stderr).toContain('a line from the worker on stderr');
  }, 90_000);
});

describe('the webhook sender thread in a process of its own', () => {
  it('lets the process end while the thread waits, unused, for another client', async () => {
    // An attempt to a port nobody listens on (the thread starts, the connection is refused), then the close: the
    // thread waits two minutes for another client, and the process must end without waiting for it.
    const script = [
      `import net from 'node:net';`,
      `import { senderThreadProbe, WebhookClient } from ${JSON.stringify(SEND)};`,
      `senderThreadProbe.idleFor(120_000);`,
      `const server = net.createServer();`,
      `await new Promise((r) => server.listen(0, '127.0.0.1', r));`,
      `const { port } = server.address();`,
      `await new Promise((r) => server.close(r));`,
      `const client = new WebhookClient({ allow: '127.0.0.1' });`,
      `const result = await client.send('https://127.0.0.1:' + port + '/hook', '{}', {}, 5000);`,
      `await client.close();`,
      `process.stdout.write(JSON.stringify({ ok: result.ok, state: senderThreadProbe.state() }) + '\\n');`,
    ].join('\n');
    const run = await runChild(script);
    expect(run.killed, `still running ${GIVE_UP_MS} ms after its close: the waiting thread held it open`).toBe(false);
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as { ok: boolean; state: { clients: number; idle: boolean } | null };
    expect(out.ok).toBe(false);
    expect(out.state).toMatchObject({ clients: 0, idle: true, referenced: false });
  }, 90_000);
});
