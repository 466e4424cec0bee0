/**
 * What a question is about, before any word matching: "where did you grow up" shares no content word with "I was
 * born in Leeds", but it is a childhood and places question. Each intent names the questionnaire categories (and
 * questions) it belongs to, and topic words a memoir uses for it; the retrieval boosts passages from those
 * categories and adds the words to the query at a lower weight than the question's own words.
 */
export interface Intent {
  name: string;
  pattern: RegExp;
  categories: string[];
  questions?: string[];
  words: string[];
  /**
   * The words of the pattern's phrase are an idiom, not the subject: "before I die" asks what is left to do, and
   * passages about dying do not answer it. They are not searched for.
   */
  idiom?: boolean;
}

export const INTENTS: Intent[] = [
  {
    name: 'name',
    pattern: /\b(your|her|his) (full |maiden |real )?name\b|\bwhat (are|were) you called\b|\bwho are you\b/i,
    categories: ['profile'],
    words: ['name', 'called', 'christened', 'born'],
  },
  {
    name: 'childhood',
    pattern: /\bgr[eo]w(ing)? up\b|\bgrown up\b|\braised\b|\bchild(hood)?\b|\bkid\b|\blittle girl\b|\byoung\b/i,
    categories: ['childhood', 'places'],
    questions: ['childhood.home', 'places.hometown'],
    words: ['childhood', 'born', 'grew', 'house', 'street', 'terrace', 'girl', 'school', 'home'],
  },
  {
    // Where someone is from: "Where are you from originally?" shares no word with "I was born in Rabo de Peixe".
    name: 'origin',
    pattern:
      /\bwhere (are|were|was|is|do|did) (you|she|he|they|[\p{Lu}][\p{L}'-]*)( [\p{L}'-]+)? (from|come from|born)\b|\b(originally|birthplace|home ?town)\b/iu,
    categories: ['places'],
    questions: ['places.hometown', 'childhood.home'],
    words: ['born', 'village', 'town', 'hometown', 'grew'],
  },
  {
    name: 'work',
    pattern: /\bfor a living\b|\b(job|jobs|work|worked|working|career|profession|occupation|employ\w*|retire\w*)\b/i,
    categories: ['work'],
    // Trades' own words as well (a nurse's ward, a miner's pit) where a memoir uses them for its work.
    words: [
      'work',
      'job',
      'career',
      'trade',
      'nurse',
      'nursing',
      'ward',
      'hospital',
      'training',
      'shift',
      'retired',
      'apprentice',
      'wages',
    ],
  },
  {
    // An heir's "Grandad" alone does not make a question about the marriage: "What did Grandad do for work?" is about
    // work (./retrieval.ts reads the grandparent words as the owner or the spouse).
    name: 'spouse',
    pattern: /\b(husband|hubby|spouse|married|marry|wedding|wife|your man)\b/i,
    categories: ['love'],
    questions: ['love.met', 'advice.love'],
    words: ['husband', 'married', 'wedding', 'met', 'dance', 'courting'],
  },
  {
    name: 'meeting',
    pattern: /\b(meet|met|first saw|fall in love|fell in love|courting|courtship)\b/i,
    categories: ['love'],
    questions: ['love.met'],
    words: ['met', 'dance', 'first', 'asked'],
  },
  {
    name: 'family',
    // Not an heir's "Grandma" or "Grandad" alone: that is the owner or the spouse (./retrieval.ts).
    pattern:
      /\b(mum|mother|dad|father|parents|brother|sister|sibling|famil\w*|children|kids|son|daughter|grandparents?|grandchild\w*|grandsons?|granddaughters?|grandkids|your grand\w*)\b/i,
    categories: ['family'],
    words: ['family', 'mother', 'father', 'children', 'sister', 'brother'],
  },
  {
    name: 'travel',
    pattern: /\b(holiday|holidays|vacation|travel\w*|trip|abroad|visit\w*|lake|seaside)\b/i,
    categories: ['places'],
    questions: ['places.travel'],
    words: ['holiday', 'lake', 'trip', 'travelled', 'summer'],
  },
  {
    // Leaving one country for another, a chapter of many lives: "When did you move to Canada?" is answered by "I came
    // to Canada on 9th February 1974", "When did you come to America?" by "We came over ... on a plane to Boston".
    name: 'migration',
    pattern:
      /\b(move|moved|moving|come|came|coming|go|went|going) (here|over|to (?!school|work|church|bed|college|university|see|the (shop|store|doctor|hospital|church|school)))|\b(emigrat|immigrat)\w*|\b(leave|leaving|left) (home|the (old )?country|the island|the village|your country)\b|\bbehind in\b/i,
    categories: [],
    words: ['came', 'arrived', 'landed', 'plane', 'ship', 'boat', 'sponsored', 'emigrated', 'immigrated', 'over'],
  },
  {
    // Military service, a chapter of many lives: "Where were you stationed?" finds "the Army sent me to Baumholder".
    name: 'military',
    pattern:
      /\b(army|navy|air force|marines?|military|soldiers?|sailors?|wars?|wartime|stationed|drafted|draft|conscript\w*|national service|in the service|regiment|enlist\w*|deployed|posted)\b/i,
    categories: [],
    // Not "war" or "navy": a childhood in wartime, or a son at sea, is not the owner's service.
    words: ['army', 'drafted', 'stationed', 'served', 'soldier', 'military', 'regiment', 'enlisted', 'barracks'],
  },
  {
    name: 'faith',
    pattern: /\b(faith|god|church|pray\w*|believe|belief|religio\w*)\b/i,
    categories: ['faith'],
    words: ['church', 'faith', 'pray', 'chapel', 'believe'],
  },
  {
    // What is left to do: "Is there anything you still want to do?", "What's on your bucket list?".
    name: 'unfinished',
    pattern:
      /\bstill (want|wants|wanted|hope|hopes|wish|wishes|mean|means|plan|plans) to\b|\bbucket list\b|\bbefore (you|i|she|he) (die|dies|go|goes)\b|\bleft (undone|unsaid)\b/i,
    categories: ['legacy'],
    questions: ['legacy.unfinished'],
    words: ['still', 'someday', 'never', 'before', 'wish'],
    idiom: true,
  },
  {
    name: 'advice',
    pattern: /\b(advice|advise|lesson|wisdom|younger self)\b/i,
    categories: ['advice', 'values'],
    words: ['advice', 'learned', 'lesson'],
  },
  {
    name: 'school',
    pattern: /\b(school|teacher|class|lessons)\b/i,
    categories: ['childhood'],
    questions: ['childhood.school'],
    words: ['school', 'teacher', 'class'],
  },
];

