import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SourceDoc, passageTexts, searchMemoir } from '../../src/memoir/retrieval.js';
import { styleCountsOf } from '../../src/memoir/text.js';
import { contentWords, sentences, words, wordsAsWritten } from '../../src/memoir/words.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import { grant } from './support.js';

// A memoir written in Chinese or Japanese (no spaces between words, none after a full stop), Thai or Lao (no full
// stop: a space between sentences), Arabic or Hindi (their own full stops and question marks) is read as its sentences and words, so that its passages are sentences and a
// question finds the passage that holds its words.

const CHINESE = '我们住在海边。父亲是渔夫，每天早上出海。母亲在学校教书！她喜欢唱歌。';
const JAPANESE = '私たちは海のそばに住んでいました。父は漁師でした。母は「歌が好きだ。」と言いました。';
// "Yesterday I went to the market with my mother. We bought mangoes and sticky rice. Mother told of when she was a
// child in Chiang Mai.": Thai writes a space between sentences, none between words.
const THAI = 'เมื่อวานฉันไปตลาดกับแม่ เราซื้อมะม่วงและข้าวเหนียว แม่เล่าเรื่องตอนที่ท่านยังเป็นเด็กที่เชียงใหม่';

describe('sentences and words of scripts other than the Latin', () => {
  it('ends a sentence at the full stops and question marks of Chinese, Japanese, Arabic, Urdu and Hindi', () => {
    expect(sentences(CHINESE)).toEqual([
      '我们住在海边。',
      '父亲是渔夫，每天早上出海。',
      '母亲在学校教书！',
      '她喜欢唱歌。',
    ]);
    // After a closing quote, not inside it.
    expect(sentences(JAPANESE)).toEqual([
      '私たちは海のそばに住んでいました。',
      '父は漁師でした。',
      '母は「歌が好きだ。」と言いました。',
    ]);
    expect(sentences('他说：「明天去。」然后走了。')).toEqual(['他说：「明天去。」', '然后走了。']);
    expect(sentences('真的吗？！我不信。')).toEqual(['真的吗？！', '我不信。']);
    expect(sentences('كان أبي صيادا. هل تذكر البحر؟ نعم، أذكره.')).toEqual([
      'كان أبي صيادا.',
      'هل تذكر البحر؟',
      'نعم، أذكره.',
    ]);
    expect(sentences('میرے والد مچھیرے تھے۔ ہم سمندر کے پاس رہتے تھے۔')).toEqual([
      'میرے والد مچھیرے تھے۔',
      'ہم سمندر کے پاس رہتے تھے۔',
    ]);
    expect(sentences('मेरे पिता मछुआरे थे। हम समुद्र के पास रहते थे।')).toEqual(['मेरे पिता मछुआरे थे।', 'हम समुद्र के पास रहते थे।']);
    // Khmer and Burmese end one at their full stops, with or without a space after them.
    expect(sentences('ខ្ញុំទៅផ្សារ។ម្តាយខ្ញុំទិញត្រី។')).toEqual(['ខ្ញុំទៅផ្សារ។', 'ម្តាយខ្ញុំទិញត្រី។']);
    expect(sentences('ကျွန်တော် ဈေးသွားတယ်။ အမေ ငါးဝယ်တယ်။')).toEqual(['ကျွန်တော် ဈေးသွားတယ်။', 'အမေ ငါးဝယ်တယ်။']);
    // English as before: titles keep their sentence, and a stop needs a space after it.
    expect(sentences('Mrs. Nowak lived on Main St. in Erie. She paid 3.50 a week!')).toEqual([
      'Mrs. Nowak lived on Main St. in Erie.',
      'She paid 3.50 a week!',
    ]);
  });

  it('splits a Chinese, Japanese or Thai run into its words, leaving out Japanese particles and endings', () => {
    expect(words('父亲是渔夫，每天早上出海。')).toEqual(['父亲', '是', '渔夫', '每天', '早上', '出海']);
    expect(words('父は漁師でした。コーヒーが好きでした。')).toEqual(['父', '漁師', 'コーヒー', '好き']);
    expect(words('พ่อของฉันเป็นชาวประมง')).toEqual(['พ่อ', 'ของ', 'ฉัน', 'เป็น', 'ชาว', 'ประมง']);
    // A word keeps its combining marks: Hindi's vowel signs, Arabic's short vowels, an accent typed apart.
    expect(words('मेरे पिता मछुआरे थे।')).toEqual(['मेरे', 'पिता', 'मछुआरे', 'थे']);
    expect(words('كَانَ أَبِي صَيَّادًا')).toEqual(['كَانَ', 'أَبِي', 'صَيَّادًا']);
    expect(words('Cafe\u0301 au lait')).toEqual(['cafe\u0301', 'au', 'lait']);
    // The words as written are one for one with the words (a capital tells a name in a question).
    const mixed = "When did Grandad move to 北京? Don't ask O'Brien.";
    expect(words(mixed)).toEqual(['when', 'did', 'grandad', 'move', 'to', '北京', 'dont', 'ask', 'obrien']);
    expect(wordsAsWritten(mixed)).toHaveLength(words(mixed).length);
    expect(wordsAsWritten(mixed)[2]).toBe('Grandad');
  });

  it("keeps home, father and brother as content in Hindi and Arabic, and leaves Urdu's function words out", () => {
    expect(contentWords('हमारा घर नदी के पास था')).toEqual(expect.arrayContaining(['घर', 'नदी']));
    // "Our" is no content.
    expect(contentWords('हमारा घर नदी के पास था')).not.toContain('हमारा');
    expect(contentWords('كان أب في البيت')).toContain('أب');
    // Their function words still go.
    expect(contentWords('हमारा घर नदी के पास था')).not.toContain('के');
    expect(contentWords('كان أب في البيت')).not.toContain('في');
    // Urdu's commonest function words, which the package's list misspells: "my", "and", "we", "of", "near", "were".
    expect(contentWords('میرے والد مچھیرے تھے اور ہم سمندر کے پاس رہتے تھے')).toEqual(
      expect.arrayContaining(['والد', 'مچھیرے', 'سمندر']),
    );
    for (const w of ['میرے', 'اور', 'ہم', 'کے', 'تھے', 'سے', 'میں'])
      expect(contentWords('میرے والد سے ہم نے سمندر میں کے تھے اور سنا')).not.toContain(w);
  });

  it('counts short Chinese and Japanese words as content, but not their function words', () => {
    expect(contentWords(CHINESE)).toEqual([
      '住在',
      '海边',
      '父亲',
      '渔夫',
      '每天',
      '早上',
      '出海',
      '母亲',
      '学校',
      '教书',
      '喜欢',
      '唱歌',
    ]);
    expect(contentWords('私たちは海のそばに住んでいました。')).toEqual(['海', '住']);
    // The stopword package's lists of those languages, and of Thai and Hindi.
    expect(contentWords('พ่อของฉันเป็นชาวประมง')).not.toContain('ของ');
    expect(contentWords('พ่อของฉันเป็นชาวประมง')).toContain('ประมง');
    expect(contentWords('यह मेरे पिता का घर था')).toEqual(['पिता', 'घर']);
    // English keeps its rule: words of three letters and more.
    expect(contentWords('We sat by the sea at dawn')).toEqual(['sat', 'sea', 'dawn']);
  });

  it("counts a question or an exclamation by its own script's mark", () => {
    expect(styleCountsOf('你知道吗？太好了！他走了。')).toMatchObject({ sentences: 3, questions: 1, exclamations: 1 });
    expect(styleCountsOf('هل تذكر البحر؟ نعم.')).toMatchObject({ sentences: 2, questions: 1 });
  });

  it('ends a Thai or Lao sentence at a space between two of its words, not after a repetition mark or by a number', () => {
    expect(sentences(THAI)).toEqual([
      'เมื่อวานฉันไปตลาดกับแม่',
      'เราซื้อมะม่วงและข้าวเหนียว',
      'แม่เล่าเรื่องตอนที่ท่านยังเป็นเด็กที่เชียงใหม่',
    ]);
    // "Walk slowly, gently": one sentence; a year and an English name within one too.
    expect(sentences('เดินช้าๆ ค่อยๆ ไป เมื่อปี 2500 ฉันย้ายไป Bangkok กับพ่อ')).toEqual([
      'เดินช้าๆ ค่อยๆ ไป',
      'เมื่อปี 2500 ฉันย้ายไป Bangkok กับพ่อ',
    ]);
    // "I lived in Bangkok with my mother": the abbreviation's mark is no end.
    expect(sentences('ฉันอยู่กรุงเทพฯ กับแม่')).toEqual(['ฉันอยู่กรุงเทพฯ กับแม่']);
    expect(sentences('ຂ້ອຍໄປຕະຫຼາດ ແມ່ຊື້ປາ')).toEqual(['ຂ້ອຍໄປຕະຫຼາດ', 'ແມ່ຊື້ປາ']);
    // So a Thai entry is passages of two sentences, as any other (it was one passage, cut at the model's limit).
    expect(passageTexts(THAI)).toEqual([
      'เมื่อวานฉันไปตลาดกับแม่ เราซื้อมะม่วงและข้าวเหนียว',
      'เราซื้อมะม่วงและข้าวเหนียว แม่เล่าเรื่องตอนที่ท่านยังเป็นเด็กที่เชียงใหม่',
    ]);
    expect(styleCountsOf(THAI)).toMatchObject({ sentences: 3 });
  });

  it('makes passages of two sentences, joined without a space in Chinese and Japanese', () => {
    expect(passageTexts(CHINESE)).toEqual([
      '我们住在海边。父亲是渔夫，每天早上出海。',
      '父亲是渔夫，每天早上出海。母亲在学校教书！',
      '母亲在学校教书！她喜欢唱歌。',
    ]);
    expect(passageTexts('One. Two. Three.')).toEqual(['One. Two.', 'Two. Three.']);
  });
});

