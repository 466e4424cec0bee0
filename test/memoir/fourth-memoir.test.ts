import { describe, expect, it } from 'vitest';
import { loadRecallSet, recallRecords } from '../../bench/memoir-recall.js';
import { placesWithin } from '../../src/memoir/lexicon.js';
import { parseQuestion, type SourceDoc, searchMemoir } from '../../src/memoir/retrieval.js';
import { memoirDocs } from '../../src/memoir/retrieval-docs.js';
import { spouseOf } from '../../src/memoir/spouse.js';

// The retrieval on a fourth memoir (bench/memoir-questions-gurdev.json), written blind by another hand: a Punjabi
// Sikh grandfather's in British Columbia, whose grandchildren call him Dadaji and Nanaji. What its misses taught, each
// checked on small memoirs of its own so that it holds for any writer.

const gurdev = loadRecallSet('gurdev');
const gurdevDocs = memoirDocs({ name: gurdev.profile.name, ...recallRecords(gurdev) });
const ids = (docs: readonly SourceDoc[], q: string) => searchMemoir(docs, q, 3).passages.map((p) => p.id);
const doc = (text: string, id = 'j1'): SourceDoc => ({ id, kind: 'journal', text });
const memoir = (...texts: string[]) => texts.map((t, i) => doc(t, `j${i + 1}`));
const profile = (name: string): SourceDoc => ({ id: 'profile', kind: 'profile', text: `My name is ${name}.` });

describe('who the owner was married to', () => {
  it("takes the names before a sentence about marrying only for the owner's own marriage", () => {
    // "he married Navneet" (a name the tagger does not know) is the son's marriage: Harry is not the spouse.
    const son = [
      profile('Gurdev Singh Sandhu'),
      doc('Harry was always the serious one. In 1995 he married Navneet, from Surrey, she is a nurse.', 'j1'),
      doc('Harry had done the agriculture course. Then he married Nav in the gurdwara.', 'j2'),
    ];
    expect(spouseOf(son).name).toBeUndefined();
    expect(spouseOf(gurdevDocs).name).not.toBe('Harry');
    // "We were married" speaks of the owner and the name just before it.
    const own = [
      profile('Margaret Ellis'),
      doc('I met Frank at the Mecca ballroom. We were married at St Aidan’s the following June.', 'j1'),
      doc('Frank worked at the brewery. We were married for fifty years.', 'j2'),
    ];
    expect(spouseOf(own).name).toBe('Frank');
  });

  it('reads the grandparent the grandchildren call the owner: "call me Dadaji" makes the spouse the grandmother', () => {
    expect(spouseOf(gurdevDocs).sex).toBe('female');
    const docs = [profile('Dev Sandhu'), doc("Harry's kids call me Dadaji and Preeti's kids call me Nanaji.")];
    expect(spouseOf(docs).sex).toBe('female');
    expect(spouseOf([profile('Ana Silva'), doc('The grandkids call me Vovó.')]).sex).toBe('male');
    expect(spouseOf([profile('Dev Sandhu'), doc('The grandkids call me at night.')]).sex).toBeUndefined();
    expect(spouseOf([profile('Dev Sandhu'), doc('The grandkids call me Oma.')]).sex).toBe('male');
  });
});

describe("the heirs' words for their grandparents, in the languages families keep", () => {
  it('reads Dadaji, Nani, Abuela, Oma... as the grandparent they are: the owner adds nothing to search for', () => {
    const grandfather = { sex: 'female' as const };
    expect(parseQuestion('What village did you grow up in, Nanaji?', grandfather).own).toEqual(['villag', 'grow']);
    expect(parseQuestion('Where was Dadaji born?', grandfather).own).toEqual(['born']);
    // The other grandparent is the spouse, by name when the memoir makes it clear.
    expect(parseQuestion('How did you meet Dadi?', { name: 'Jeeto', sex: 'female' }).own).toContain('jeeto');
    const grandmother = { name: 'Dan', sex: 'male' as const };
    expect(parseQuestion('Abuela, where did you grow up?', grandmother).own).toEqual(['grow']);
    expect(parseQuestion('When did Opa retire?', grandmother).own).toContain('dan');
  });
});