/** An heir's words for a grandparent: one of them is the memoir's owner, the other the owner's husband or wife. */
export const GRANDPARENTS: Record<string, 'grandfather' | 'grandmother'> = {
  grandad: 'grandfather',
  granddad: 'grandfather',
  grandpa: 'grandfather',
  grandfather: 'grandfather',
  granda: 'grandfather',
  gramps: 'grandfather',
  grandma: 'grandmother',
  granny: 'grandmother',
  gran: 'grandmother',
  nana: 'grandmother',
  nan: 'grandmother',
  grandmother: 'grandmother',
  grandmas: 'grandmother',
  // The words of the languages many families keep for their grandparents, as heirs type them (accents optional
  // where the word stays unambiguous without them: Portuguese "vovo" could be either and is left out).
  // Hindi and Punjabi: the father's parents (dada, dadi) and the mother's (nana, nani; "nana" alone is English's
  // grandmother, above), with the respectful "ji".
  dadaji: 'grandfather',
  dadi: 'grandmother',
  dadiji: 'grandmother',
  nanaji: 'grandfather',
  nani: 'grandmother',
  naniji: 'grandmother',
  abuelo: 'grandfather',
  abuelito: 'grandfather',
  abuela: 'grandmother',
  abuelita: 'grandmother',
  vovô: 'grandfather',
  vovó: 'grandmother',
  avô: 'grandfather',
  avó: 'grandmother',
  nonno: 'grandfather',
  nonna: 'grandmother',
  opa: 'grandfather',
  oma: 'grandmother',
  opi: 'grandfather',
  omi: 'grandmother',
  papy: 'grandfather',
  mamie: 'grandmother',
  mamy: 'grandmother',
  dziadek: 'grandfather',
  dziadzia: 'grandfather',
  babcia: 'grandmother',
  zayde: 'grandfather',
  zaidy: 'grandfather',
  bubbe: 'grandmother',
  bubbie: 'grandmother',
  saba: 'grandfather',
  savta: 'grandmother',
  papou: 'grandfather',
  pappou: 'grandfather',
  yiayia: 'grandmother',
  jiddo: 'grandfather',
  jeddo: 'grandfather',
  teta: 'grandmother',
  sitto: 'grandmother',
  dedushka: 'grandfather',
  babushka: 'grandmother',
  dede: 'grandfather',
  halmoni: 'grandmother',
  harabeoji: 'grandfather',
  halabeoji: 'grandfather',
  yeye: 'grandfather',
  nainai: 'grandmother',
  gonggong: 'grandfather',
  popo: 'grandmother',
};

/**
 * Other kinship words as an heir says them, mapped to the words the memoir's owner writes: the heir's aunt is the
 * owner's sister (the common case, an heir who is a grandchild of the owner). After "your" a kinship word is the
 * owner's own relative ("your grandfather") and is left as it is.
 */
export const KINSHIP: Record<string, string[]> = {
  auntie: ['sister'],
  aunt: ['sister'],
  uncle: ['brother'],
};

export function intentsOf(question: string): Intent[] {
  return INTENTS.filter((i) => i.pattern.test(question));
}

/**
 * Everyday British words WordNet does not tie to their standard forms, both ways where both are common.
 */
export const COLLOQUIAL: Record<string, string[]> = {
  parents: ['mum', 'dad', 'mother', 'father'],
  parent: ['mum', 'dad', 'mother', 'father'],
  // A mother or a father is also what the memoir tells of "my parents" (a questionnaire's "your parents").
  mother: ['mum', 'parents'],
  mum: ['mother', 'parents'],
  father: ['dad', 'parents'],
  dad: ['father', 'parents'],
  television: ['telly'],
  tv: ['telly'],
  telly: ['television'],
  pandemic: ['lockdown', 'covid', 'corona'],
  covid: ['lockdown', 'corona', 'coronavirus', 'pandemic'],
  corona: ['covid', 'lockdown', 'pandemic'],
  lockdown: ['covid', 'corona', 'pandemic'],
  ill: ['fever', 'sick', 'hospital'],
  sick: ['fever', 'ill'],
  bathroom: ['bath', 'privy', 'tap'],
  toilet: ['privy'],
  games: ['played'],
  god: ['church', 'believe'],
  boy: ['little'],
  touch: ['wrote', 'letters'],
  // "step-children" is split at its hyphen: "step" is what the memoir holds of it.
  stepkids: ['step', 'stepchildren', 'stepson', 'stepdaughter'],
  stepkid: ['step', 'stepchild', 'stepson', 'stepdaughter'],
  stepchildren: ['step', 'stepson', 'stepdaughter'],
  kids: ['children'],
  // Where one studied after school: the same place in the words of different countries.
  university: ['college'],
  college: ['university'],
  uni: ['university', 'college'],
};