describe('a search of a memoir in Chinese, Japanese, Thai or Hindi', () => {
  const docs: SourceDoc[] = [
    { id: 'jrn_sea', kind: 'journal', text: CHINESE.slice(0, 20) },
    { id: 'jrn_school', kind: 'journal', text: '母亲在学校教书。她喜欢唱歌。' },
    { id: 'jrn_umi', kind: 'journal', text: '私たちは海のそばに住んでいました。父は漁師でした。' },
    { id: 'jrn_uta', kind: 'journal', text: '母は学校の先生でした。歌が好きでした。' },
    { id: 'jrn_pla', kind: 'journal', text: 'พ่อของฉันเป็นชาวประมง' },
    { id: 'jrn_pleng', kind: 'journal', text: 'แม่ชอบร้องเพลง' },
  ];

  it('finds the passage holding the words of the question', () => {
    const ask = (q: string) => searchMemoir(docs, q).passages.map((p) => p.id);
    expect(ask('母亲喜欢什么？')[0]).toBe('jrn_school');
    expect(ask('父亲是渔夫吗？')[0]).toBe('jrn_sea');
    expect(ask('母は歌が好きでしたか')[0]).toBe('jrn_uta');
    expect(ask('父は漁師でしたか？')[0]).toBe('jrn_umi');
    expect(ask('แม่ชอบร้องเพลงไหม')[0]).toBe('jrn_pleng');
    expect(
      searchMemoir([...docs, { id: 'jrn_hi', kind: 'journal', text: 'मेरे पिता मछुआरे थे।' }], 'क्या पिता मछुआरे थे?')
        .passages[0]?.id,
    ).toBe('jrn_hi');
    // Nothing in the memoir holds these words: no answer.
    expect(searchMemoir(docs, '祖父在哪里当兵？').answered).toBe(false);
  });
});

describe('the chat over REST, in demo mode, in Chinese', () => {
  let server: TestServer;
  let user: TestSession;
  beforeAll(async () => {
    server = await startTestServer();
    user = await registerUser(server.app);
    await grant(server, user.accountId, 5);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers from the entry that holds the words of the question, quoting its sentences', async () => {
    const post = (url: string, payload: object) =>
      server.app.inject({ method: 'POST', url, headers: sessionHeaders(user, { csrf: true }), payload });
    const ids: string[] = [];
    for (const content of [CHINESE, '祖父是木匠。他做了很多椅子和桌子。']) {
      const made = await post('/api/v1/svcloom/journal', { content });
      expect(made.statusCode, made.body).toBe(201);
      ids.push(made.json().data.entry.id);
    }
    const res = await post('/api/v1/svcloom/chat', { message: '祖父做了什么椅子？' });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.mode).toBe('demo');
    expect(data.grounded).toBe(true);
    expect(data.citations[0].id).toBe(ids[1]);
    expect(data.reply.content).toContain('他做了很多椅子和桌子。');
    expect(data.reply.content).not.toContain('渔夫');
  });
});
