/**
 * Password strength, checked wherever a password is set (registration, password change).
 *
 * The estimator is zxcvbn-ts with its common-password, name and English word lists and keyboard layouts
 * (./password-tasks.ts): it estimates how many guesses a cracker needs and explains why a password is weak ("This is
 * a commonly used password", "Repeated characters like "aaa" are easy to guess", ...). A password needs a score of at
 * least MIN_SCORE (3 of 4: roughly 10^8 guesses or more). The user's own email address and name are given to the
 * estimator as words it must not lean on, and a password that is the email address is refused outright.
 *
 * The estimator runs in a worker thread of its own: loading its word lists takes a quarter to half a second, and a
 * check 5 to 15 ms (measured on a 2-core machine), which in the main thread would hold every other request meanwhile,
 * so that anyone could stall the service by registering. The thread starts with the first check, is unref'd while
 * idle, and ends after two idle minutes (the word lists hold some 80 MB there; the next check loads them again). Its
 * work grows quickly with length and with characters that read as l33t substitutions, so only the first
 * CHECKED_LENGTH characters are judged and l33t variants are capped (a 256-character input costs about as much as a
 * 64-character one). A long password is judged by its beginning (a weak beginning is refused however it continues).
 */
import { ApiError } from '../core/errors.js';
import { singleWorkerPool } from '../core/task-module.js';
import type { Judgement } from './password-tasks.js';

/** The lowest acceptable zxcvbn score (0 to 4). */
export const MIN_SCORE = 3;

/** The estimator's thread, made with the first check. */
const estimatorPool = singleWorkerPool('./password-tasks.ts', import.meta.url, {
  name: 'The password strength check',
  timeoutMs: 10_000,
  maxQueue: 200,
  maxWaitMs: 10_000,
  typicalMs: 20,
  resourceLimits: { maxOldGenerationSizeMb: 256 },
  noun: ['password check', 'password checks'],
  // The word lists take some 80 MB in the worker: given back when no password has been set for a while.
  idleMs: 120_000,
});

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
  const result = await estimatorPool().run<Judgement>(
    'judge',
    { password, words: personalWords(user.email, user.name) },
    {
      onLimit: () =>
        ApiError.validation('The password could not be judged', [
          { field: 'password', reason: 'too slow to judge; choose a passphrase of several plain words' },
        ]),
    },
  );
  if (result.score >= MIN_SCORE) return undefined;
  const warning = result.warning ?? 'It follows a pattern that is quick to guess.';
  const hints =
    result.suggestions.length > 0
      ? ` ${result.suggestions.join(' ')}`
      : ' Use a longer passphrase of several uncommon words.';
  return `too easy to guess. ${warning}${hints}`;
}
