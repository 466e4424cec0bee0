/** Output file → entry point, relative to the repository root. */
export declare const ENTRIES: Record<string, string>;
/** The MCP App document: the app bundle and the CSS in one self-contained HTML file. */
export declare function appDocument(js: Uint8Array, css: Uint8Array): Buffer;
/** Builds every file in memory: `{ name: { contents, gzipBytes } }` (sdk.js, wizard.js, wizard.css, app.js, app.html). */
export declare function bundleWizard(
  root?: string,
): Promise<Record<string, { contents: Uint8Array; gzipBytes: number }>>;
