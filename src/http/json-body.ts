/**
 * The JSON body parser: Fastify's own, which refuses a body whose JSON has a `__proto__` key, or a `constructor` key
 * holding an object with a `prototype` key (either could reach an object's prototype once the body is copied or
 * merged), and tells such a body apart from malformed JSON. Fastify's parser answers both the same way; a client whose
 * valid JSON was refused as "not valid JSON" could not tell what to change.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../core/errors.js';

/** A body parser of the callback kind, as Fastify's JSON parser is. */
export type StringBodyParser = (
  req: FastifyRequest,
  body: string,
  done: (err: Error | null, body?: unknown) => void,
) => void;

/** The reason a body with a key that could reach a prototype is refused for, in its error's detail. */
export const PROTOTYPE_KEY_REASON = 'forbidden key (__proto__ or constructor.prototype)';

const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

/**
 * Where the first key that could reach a prototype is in `value` (`__proto__`, `items.0.__proto__`,
 * `constructor.prototype`), breadth first as Fastify's parser looks; undefined when there is none. Walks without
 * recursion, so no nesting depth can overflow the stack.
 */
export function prototypeKeyPath(value: unknown): string | undefined {
  const queue: Array<{ node: unknown; path: string }> = [{ node: value, path: '' }];
  for (let i = 0; i < queue.length; i++) {
    const { node, path } = queue[i]!;
    if (node === null || typeof node !== 'object') continue;
    if (Object.hasOwn(node, '__proto__')) return join(path, '__proto__');
    if (Object.hasOwn(node, 'constructor')) {
      const ctor = (node as { constructor: unknown }).constructor;
      if (ctor !== null && typeof ctor === 'object' && Object.hasOwn(ctor, 'prototype'))
        return join(path, 'constructor.prototype');
    }
    for (const key of Object.keys(node))
      queue.push({ node: (node as Record<string, unknown>)[key], path: join(path, key) });
  }
  return undefined;
}

/** What `body` parses to with JSON.parse (a leading byte order mark skipped, as Fastify's parser skips it), if it does. */
function plainParse(body: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(body.charCodeAt(0) === 0xfeff ? body.slice(1) : body) };
  } catch {
    return undefined;
  }
}

/**
 * Fastify's JSON parser (`app.getDefaultJsonParser('error', 'error')`, registered with `parseAs: 'string'`), whose
 * refusal of a body that is valid JSON becomes a VALIDATION_ERROR naming the key. Only a refused body is parsed a
 * second time: an accepted one costs nothing more.
 */
export function jsonBodyParser(parse: StringBodyParser): StringBodyParser {
  return (req, body, done) => {
    parse(req, body, (err, value) => {
      const code = (err as { code?: unknown } | null)?.code;
      if (err && code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
        const parsed = plainParse(body);
        const path = parsed && prototypeKeyPath(parsed.value);
        if (path !== undefined) {
          done(
            ApiError.validation(
              `The body's JSON has a __proto__ (or constructor.prototype) key, at ${path}, which is refused: such a key could change what every object inherits. Rename or remove it.`,
              [{ field: path, reason: PROTOTYPE_KEY_REASON }],
            ),
            undefined,
          );
          return;
        }
      }
      done(err, value);
    });
  };
}
