/**
 * A photo described by the configured vision model: what it shows, and who, when the owner's caption or the people
 * the memoir names say so. The request is an OpenAI chat completion with an image part (langchain's ChatOpenAI, the
 * same server as the memoir's chat), the photo sent as a data URL.
 *
 * What is sent is a re-encoded copy, at most DESCRIBE_MAX_PX on its longest side: the original's metadata (the EXIF
 * block with its GPS position, camera serial and dates) never leaves the service, and the request stays small.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { Config } from '../core/config.js';
import { ApiError } from '../core/errors.js';
import { modelCalls } from './model-calls.js';
import type { Store } from '../store/port.js';
import { uprightJpeg } from './media.js';
import { readProfile } from './memoir.js';
import type { MediaRecord } from './records.js';

type LlmConfig = NonNullable<Config['llm']>;

/** Longest side of the copy sent to the model, pixels: enough to see who and what, small enough to send fast. */
export const DESCRIBE_MAX_PX = 1024;
/** Longest description kept, characters (a model that rambles is cut at a sentence end). */
export const MAX_DESCRIPTION = 1000;
/** Most people named to the model as hints. */
const MAX_HINT_PEOPLE = 20;

/** What the owner has said that may name who is in a photo. */
export interface DescribeHints {
  /** The person whose memoir it is. */
  personName?: string | null | undefined;
  /** The caption the owner wrote for this photo. */
  caption?: string | null | undefined;
  /** People the memoir mentions, with how the writer is related to them when known. */
  people?: ReadonlyArray<{ name: string; relation?: string | undefined }>;
}

const models = new WeakMap<LlmConfig, BaseChatModel>();

/** The vision client of a configuration: not streamed (one short answer), low temperature (a description, not a story). */
async function visionModel(llm: LlmConfig): Promise<BaseChatModel> {
  let model = models.get(llm);
  if (!model) {
    const { ChatOpenAI } = await import('@langchain/openai');
    model = models.get(llm);
    if (model) return model;
    model = new ChatOpenAI({
      model: llm.model,
      apiKey: llm.apiKey,
      configuration: { baseURL: llm.baseUrl },
      temperature: 0.2,
      maxRetries: 1,
      timeout: 120_000,
    });
    models.set(llm, model);
  }
  return model;
}

/** The photo as the model receives it: upright, at most DESCRIBE_MAX_PX, JPEG without any of the original's metadata. */
export function photoForModel(file: string): Promise<Buffer> {
  return uprightJpeg(file, DESCRIBE_MAX_PX, 85);
}

/** The instruction and hints: names are offered, never to be guessed from a face. */
export function describePrompt(hints: DescribeHints): { system: string; user: string } {
  const system =
    'You describe photographs for a family memoir that the person’s children and grandchildren will read. ' +
    'In two or three plain sentences say what the photo shows: the people (how many, roughly their age, what they are doing), ' +
    'the place, the season or time of day, and anything that tells when it was taken. ' +
    'Name a person only when the caption or the names given below make clear who they are; never guess a name from a face. ' +
    'Do not invent details you cannot see. Answer with the description alone.';
  const lines: string[] = [];
  if (hints.personName?.trim()) lines.push(`The memoir is ${hints.personName.trim()}'s.`);
  if (hints.caption?.trim()) lines.push(`The owner's caption for this photo: "${hints.caption.trim()}".`);
  const people = (hints.people ?? []).slice(0, MAX_HINT_PEOPLE);
  if (people.length)
    lines.push(
      `People the memoir mentions: ${people.map((p) => (p.relation ? `${p.name} (${p.relation})` : p.name)).join(', ')}.`,
    );
  lines.push('Describe this photo.');
  return { system, user: lines.join('\n') };
}

/** Text of a model answer, whichever shape its content has. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((p) => (typeof p === 'string' ? p : (p as { text?: unknown }).text))
      .filter((t): t is string => typeof t === 'string')
      .join('');
  return '';
}

/** A description as kept: one paragraph, at most MAX_DESCRIPTION characters, ended at a sentence when it is cut. */
export function cleanDescription(raw: string): string {
  const text = raw.replace(/\s+/g, ' ').trim();
  if (text.length <= MAX_DESCRIPTION) return text;
  const cut = text.slice(0, MAX_DESCRIPTION);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '), cut.lastIndexOf('? '));
  return end > MAX_DESCRIPTION / 2 ? cut.slice(0, end + 1) : `${cut.slice(0, MAX_DESCRIPTION - 1).trimEnd()}…`;
}

/**
 * Asks the configured vision model what a photo shows. A provider that fails or answers nothing is a 503 with a plain
 * message (its own may carry its address); the caller's paid action is then refunded.
 */
export async function describePhoto(
  llm: LlmConfig,
  file: string,
  hints: DescribeHints,
  signal?: AbortSignal,
): Promise<string> {
  const jpeg = await photoForModel(file);
  const prompt = describePrompt(hints);
  const [{ HumanMessage, SystemMessage }, model] = await Promise.all([
    import('@langchain/core/messages'),
    visionModel(llm),
  ]);
  // A place first, outside the try: a refusal for a full queue is SERVICE_BUSY, not a provider failure.
  const release = await modelCalls.acquire(signal);
  let answer: string;
  try {
    const reply = await model.invoke(
      [
        new SystemMessage(prompt.system),
        new HumanMessage({
          content: [
            { type: 'text', text: prompt.user },
            {
              type: 'image_url',
              image_url: { url: `data:image/jpeg;base64,${jpeg.toString('base64')}`, detail: 'auto' },
            },
          ],
        }),
      ],
      signal ? { signal } : {},
    );
    answer = cleanDescription(textOf(reply.content));
  } catch (err) {
    if (signal?.aborted) throw err;
    throw Object.assign(
      new ApiError(
        'SERVICE_UNAVAILABLE',
        'The vision model did not describe the photo; nothing was kept. Try again shortly.',
      ),
      { cause: err },
    );
  } finally {
    release();
  }
  if (!answer)
    throw new ApiError(
      'SERVICE_UNAVAILABLE',
      'The vision model gave no description; nothing was kept. Try again shortly.',
    );
  return answer;
}

/** What the owner's memoir says that may name who is in a photo: the person's name, the photo's caption, the people the memoir mentions. */
export async function describeHints(store: Store, m: MediaRecord): Promise<DescribeHints> {
  const profile = await readProfile(store, m.ownerId);
  return {
    personName: profile?.personName ?? null,
    caption: typeof m.caption === 'string' ? m.caption : null,
    people: (profile?.character?.people ?? []).map((p) => ({ name: p.name, relation: p.relation })),
  };
}