describe('a question about an age', () => {
  it('"How old were you when ...?" is answered by the passage that gives the age, in figures or in words', () => {
    expect(parseQuestion('How old were you when you got married?').own).toEqual(['marri']);
    const docs = memoir(
      'We married in June 1968 at St Aidan’s. I was nineteen and Frank was twenty-one.',
      'We married off our daughter in 1995, the party went on till three in the morning.',
      'The old church where we married burned down in 1990.',
    );
    expect(ids(docs, 'How old were you when you got married?')[0]).toBe('j1');
    expect(ids(docs, 'At what age did you marry?')[0]).toBe('j1');
    // A passage on the event without an age does not answer how old one was.
    const noAge = memoir('We married in June 1968 at St Aidan’s.', 'The cow died in the winter.');
    expect(ids(noAge, 'How old were you when you got married?')).toEqual([]);
    expect(ids(memoir('I left school at 14 to work in the mill.'), 'How old were you when you left school?')).toEqual([
      'j1',
    ]);
  });
});

describe("a question about someone's trade", () => {
  it('"What did Grandpa Dan do for a living?" is answered by "He was a firefighter", a trade WordNet knows', () => {
    expect(parseQuestion('What did Grandpa Dan do for a living?').trade).toBe(true);
    expect(parseQuestion('What was your first job?').trade).toBe(true);
    expect(parseQuestion('When did you retire?').trade).toBe(false);
    const docs = memoir(
      'Dan came into the bakery every morning for two years. He was a firefighter at the station on Bedford Street.',
      'Dan cant dance, not one step, but he tries at every wedding. He was a good man to my children.',
      'Dan and I went to Furnas in 1988.',
    );
    expect(ids(docs, 'What did Grandpa Dan do for a living?')[0]).toBe('j1');
  });
});

describe("an heir's Mom and Dad", () => {
  it('"Mom" as a name is the asker\'s mother, whom the passage names: not a word it must hold', () => {
    expect(parseQuestion('When did Mom and Biji come to Canada?').own).toEqual(['biji', 'canada']);
    expect(parseQuestion("Is it true Mom didn't recognize you at the airport?").own).toEqual(['recogn', 'airport']);
    // "your mom", "my dad": that person's parent, a word to find as before.
    expect(parseQuestion('What was your mom like?').own).toEqual(['mom']);
    expect(parseQuestion('When was my dad born?').own).toEqual(['dad', 'born']);
    const docs = memoir(
      'At the airport Harry ran to me but Preeti hid behind her mother and cried. She didnt know who was this man.',
      'The airport in Abbotsford is small, we flew from there to Toronto in 2010.',
    );
    expect(ids(docs, "Is it true Mom didn't recognize you at the airport?")[0]).toBe('j1');
  });
});

describe('leaving one country for another', () => {
  it('"When did you move to Canada?" finds the arrival, told with other verbs', () => {
    const docs = memoir(
      'I came to Canada on 9th February 1974. When we landed it was snowing and I had one thin sweater.',
      'Canada Day is the first of July, and the flag on the porch stays up all year.',
      'We moved the raspberries to the north field in 1990.',
    );
    expect(ids(docs, 'When did you move to Canada?')[0]).toBe('j1');
    expect(parseQuestion('When did you move to Canada?').intents.map((i) => i.name)).toContain('migration');
    expect(parseQuestion('When did you go to school?').intents.map((i) => i.name)).not.toContain('migration');
  });

  it('"America" finds the city the memoir names, within its states, and not the states\' abbreviations', () => {
    expect(placesWithin('america')).toEqual(expect.arrayContaining(['massachusetts', 'boston']));
    expect(placesWithin('canada')).toEqual(expect.arrayContaining(['vancouver']));
    const docs = memoir(
      'We came over on a plane from Santa Maria to Boston. I was seventeen.',
      'Bad day with the sugar. Ok ok, I will eat the salad.',
      'My brother stayed on the island with the cows.',
    );
    expect(ids(docs, 'When did you come to America?')).toEqual(['j1']);
    expect(ids(docs, 'Did you ever live in America?')).not.toContain('j2');
  });
});

