/**
 * The memoir's stop words: the English list (../core/stopwords.ts) and the words a life story writes without telling
 * anything, read by the memoir's reading of a text (./text.ts) and its retrieval (./retrieval.ts, ./agent.ts).
 */
import { englishStopWords } from '../core/stopwords.js';

/** Contractions people write without their apostrophe, and words too common in a life story to tell anything. */
const MORE_STOP_WORDS = [
  'im',
  'ive',
  'id',
  'dont',
  'didnt',
  'cant',
  'wont',
  'isnt',
  'wasnt',
  'arent',
  'werent',
  'doesnt',
  'hasnt',
  'havent',
  'hadnt',
  'couldnt',
  'wouldnt',
  'shouldnt',
  'mustnt',
  'neednt',
  'youre',
  'youve',
  'hes',
  'shes',
  'theyre',
  'theyve',
  'weve',
  'its',
  'thats',
  // A question's "What's", "How's", "Where's" without their apostrophe: words() joins them ("hows").
  'whats',
  'hows',
  'wheres',
  'whos',
  'whens',
  'whys',
  'theres',
  'heres',
  'also',
  'really',
  'just',
  'would',
  'could',
  'one',
  'get',
  'got',
];

let stop: Set<string> | undefined;
/** The stop words, made on first use (../core/stopwords.ts). */
export function stopWords(): ReadonlySet<string> {
  stop ??= new Set([...englishStopWords(), ...MORE_STOP_WORDS]);
  return stop;
}

export function isStopword(word: string): boolean {
  return stopWords().has(word.toLowerCase());
}
