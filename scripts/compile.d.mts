/** Types of ./compile.mjs for the TypeScript that imports it (the suite's global build). */
export function compileTree(out: string, options?: { quiet?: boolean }): Promise<{ modules: number; assets: number }>;
