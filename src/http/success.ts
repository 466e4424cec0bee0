/**
 * A tool's success answer in the API's envelope, `{success, ...output | data, meta: {requestId, timestamp, ...}}`, as
 * the tool's REST shape says. The answer of a constant output (src/tools/constant.ts: a catalogue page) is serialised
 * once, around its request id and timestamp, and sent as that text: the same bytes as serialising the whole envelope
 * on each request.
 */
import type { EnvelopeMeta } from '../core/envelope.js';
import type { AnyTool } from '../tools/define.js';
import { isConstantOutput } from '../tools/constant.js';

/** The Content-Type of the envelope (the one Fastify gives a serialised object). */
export const JSON_TYPE = 'application/json; charset=utf-8';

// Many answers share a millisecond: the last timestamp's text is kept.
let lastTimestamp = { at: Number.NaN, text: '' };
function timestampText(now: Date): string {
  const at = now.getTime();
  if (at !== lastTimestamp.at) lastTimestamp = { at, text: now.toISOString() };
  return lastTimestamp.text;
}

/** The success answer in the envelope, as the tool's REST shape says. */
export function envelope(tool: AnyTool, output: Record<string, unknown>, meta: EnvelopeMeta) {
  switch (tool.rest.shape) {
    case 'top-level': {
      // metaFields (a catalogue's pagination) go to meta rather than beside `success`. Built by copying, not by
      // deleting from a copy: a deleted property turns the object into a slow dictionary for the serializer.
      const { metaFields = [] } = tool.rest;
      if (metaFields.length === 0) return { success: true, ...output, meta };
      const answer: Record<string, unknown> = { success: true };
      const fullMeta: Record<string, unknown> = { ...meta };
      for (const f in output) {
        if (!metaFields.includes(f)) answer[f] = output[f];
        else if (output[f] !== undefined) fullMeta[f] = output[f];
      }
      answer.meta = fullMeta;
      return answer;
    }
    case 'list': {
      const { items, pagination } = output as { items: unknown[]; pagination: Record<string, unknown> };
      const extra = Object.fromEntries(
        (tool.rest.metaFields ?? []).filter((f) => output[f] !== undefined).map((f) => [f, output[f]]),
      );
      return { success: true, data: items, meta: { ...meta, pagination, ...extra } };
    }
    case 'data': {
      const { dataField, metaFields = [] } = tool.rest;
      const extra = Object.fromEntries(metaFields.filter((f) => output[f] !== undefined).map((f) => [f, output[f]]));
      let data: unknown = dataField ? output[dataField] : output;
      if (!dataField && metaFields.length) {
        // The whole output is the data, less what goes to meta.
        const rest = { ...output };
        for (const f of metaFields) delete rest[f];
        data = rest;
      }
      return { success: true, data, meta: { ...meta, ...extra } };
    }
  }
}

/** Stand-ins for the request id and the timestamp: control characters, which no constant output holds. */
const ID_MARK = '\u0001requestId\u0001';
const TIME_MARK = '\u0001timestamp\u0001';

/** A constant answer's text, cut where the request id and the timestamp go (their quotes included). */
interface Serialised {
  tool: AnyTool;
  beforeId: string;
  beforeTime: string;
  afterTime: string;
}

/** By constant output; null when its text could not be cut (the output holds a stand-in): serialised each time then. */
const serialised = new WeakMap<object, Serialised | null>();

function serialise(tool: AnyTool, output: Record<string, unknown>): Serialised | null {
  const text = JSON.stringify(envelope(tool, output, { requestId: ID_MARK, timestamp: TIME_MARK }));
  const id = JSON.stringify(ID_MARK);
  const time = JSON.stringify(TIME_MARK);
  const i = text.indexOf(id);
  const t = text.indexOf(time);
  if (i < 0 || t < i || text.indexOf(id, i + 1) >= 0 || text.indexOf(time, t + 1) >= 0) return null;
  return {
    tool,
    beforeId: text.slice(0, i),
    beforeTime: text.slice(i + id.length, t),
    afterTime: text.slice(t + time.length),
  };
}

/**
 * The success answer: the envelope as an object for Fastify to serialise, or, for a constant output, its JSON text
 * (to be sent with JSON_TYPE).
 */
export function successBody(
  tool: AnyTool,
  output: Record<string, unknown>,
  requestId: string,
  now: Date,
): Record<string, unknown> | string {
  const timestamp = timestampText(now);
  if (isConstantOutput(output)) {
    let known = serialised.get(output);
    if (known === undefined || (known !== null && known.tool !== tool)) {
      known = serialise(tool, output);
      serialised.set(output, known);
    }
    if (known !== null)
      return `${known.beforeId}${JSON.stringify(requestId)}${known.beforeTime}"${timestamp}"${known.afterTime}`;
  }
  return envelope(tool, output, { requestId, timestamp });
}
