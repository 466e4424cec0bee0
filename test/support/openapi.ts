/** Reading the served OpenAPI document in tests. */
// biome-ignore lint/suspicious/noExplicitAny: a node of the document; the memoir tests walk its paths and schemas freely
export type Json = Record<string, any>;

/** What a local `$ref` in `doc` names (one level); any other node as it is. */
export function resolveRef(doc: Json, node: Json): Json {
  if (typeof node?.$ref !== 'string') return node;
  return node.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((at: Json, key: string) => at[key], doc);
}
