/**
 * A local OpenAI-compatible server for tests (loopback only):
 * POST /v1/chat/completions, plain JSON or streamed as server-sent events
 * (`stream: true`), each completion with its own id. Answers come from a
 * queue the test fills, or from a function of the request; every request is
 * recorded so tests can check what the client sent.
 * POST /v1/embeddings answers deterministically: by default a hashed bag of
 * the text's lower-case words (same words, same vector), or a function the
 * test sets; as floats, or as base64 little-endian float32 when asked.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandinRequest {
  model: string;
  stream: boolean;
  messages: Array<{ role: string; content: string }>;
  authorization: string | undefined;
}

export interface OpenAiStandin {
  /** Base URL for SVC_LLM_BASE_URL, e.g. http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  requests: StandinRequest[];
  /** Completion ids handed out, in order. */
  ids: string[];
  /** Queues answers (used first-in, first-out). */
  reply(...answers: string[]): void;
  /** Computes answers from the request when the queue is empty. */
  answerWith(fn: (req: StandinRequest) => string): void;
  /** The inputs of each /embeddings request, in order. */
  embeddingRequests: Array<{ model: string; input: string[]; authorization: string | undefined }>;
  /** Computes the vector of a text (default: hashedWords). */
  embedWith(fn: (text: string) => number[]): void;
  /** Makes the next `times` requests fail with this HTTP status. */
  failNext(status: number, times?: number): void;
  close(): Promise<void>;
}

/** Dimensions of the default embedding. */
export const STANDIN_DIMENSIONS = 64;

/** The default embedding: each lower-case word adds 1 to a dimension chosen by its hash; unit length. */
export function hashedWords(text: string): number[] {
  const v = new Array<number>(STANDIN_DIMENSIONS).fill(0);
  for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619) >>> 0;
    v[h % STANDIN_DIMENSIONS]! += 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export async function startOpenAiStandin(): Promise<OpenAiStandin> {
  const queue: string[] = [];
  const requests: StandinRequest[] = [];
  const ids: string[] = [];
  let fallback: (req: StandinRequest) => string = () => 'I do not know.';
  const failures: number[] = [];
  let n = 0;
  const embeddingRequests: OpenAiStandin['embeddingRequests'] = [];
  let embed: (text: string) => number[] = hashedWords;
  const server: Server = createServer(async (req, res) => {
    if (req.method === 'POST' && req.url?.endsWith('/embeddings')) {
      const body = (await readJson(req)) as { model: string; input: string | string[]; encoding_format?: string };
      const input = Array.isArray(body.input) ? body.input : [body.input];
      embeddingRequests.push({ model: body.model, input, authorization: req.headers.authorization });
      const status = failures.shift();
      if (status !== undefined) {
        res
          .writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'stand-in failure', type: 'server_error' } }));
        return;
      }
      const vector = (t: string) => {
        const v = embed(t);
        return body.encoding_format === 'base64' ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v;
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          object: 'list',
          model: body.model,
          data: input.map((t, index) => ({ object: 'embedding', index, embedding: vector(t) })),
          usage: { prompt_tokens: input.length, total_tokens: input.length },
        }),
      );
      return;
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
      return;
    }
    const body = (await readJson(req)) as {
      model: string;
      stream?: boolean;
      messages: Array<{ role: string; content: unknown }>;
    };
    const r: StandinRequest = {
      model: body.model,
      stream: body.stream === true,
      messages: body.messages.map((m) => ({
        role: m.role,
        content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content),
      })),
      authorization: req.headers.authorization,
    };
    requests.push(r);
    const status = failures.shift();
    if (status !== undefined) {
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'stand-in failure', type: 'server_error' } }));
      return;
    }
    const text = queue.shift() ?? fallback(r);
    const id = `chatcmpl-standin-${++n}-${Date.now().toString(36)}`;
    ids.push(id);
    const created = Math.floor(Date.now() / 1000);
    if (!r.stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model: r.model,
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage: {
            prompt_tokens: 10,
            completion_tokens: text.split(/\s+/).length,
            total_tokens: 10 + text.split(/\s+/).length,
          },
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (delta: Record<string, unknown>, finish: string | null) =>
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: r.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
    send({ role: 'assistant', content: '' }, null);
    // Word by word, as a real server streams tokens.
    for (const piece of text.match(/\S+\s*/g) ?? []) send({ content: piece }, null);
    send({}, 'stop');
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    ids,
    reply: (...answers) => queue.push(...answers),
    answerWith: (fn) => (fallback = fn),
    embeddingRequests,
    embedWith: (fn) => (embed = fn),
    failNext: (status, times = 1) => failures.push(...Array.from({ length: times }, () => status)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
