export declare const SDK_BUDGET_GZIP_BYTES: number;
export declare const APP_BUDGET_GZIP_BYTES: number;
export declare function appDocument(js: Uint8Array, css: Uint8Array): Buffer;
export declare const ENTRIES: Record<string, string>;
export declare const ROOT: string;
export declare const OUT_DIR: string;
export declare function bundleWizard(root?: string): Promise<Record<string, { contents: Uint8Array; gzipBytes: number }>>;
