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
  // Chinese: the commonest function words (words() splits a Chinese run into its words).
  ...'的 了 是 在 我 你 他 她 它 们 和 与 也 都 就 不 没 很 这 那 有 个 之 而 或 被 把 给 对 从 到 以 为 于 吗 呢 吧 啊 着 过 要 会 能 还 又 再 才 只 但 所 如 等 其 此 该 地 得'.split(
    ' ',
  ),
  ...'我们 你们 他们 她们 它们 什么 这个 那个 这些 那些 因为 所以 但是 可是 如果 已经 还是 就是 没有 一个 自己 时候 这样 那样 怎么 为什么 哪里 这里 那里 现在 然后 的话 我的 你的 他的 她的 不是 一些 可以 知道'.split(
    ' ',
  ),
  // Japanese: pronouns, demonstratives and the longer endings (particles and short endings are left out by words()).
  ...'私 僕 何 これ それ あれ どれ この その あの どの ここ そこ あそこ どこ です ます でした ました います いました ません ください でしょう という ところ ように こと もの ため から まで など'.split(
    ' ',
  ),
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
