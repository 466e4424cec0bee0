/**
 * The memoir's stop words: the stopword package's lists of English and of the other languages below
 * (../core/stopwords.ts), and the words a life story writes without telling anything, read by the memoir's reading of
 * a text (./text.ts) and its retrieval (./retrieval.ts, ./agent.ts).
 */
import { englishStopWords, stopWordsIn } from '../core/stopwords.js';

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
  // What the package's Chinese and Japanese lists lack (below): theirs are mostly single characters and particles,
  // where words() gives the words, "我们", "什么", "でした".
  ...'它 没 而 被 给 从 以 过 要 能 再 才 只 但 所 如 其 我们 你们 他们 她们 它们 什么 这个 那个 这些 那些 因为 所以 但是 可是 如果 已经 还是 就是 没有 一个 自己 时候 这样 那样 怎么 为什么 哪里 这里 那里 现在 然后 的话 我的 你的 他的 她的 不是 一些 可以 知道'.split(
    ' ',
  ),
  ...'私 僕 何 あれ どれ あの どの そこ あそこ どこ でした ました います いました ません ください でしょう ように'.split(
    ' ',
  ),
  // And the personal pronouns and possessives the package's Hindi list lacks ("I", "we", "you", "my", "our", "your").
  ...'मैं हम तुम आपका आपकी आपके मेरा मेरी मेरे हमारा हमारी हमारे तुम्हारा तुम्हारी तुम्हारे उसका उसकी मुझे हमें तुम्हें'.split(' '),
  // The package's Urdu list has most of its words with letters swapped ("ثہت" for "بہت"): the commonest function
  // words ("in", "from", "of", "to", "not", "was", pronouns and possessives) are missing from it.
  ...'تھا تھیں کا کو سے میں نے وہ جو بھی نہیں کیا ہم تم آپ میرا میری میرے ہمارا ہماری ہمارے تمہارا تمہاری تمہارے ان اس انہوں بہت جب لیے گیا رہا کر کرتا کرتی کرنا مجھے ہمیں اپنا اپنی اپنے ہوں کچھ کوئی کسی یہاں وہاں کیوں کیسے کب کہاں پھر اب لیکن مگر یا اگر ساتھ بعد پہلے والا والی والے ہوتا ہوتی ہوتے جاتا جاتی جاتے دیا دی لیا'.split(
    ' ',
  ),
];

/**
 * The languages whose lists of the stopword package are the memoir's too, beside English: those words() reads by
 * dictionary (Chinese, Japanese, Thai) and those with scripts of their own people write memoirs in here (Hindi, Arabic,
 * Urdu).
 */
const LANGUAGES = ['zho', 'jpn', 'tha', 'hin', 'ara', 'urd'];

/**
 * Words of those lists that a memoir is about, kept as content: Hindi's "घर" (home) and "वर्ग" (class), Arabic's "أب"
 * (father) and "أخ" (brother). The lists were made for searching news, where such words are everywhere.
 */
const CONTENT_WORDS = new Set(['घर', 'वर्ग', 'वरग', 'أب', 'أخ']);

let stop: Set<string> | undefined;
/** The stop words, made on first use (../core/stopwords.ts). */
export function stopWords(): ReadonlySet<string> {
  if (!stop) {
    stop = new Set([...englishStopWords(), ...stopWordsIn(LANGUAGES), ...MORE_STOP_WORDS]);
    for (const w of CONTENT_WORDS) stop.delete(w);
  }
  return stop;
}

export function isStopword(word: string): boolean {
  return stopWords().has(word.toLowerCase());
}
