// The stopword package ships no types; this is the part svc uses.
declare module 'stopword' {
  /** English stop words. */
  export const eng: string[];
}
