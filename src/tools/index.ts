import type { AnyTool } from './define.js';
import { listTemplates } from './contracts/list-templates.js';

/** Every tool the service offers, in the order they are listed. */
export const TOOLS: readonly AnyTool[] = [listTemplates];

export function findTool(name: string): AnyTool | undefined {
  return TOOLS.find((t) => t.name === name);
}
