/** Types of ./bundle-light.mjs for the TypeScript that imports it (test/cli/lazy-load.test.ts). */
export const MCP_ENTRIES: readonly string[];
export function bundleLight(out: string): Promise<void>;
