// Loader hooks of load-probe.mjs: appends the URL of every ES module loaded to the probe's file.
import { appendFileSync } from 'node:fs';

let out;

export function initialize(data) {
  out = data.out;
}

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  appendFileSync(out, `${url}\n`);
  return result;
}