describe('words a question uses around its subject', () => {
  it('"not ... anymore", "again" and "is it true" frame the question', () => {
    expect(parseQuestion('Why do we grow blueberries and not raspberries anymore?').own).toEqual([
      'grow',
      'blueberri',
      'raspberri',
    ]);
    expect(parseQuestion('When did you start wearing a turban again?').own).toEqual(['start', 'wear', 'turban']);
    expect(parseQuestion('Is it true you met the Queen?').own).toEqual(['meet', 'queen']);
  });

  it('"when you were young" (or "a kid", "little") is the time of life, not a word to find', () => {
    expect(parseQuestion('What games did you play when you were young?').own).toEqual(['game', 'plai']);
    expect(parseQuestion('Where did you live when you were a kid?').own).toEqual(['live']);
    expect(parseQuestion('When you were a nurse, did you work nights?').own).toEqual(['nurs', 'work', 'night']);
  });

  it('finds the college for the university, and the university for the college', () => {
    const docs = memoir(
      'I was the first one from our family to go to college, Lyallpur Khalsa College in Jalandhar.',
      'We planted blueberries in 1996.',
    );
    expect(ids(docs, 'Did you go to university?')).toEqual(['j1']);
    expect(ids(memoir('She finished university in 1994.', 'The cow died.'), 'Where did she go to college?')).toEqual([
      'j1',
    ]);
  });

  it('finds the corona for the covid, and the parents for a dad', () => {
    const docs = memoir(
      'This corona. Gurdwara closed, first time in my life I cant go on a Sunday.',
      'The strike at the mill in 1971 lasted six weeks.',
      'We planted blueberries in 1996.',
    );
    expect(ids(docs, 'How did you get through covid?')).toEqual(['j1']);
    const parents: SourceDoc = {
      id: 'qa:family.parents',
      kind: 'answer',
      text: 'Bapu was a farmer, a quiet man with hands like wood.',
      context: 'What were your parents like?',
      category: 'family',
      questionId: 'family.parents',
    };
    expect(ids([parents, ...docs], 'What was your dad like?')[0]).toBe('qa:family.parents');
  });

  it('a sum in a passage answers a question about money, in figures or in words', () => {
    const docs: SourceDoc[] = [
      {
        id: 'qa:work.mistake',
        kind: 'answer',
        text: 'In 1986 I co-signed a loan for my cousin. He went off to California and I paid eleven thousand dollars.',
        context: 'What was a mistake at work that taught you something?',
        category: 'work',
        questionId: 'work.mistake',
      },
      ...memoir('The worst part is mornings, I still make two cups of chai.', 'We planted blueberries in 1996.'),
    ];
    expect(ids(docs, 'What was the worst money mistake you made?')[0]).toBe('qa:work.mistake');
    expect(ids(memoir('We sold the cow for 300 rupees.', 'The worst winter was 1978.'), 'Was money tight?')).toEqual([
      'j1',
    ]);
  });
});

describe('an idiom that names the question, not its subject', () => {
  it('"before I die" asks what is left to do: passages about dying do not answer it', () => {
    expect(parseQuestion('Where do I still want to go before I die?').own).toEqual([]);
    const docs: SourceDoc[] = [
      doc('My father died in 1981, two days before I got there.', 'j1'),
      doc('I passed matric in 1963, the only one from our village.', 'j2'),
      {
        id: 'qa:legacy.unfinished',
        kind: 'answer',
        text: 'I want to go to Kartarpur Sahib and see Lyallpur.',
        category: 'legacy',
        questionId: 'legacy.unfinished',
      },
    ];
    expect(ids(docs, 'Where do I still want to go before I die?')[0]).toBe('qa:legacy.unfinished');
    expect(ids(gurdevDocs, 'Where do I still want to go before I die?')[0]).toBe('qa:legacy.unfinished');
    // Dying asked of as such is still searched for.
    expect(ids(docs, 'When did your father die?')).toEqual(['j1']);
  });
});
