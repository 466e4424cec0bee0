/**
 * A local OpenAI-compatible server for tests (loopback only):
 * POST /v1/chat/completions, plain JSON or streamed as server-sent events
 * (`stream: true`), each completion with its own id. Answers come from a
 * queue the test fills, or from a function of the request; every request is
 * recorded so tests can check what the client sent.
 * POST /v1/embeddings answers deterministically: by default a hashed bag of
 * the text's lower-case words (same words, same vector), or a function the
 * test sets; as floats, or as base64 little-endian float32 when asked.
 * A message's content may be an array of parts, as the vision API takes it:
 * `text` parts are joined into the recorded content, and `image_url` parts are
 * recorded as images (a data URL decoded to its bytes). An image part that is
 * not a URL, or a data URL that is not a base64 JPEG, PNG, GIF or WebP, is
 * answered 400 invalid_image_format, as the real API does.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandinImage {
  /** The role of the message that carried it. */
  role: string;
  /** The media type of a data URL, or null for an http(s) URL. */
  mime: string | null;
  /** The decoded bytes of a data URL, or null for an http(s) URL. */
  bytes: Buffer | null;
  /** The URL as sent, when it is not a data URL. */
  url: string | null;
  detail: string | null;
}

export interface StandinRequest {
  model: string;
  stream: boolean;
  messages: Array<{ role: string; content: string }>;
  /** The image parts of the messages, in order. */
  images: StandinImage[];
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
  /**
   * Refuses an embeddings request any of whose inputs is longer than `chars` (400, as a provider refuses an input past
   * its model's limit). Infinity (the default): none.
   */
  refuseInputsOver(chars: number): void;
  /**
   * Holds the embeddings requests from now on, unanswered, until `release` is called (then those held are answered and
   * the next ones at once). `inFlight`: how many are under way now; `peak`: the most at once since the hold began.
   */
  holdEmbeddings(): { inFlight(): number; peak(): number; release(): void };
  /** Answers chat completions only after this many ms (0: at once, the default). */
  slowDown(ms: number): void;
  /**
   * Holds the next chat completion: `arrived` resolves once it is in; it is answered when `release` is called, as a
   * failure with `status` when one is given. For tests of what happens while a model call is under way.
   */
  holdNext(): { arrived: Promise<void>; release(status?: number): void };
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

const DATA_URL = /^data:(image\/(?:jpeg|png|gif|webp));base64,([A-Za-z0-9+/]+={0,2})$/;

/** An image_url part as the API takes it ({ url, detail? }), or why it is refused. */
function readImagePart(role: string, part: unknown): StandinImage | string {
  const { url, detail } = (part ?? {}) as { url?: unknown; detail?: unknown };
  if (typeof url !== 'string') return 'image_url.url must be a string';
  if (detail !== undefined && !['auto', 'low', 'high'].includes(String(detail)))
    return 'detail must be auto, low or high';
  const d = typeof detail === 'string' ? detail : null;
  if (/^https?:\/\//.test(url)) return { role, mime: null, bytes: null, url, detail: d };
  const m = DATA_URL.exec(url);
  if (!m) return 'not a URL nor a base64 data URL of a JPEG, PNG, GIF or WebP image';
  const bytes = Buffer.from(m[2]!, 'base64');
  const magic: Record<string, (b: Buffer) => boolean> = {
    'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8,
    'image/png': (b) => b.subarray(1, 4).toString('latin1') === 'PNG',
    'image/gif': (b) => b.subarray(0, 3).toString('latin1') === 'GIF',
    'image/webp': (b) => b.subarray(8, 12).toString('latin1') === 'WEBP',
  };
  if (!magic[m[1]!]!(bytes)) return `the data is not ${m[1]}`;
  return { role, mime: m[1]!, bytes, url: null, detail: d };
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
  let delayMs = 0;
  let inputLimit = Number.POSITIVE_INFINITY;
  let embedGate: Promise<void> | undefined;
  let embedsInFlight = 0;
  let embedsPeak = 0;
  const holds: Array<{ arrive: () => void; released: Promise<number | undefined> }> = [];
  const server: Server = createServer(async (req, res) => {
    if (req.method === 'POST' && req.url?.endsWith('/embeddings')) {
      const body = (await readJson(req)) as { model: string; input: string | string[]; encoding_format?: string };
      const input = Array.isArray(body.input) ? body.input : [body.input];
      embeddingRequests.push({ model: body.model, input, authorization: req.headers.authorization });
      embedsPeak = Math.max(embedsPeak, ++embedsInFlight);
      res.once('close', () => embedsInFlight--);
      if (embedGate) await embedGate;
      const status = failures.shift();
      if (status !== undefined) {
        res
          .writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'stand-in failure', type: 'server_error' } }));
        return;
      }
      if (input.some((t) => t.length > inputLimit)) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            error: { message: 'an input is past the model’s limit', type: 'invalid_request_error' },
          }),
        );
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
    const images: StandinImage[] = [];
    let badImage: string | null = null;
    const contentOf = (role: string, content: unknown): string => {
      if (typeof content === 'string') return content;
      if (!Array.isArray(content)) return JSON.stringify(content);
      const texts: string[] = [];
      for (const part of content as Array<Record<string, unknown>>) {
        if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
        else if (part.type === 'image_url') {
          const image = readImagePart(role, part.image_url);
          if (typeof image === 'string') badImage = image;
          else images.push(image);
        } else badImage = `unknown content part type ${String(part.type)}`;
      }
      return texts.join('\n');
    };
    const r: StandinRequest = {
      model: body.model,
      stream: body.stream === true,
      messages: body.messages.map((m) => ({ role: m.role, content: contentOf(m.role, m.content) })),
      images,
      authorization: req.headers.authorization,
    };
    requests.push(r);
    if (badImage !== null) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: {
            message: `Invalid image: ${badImage}.`,
            type: 'invalid_request_error',
            code: 'invalid_image_format',
          },
        }),
      );
      return;
    }
    const hold = holds.shift();
    let heldStatus: number | undefined;
    if (hold) {
      hold.arrive();
      heldStatus = await hold.released;
    }
    const status = heldStatus ?? failures.shift();
    if (status !== undefined) {
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'stand-in failure', type: 'server_error' } }));
      return;
    }
    const text = queue.shift() ?? fallback(r);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
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
    slowDown: (ms) => void (delayMs = ms),
    refuseInputsOver: (chars) => void (inputLimit = chars),
    holdEmbeddings: () => {
      let release = () => {};
      embedGate = new Promise<void>((resolve) => (release = resolve));
      embedsPeak = embedsInFlight;
      return {
        inFlight: () => embedsInFlight,
        peak: () => embedsPeak,
        release: () => {
          embedGate = undefined;
          release();
        },
      };
    },
    holdNext: () => {
      let arrive = () => {};
      let release: (status?: number) => void = () => {};
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      const released = new Promise<number | undefined>((resolve) => (release = resolve));
      holds.push({ arrive, released });
      return { arrived, release };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
