import { describe, expect, it } from 'vitest';
import { loadRecallSet, measure, recallRecords, retrievalSearch } from '../../bench/memoir-recall.js';
import { relatedWords } from '../../src/memoir/lexicon.js';
import { namesIn } from '../../src/memoir/names.js';
import { parseQuestion, type SourceDoc, searchMemoir } from '../../src/memoir/retrieval.js';
import { memoirDocs } from '../../src/memoir/retrieval-docs.js';
import { spouseOf } from '../../src/memoir/spouse.js';
import { sentences } from '../../src/memoir/words.js';

// The retrieval on a second memoir, a grandfather's (bench/memoir-questions-walter.json), written after the retrieval
// was tuned on a grandmother's: an heir's "Grandpa" is the owner there, "Grandma" his wife.

const walter = loadRecallSet('walter');
const margaret = loadRecallSet('margaret');
const docsOf = (set: typeof walter): SourceDoc[] => memoirDocs({ name: set.profile.name, ...recallRecords(set) });
const walterDocs = docsOf(walter);
const margaretDocs = docsOf(margaret);
const ids = (docs: SourceDoc[], q: string) => searchMemoir(docs, q, 3).passages.map((p) => p.id);
const doc = (text: string, id = 'j1'): SourceDoc => ({ id, kind: 'journal', text });

describe('who the owner was married to, as the memoir says it', () => {
  it("finds a grandfather's wife by her nickname and a grandmother's husband, each with their sex", () => {
    expect(spouseOf(walterDocs)).toEqual({ name: 'Dot', sex: 'female' });
    expect(spouseOf(margaretDocs)).toEqual({ name: 'Frank', sex: 'male' });
  });

  it('reads "my wife" and "my husband" as the strongest word, and says nothing when the memoir does not', () => {
    const profile: SourceDoc = { id: 'profile', kind: 'profile', text: 'My name is Sam Lee.' };
    expect(spouseOf([profile, doc('My wife Ann and I were married in 1970. She liked the sea.')])).toEqual({
      name: 'Ann',
      sex: 'female',
    });
    expect(spouseOf([doc('My husband and I were married in 1970.')]).sex).toBe('male');
    expect(spouseOf([doc('We lived by the sea for forty years.')])).toEqual({});
    // A man's first name says he is the grandfather (his wife's name still unknown).
    expect(spouseOf([profile, doc('We lived by the sea for forty years.')])).toEqual({ sex: 'female' });
  });

  it('a sentence about marrying that names nobody counts the people named just before it', () => {
    const docs = [
      doc('I met Rosa at a dance. We were married in June.'),
      doc('Rosa and I went to Rome for our honeymoon.', 'j2'),
    ];
    expect(spouseOf(docs).name).toBe('Rosa');
  });
});

describe("an heir's grandparent words follow the owner", () => {
  const dot = spouseOf(walterDocs);

  it('"Grandpa" is the grandfather himself and adds nothing; "Grandma" is his wife', () => {
    expect(parseQuestion('What did Grandpa do for work?', dot).own).toEqual(['work']);
    expect(parseQuestion('Do you miss Grandma?', dot).own).toContain('dot');
    // A grandmother's memoir, or one that does not say: "Grandad" is the husband.
    expect(parseQuestion('How did you meet Grandad?', spouseOf(margaretDocs)).own).toContain('frank');
    expect(parseQuestion('How did you meet Grandad?').own).toContain('husband');
    // "your grandfather" is the owner's own grandfather, a word to search for.
    expect(parseQuestion('Who was your grandfather?', dot).own).toContain('grandfath');
  });

  it('finds what the grandfather wrote of his own work, and his wife\'s death for "Grandma"', () => {
    // Before, "Grandpa" was read as the owner's husband: nothing answered.
    expect(['wk_03', 'wk_06', 'qa:work.career']).toContain(ids(walterDocs, 'What did Grandpa do for work?')[0]);
    expect(ids(walterDocs, 'When did Grandma die?')[0]).toBe('wk_11');
  });
});

describe('natural questions of the second memoir', () => {
  it('a teacher is found where the memoir says teaching, and military service where it says the Army', () => {
    expect(relatedWords('teacher')).toContain('teach');
    expect(ids(walterDocs, 'Why did you become a teacher?')).toContain('wk_06');
    expect(ids(walterDocs, 'Where were you stationed?')[0]).toBe('wk_04');
    expect(ids(walterDocs, 'Did you ever fight in a war?')[0]).toBe('wk_04');
    // The grandmother's memoir speaks of the end of the war and a son in the merchant navy: not her service.
    expect(ids(margaretDocs, 'Did you serve in the army?')).toEqual([]);
  });

  it('"Who gets your tools?" is about the tools; a password is never answered from a related word', () => {
    expect(ids(walterDocs, 'Who gets your tools?')[0]).toBe('wk_13');
    expect(ids(walterDocs, 'What is your password?')).toEqual([]);
    expect(ids(margaretDocs, 'What is your password?')).toEqual([]);
  });

  it('recall@3 >= 0.9 on the whole set, and no answer to a question nothing answers', () => {
    const figures = measure(walter, retrievalSearch(walter));
    console.log(
      `second memoir: recall@3 ${figures.recallAt3.toFixed(2)}, MRR ${figures.mrr.toFixed(2)}, false answers ${figures.falseAnswerRate.toFixed(2)}; misses: ${figures.misses.join(' | ')}`,
    );
    expect(figures.questions).toBeGreaterThanOrEqual(40);
    expect(figures.recallAt3).toBeGreaterThanOrEqual(0.9);
    expect(figures.falseAnswerRate).toBe(0);
  });
});

describe("reading the memoir's sentences and names", () => {
  it('does not end a sentence at a title or a saint\'s "St."', () => {
    expect(
      sentences(
        "We married at St. Casimir's in 1968. I carried Mrs. Nowak out. Dr. Patel came. We lived on Main St. in Erie.",
      ),
    ).toEqual([
      "We married at St. Casimir's in 1968.",
      'I carried Mrs. Nowak out.',
      'Dr. Patel came.',
      'We lived on Main St. in Erie.',
    ]);
  });

  it('a name the tagger does not know is a person when written with the writer or as what someone was called', () => {
    expect(namesIn('It rained, but Dot and I drove to the falls.').people).toContain('Dot');
    expect(namesIn('Everyone called her Dot.').people).toContain('Dot');
    expect(namesIn('I met Dorothy and Walter at the picnic.').sexes).toEqual({ male: ['Walter'], female: ['Dorothy'] });
  });
});
