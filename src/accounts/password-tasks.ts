/**
 * The password strength estimator, run in a worker thread (see ./password-strength.ts and src/core/worker-pool.ts):
 * zxcvbn-ts with its common-password, name and English word lists and keyboard layouts. Loading the lists and judging
 * a long password are CPU work of tens to hundreds of milliseconds, which would otherwise hold every other request.
 */
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

/** Characters of a password the estimator looks at. */
export const CHECKED_LENGTH = 64;
/** How many l33t substitutions the estimator tries per word (its default, 100, costs seconds on long inputs). */
const L33T_MAX_SUBSTITUTIONS = 4;

let estimator: Promise<ZxcvbnFactory> | undefined;

/** The estimator, built on the first check (the dictionaries are large). */
function loadEstimator(): Promise<ZxcvbnFactory> {
  if (!estimator) {
    const loading = (async () => {
      const [core, common, en] = await Promise.all([
        import('@zxcvbn-ts/core'),
        import('@zxcvbn-ts/language-common'),
        import('@zxcvbn-ts/language-en'),
      ]);
      return new core.ZxcvbnFactory({
        dictionary: { ...common.dictionary, ...en.dictionary },
        graphs: common.adjacencyGraphs,
        translations: en.translations,
        maxLength: CHECKED_LENGTH,
        l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
      });
    })();
    estimator = loading;
    loading.catch(() => {
      if (estimator === loading) estimator = undefined; // try again on the next check
    });
  }
  return estimator;
}

/** The estimator's judgement: its score (0 to 4) and its explanation, in English. */
export interface Judgement {
  score: number;
  warning: string | null;
  suggestions: string[];
}

export const tasks = {
  /** Judges `password`, with `words` (the user's own details) as words it must not lean on. */
  judge: async ({ password, words }: { password: string; words: string[] }): Promise<Judgement> => {
    const result = (await loadEstimator()).check(password, words);
    return {
      score: result.score,
      warning: result.feedback.warning ?? null,
      suggestions: [...result.feedback.suggestions],
    };
  },
};
