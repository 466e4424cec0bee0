// The stdio transport of `svc mcp`, started before the MCP SDK loads: it reads
// stdin at once and answers the client's first `initialize` itself (from
// src/mcp/info.ts, the same answer the SDK would give), so an IDE sees the
// server start in about the time Node itself takes. Everything read is kept
// and handed to the SDK's Server when it connects, `initialize` included (the
// Server records the client's capabilities as usual); the Server's own answer
// to that `initialize` is then dropped, the client having had it already.
//
// With a build-time manifest (src/mcp/manifest.ts), the list requests that follow
// that `initialize` (tools/list, resources/list, resources/templates/list,
// prompts/list) are answered early too, from the manifest and the light key
// check, and so is `ping`, as long as nothing else came before them: they too
// are handed to the Server, which admits and counts them as usual, and its
// answers to them are dropped. They are answered early whenever they come until
// the service has loaded (`loaded()`), even after the Server connected: it
// would make them wait for the load. The first request the early path does not
// answer ends early answers.
// Only type imports from the SDK here: loading it is what this file avoids.
import { writeSync } from 'node:fs';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { initializeResult } from './info.js';
import { isListMethod, type EarlyLists, type ListMethod } from './manifest.js';

type Id = string | number;

/** Waited on (never notified) to sleep a moment while a pipe is full. */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));
/** How an early answer begins (key order as the SDK writes its answers); the result's bytes follow. */
const RESULT_OPEN = Buffer.from('{"result":');
const EMPTY_RESULT = Buffer.from('{}');

