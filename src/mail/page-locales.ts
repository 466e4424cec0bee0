/** The languages of the pages mail links open (./pages.ts). */
export const PAGE_LOCALES = ['en', 'ar', 'es', 'fr'] as const;
export type PageLocale = (typeof PAGE_LOCALES)[number];
