/** Types of ./compile.mjs for the TypeScript that imports it (the suite's global build). */
export function compileTree(out: string): Promise<{ modules: number; assets: number }>;