/** The line answering request `id` with `result` (JSON text), as the SDK writes it. */
function resultLine(id: Id, result: Buffer): Buffer {
  return Buffer.concat([RESULT_OPEN, result, Buffer.from(`,"jsonrpc":"2.0","id":${JSON.stringify(id)}}\n`)]);
}

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
  /** Ids of requests answered early whose answer from the Server is still to be dropped. */
  private readonly answered = new Set<Id>();
  /** Whether a first `initialize` may be answered early (not when passing through). */
  private initializeEarly = true;
  /** Whether the first `initialize` was answered early (list requests are answered early only after it). */
  private initialized = false;
  /** Whether list requests may still be answered early: only the first requests, before anything else. */
  private listsOpen = true;
  /** Once the Server is connected: whether a message may wait for an early answer to be written before it. */
  private chained = true;
  /** Set when a list was left to the Server: the lists after it are left to it too. */
  private listsEnded = false;
  /** The early list answers decided so far, one after the other (the Server starts once all are settled). */
  private decided: Promise<void> = Promise.resolve();
  private readonly onData = (chunk: string) => this.read(chunk);
  private readonly onError = (err: Error) => this.onerror?.(err);

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
    /** Answers list requests before the Server connects (from the manifest); none: only `initialize` is answered. */
    private readonly lists?: EarlyLists,
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
        if (this.pending.length === 0 && this.initializeEarly) this.answerEarly(line);
        else this.answerList(line);
        this.pending.push(line);
      } else if (this.chained) {
        // Connected, still loading: answered early if it can be, and handed to the Server after its early answer.
        this.answerList(line);
        this.decided = this.decided.then(() => this.deliver(line));
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
    this.answered.add(msg.id);
    this.initialized = true;
    this.writeEarly(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: initializeResult(p.protocolVersion) }) + '\n');
  }

  /**
   * After an early `initialize`: answers a well-formed `ping`, and a well-formed list request from the manifest when
   * the lists allow it. Notifications leave the way open; any other request (or a malformed one) closes it, so a
   * request the early path answers never overtakes one it does not.
   */
  private answerList(line: string): void {
    if (!this.initialized || !this.listsOpen) return;
    let msg: { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
    try {
      msg = JSON.parse(line);
    } catch {
      this.listsOpen = false;
      return;
    }
    if (msg?.jsonrpc === '2.0' && typeof msg.method === 'string' && msg.id === undefined) return;
    const id = msg?.id;
    if (msg?.jsonrpc !== '2.0' || (typeof id !== 'string' && typeof id !== 'number') || !paramsValid(msg.params)) {
      this.listsOpen = false;
      return;
    }
    if (msg.method === 'ping') {
      // Not admitted nor counted by the Server: answered as it does, in its turn after the lists before it.
      this.decided = this.decided.then(() => {
        if (this.listsEnded) return;
        this.answered.add(id);
        this.writeEarly(resultLine(id, EMPTY_RESULT));
      });
      return;
    }
    const lists = this.lists;
    if (!lists || !isListMethod(msg.method)) {
      this.listsOpen = false;
      return;
    }
    const method: ListMethod = msg.method;
    this.decided = this.decided.then(async () => {
      if (this.listsEnded) return;
      const answer = await lists.answer(method).catch(() => undefined);
      if (!answer) {
        this.listsEnded = true;
        return;
      }
      this.answered.add(id);
      // Key order as the SDK writes its answers.
      this.writeEarly(
        'result' in answer
          ? resultLine(id, answer.result)
          : `${JSON.stringify({ jsonrpc: '2.0', id, error: answer.error })}\n`,
      );
    });
  }

  /**
   * Writes an early answer at once. A pipe takes 64 KiB at a time and Node sends the rest only when the event loop is
   * free, which it is not while the SDK and the tools load: the tool list (some 400 kB) would arrive a second late.
   * So on this process's own stdout, with nothing queued before it, the answer is written synchronously, waiting for
   * the client to read; elsewhere (tests), through the stream.
   */
  private writeEarly(text: string | Buffer): void {
    const fd = this.output === process.stdout ? process.stdout.fd : undefined;
    if (fd === undefined || process.stdout.writableLength > 0) {
      this.output.write(text);
      return;
    }
    const buf = typeof text === 'string' ? Buffer.from(text) : text;
    for (let done = 0; done < buf.length; ) {
      try {
        done += writeSync(fd, buf, done);
      } catch (err) {
        // A full pipe (non-blocking): wait a moment for the client to read. A client gone: nothing to answer.
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
        Atomics.wait(PAUSE, 0, 0, 0.1);
      }
    }
  }

  private deliver(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (err) {
      this.onerror?.(err as Error);
      this.refuse(null, -32700, 'Parse error: the line is not JSON');
      return;
    }
    let msg: JSONRPCMessage;
    try {
      msg = this.validate(parsed);
    } catch (err) {
      this.onerror?.(err as Error);
      if (Array.isArray(parsed)) {
        this.refuse(null, -32600, 'Invalid Request: batches are not accepted over stdio; send one message per line');
        return;
      }
      const obj = (parsed ?? {}) as { id?: unknown; result?: unknown; error?: unknown };
      // A malformed answer of the client's (to a request of the server's) is not answered back.
      if (typeof obj === 'object' && ('result' in obj || 'error' in obj)) return;
      const id = typeof obj.id === 'string' || typeof obj.id === 'number' ? obj.id : null;
      this.refuse(id, -32600, 'Invalid Request: not a JSON-RPC 2.0 request or notification');
      return;
    }
    this.onmessage?.(msg);
  }

  /**
   * Answers a line the Server never sees (not JSON, not a JSON-RPC message) with a JSON-RPC error, as JSON-RPC asks
   * and as POST /mcp does, rather than leaving a client waiting for the answer to a request it thinks it sent.
   */
  private refuse(id: Id | null, code: number, message: string): void {
    this.output.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
  }

  async start(): Promise<void> {
    // The early answers under way are written before the Server sees their requests.
    await this.decided;
    const lines = this.pending ?? [];
    this.pending = undefined;
    for (const line of lines) this.deliver(line);
  }

  /**
   * No early answers at all: every line goes to `onmessage` as it is read, and only lines that are not JSON-RPC
   * messages are answered here (the local side of `svc mcp --url`, whose answers all come from the remote service).
   * What is read before `start()` waits for it, as always.
   */
  passThrough(): this {
    this.initializeEarly = false;
    this.listsOpen = false;
    this.chained = false;
    return this;
  }

  /**
   * The service has loaded (or failed to): the Server answers from now on. Early answers under way are written, and
   * the messages waiting behind them handed over, before anything read later.
   */
  loaded(): void {
    this.listsOpen = false;
    void this.decided.then(() => {
      this.chained = false;
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    if ('id' in message && !('method' in message) && this.answered.delete(message.id as Id)) return Promise.resolve();
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

/** Params the SDK accepts for a list request or a ping: none, or an object with an optional string cursor and `_meta`. */
function paramsValid(params: unknown): boolean {
  if (params === undefined) return true;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return false;
  const { cursor, _meta } = params as { cursor?: unknown; _meta?: unknown };
  if (cursor !== undefined && typeof cursor !== 'string') return false;
  if (_meta === undefined) return true;
  if (typeof _meta !== 'object' || _meta === null || Array.isArray(_meta)) return false;
  const token = (_meta as { progressToken?: unknown }).progressToken;
  return token === undefined || typeof token === 'string' || typeof token === 'number';
}
