export { appDocument, bundleWizard, ENTRIES } from '../src/embed/bundle.mjs';
export declare const SDK_BUDGET_GZIP_BYTES: number;
export declare const APP_BUDGET_GZIP_BYTES: number;
export declare const ROOT: string;
export declare const OUT_DIR: string;
