// The stdio transport of `svc mcp`, started before the MCP SDK loads: it reads
// stdin at once and answers the client's first `initialize` itself (from
// src/mcp/info.ts, the same answer the SDK would give), so an IDE sees the
// server start in about the time Node itself takes. Everything read is kept
// and handed to the SDK's Server when it connects, `initialize` included (the
// Server records the client's capabilities as usual); the Server's own answer
// to that `initialize` is then dropped, the client having had it already.
// Only type imports from the SDK here: loading it is what this file avoids.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { initializeResult } from './info.js';

type Id = string | number;

export class EarlyStdioTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Checks a parsed message (the SDK's JSONRPCMessageSchema.parse), set before the Server connects. */
  validate: (value: unknown) => JSONRPCMessage = (v) => v as JSONRPCMessage;

  /** Resolves when stdin has ended (the client went away), even before the Server connected. */
  readonly ended: Promise<void>;
  private text = '';
  private pending: string[] | undefined = [];
  /** The id of the `initialize` answered early, until the Server's own answer to it has been dropped. */
  private answered: Id | undefined;
  private readonly onData = (chunk: string) => this.read(chunk);
  private readonly onError = (err: Error) => this.onerror?.(err);

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {
    input.setEncoding('utf8');
    input.on('data', this.onData);
    input.on('error', this.onError);
    this.ended = new Promise((resolve) => input.once('end', () => resolve()));
  }

  private read(chunk: string): void {
    this.text += chunk;
    for (let i = this.text.indexOf('\n'); i >= 0; i = this.text.indexOf('\n')) {
      const line = this.text.slice(0, i).replace(/\r$/, '');
      this.text = this.text.slice(i + 1);
      if (this.pending) {
        if (this.pending.length === 0) this.answerEarly(line);
        this.pending.push(line);
      } else this.deliver(line);
    }
  }

  /** Answers a well-formed `initialize` arriving first; anything else waits for the Server. */
  private answerEarly(line: string): void {
    let msg: {
      jsonrpc?: unknown;
      id?: unknown;
      method?: unknown;
      params?: {
        protocolVersion?: unknown;
        capabilities?: unknown;
        clientInfo?: { name?: unknown; version?: unknown };
      };
    };
    try {
      msg = JSON.parse(line);
    } catch {
      return;
    }
    const p = msg?.params;
    if (
      msg?.jsonrpc !== '2.0' ||
      msg.method !== 'initialize' ||
      (typeof msg.id !== 'string' && typeof msg.id !== 'number')
    )
      return;
    if (typeof p?.protocolVersion !== 'string' || typeof p.capabilities !== 'object' || p.capabilities === null) return;
    if (typeof p.clientInfo?.name !== 'string' || typeof p.clientInfo.version !== 'string') return;
    this.answered = msg.id;
    this.output.write(
      JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: initializeResult(p.protocolVersion) }) + '\n',
    );
  }

  private deliver(line: string): void {
    let msg: JSONRPCMessage;
    try {
      msg = this.validate(JSON.parse(line));
    } catch (err) {
      this.onerror?.(err as Error);
      return;
    }
    this.onmessage?.(msg);
  }

  async start(): Promise<void> {
    const lines = this.pending ?? [];
    this.pending = undefined;
    for (const line of lines) this.deliver(line);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.answered !== undefined && 'id' in message && message.id === this.answered && !('method' in message)) {
      this.answered = undefined;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      if (this.output.write(JSON.stringify(message) + '\n')) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.onclose?.();
  }
}
