/**
 * Password strength, checked wherever a password is set (registration, password change).
 *
 * The estimator is zxcvbn-ts with its common-password, name and English word lists and keyboard layouts: it
 * estimates how many guesses a cracker needs and explains why a password is weak ("This is a commonly used
 * password", "Repeated characters like "aaa" are easy to guess", ...). A password needs a score of at least
 * MIN_SCORE (3 of 4: roughly 10^8 guesses or more). The user's own email address and name are given to the
 * estimator as words it must not lean on, and a password that is the email address is refused outright.
 *
 * Costs, measured on a loaded 2-core machine: loading the word lists takes about half a second, so it happens
 * on the first check, never at import (service start stays fast); a check of a typical password takes a few
 * tens of milliseconds. The estimator's work grows quickly with length and with characters that read as l33t
 * substitutions, so only the first CHECKED_LENGTH characters are judged and l33t variants are capped: a
 * 256-character input then costs about 0.1 s instead of several seconds. A long password is judged by its
 * beginning (a weak beginning is refused however it continues).
 */
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

/** The lowest acceptable zxcvbn score (0 to 4). */
export const MIN_SCORE = 3;
/** Characters of a password the estimator looks at. */
export const CHECKED_LENGTH = 64;
/** How many l33t substitutions the estimator tries per word (its default, 100, costs seconds on long inputs). */
const L33T_MAX_SUBSTITUTIONS = 4;

let estimator: Promise<ZxcvbnFactory> | undefined;

/** The estimator, built on first use (the dictionaries are large). */
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

/** What the user's own details give away: the email, its parts, and the words of the name. */
function personalWords(email: string, name: string | null | undefined): string[] {
  const lower = email.toLowerCase();
  const [local = '', domain = ''] = lower.split('@');
  const words = [lower, local, ...local.split(/[^a-z0-9]+/), domain.split('.')[0] ?? ''];
  if (name) words.push(name.toLowerCase(), ...name.toLowerCase().split(/\s+/));
  return [...new Set(words.filter((w) => w.length >= 3))];
}

/**
 * Why a password is too weak to set, in words for the user, or undefined when it is strong enough.
 * `email` is the user's email address (normalised), `name` their display name if any.
 */
export async function passwordWeakness(
  password: string,
  user: { email: string; name?: string | null | undefined },
): Promise<string | undefined> {
  const lower = password.trim().toLowerCase();
  const email = user.email.toLowerCase();
  const local = email.split('@')[0] ?? '';
  if (lower === email || lower === local || lower.includes(email)) {
    return 'it is your email address; choose something that has nothing to do with it';
  }
  const zxcvbn = await loadEstimator();
  const result = zxcvbn.check(password, personalWords(user.email, user.name));
  if (result.score >= MIN_SCORE) return undefined;
  const warning = result.feedback.warning ?? 'It follows a pattern that is quick to guess.';
  const hints =
    result.feedback.suggestions.length > 0
      ? ` ${result.feedback.suggestions.join(' ')}`
      : ' Use a longer passphrase of several uncommon words.';
  return `too easy to guess. ${warning}${hints}`;
}
