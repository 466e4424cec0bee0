import { describe, expect, it } from 'vitest';
import { arabicKey } from '../../src/law/arabic-family-words.js';
import { classifyRelationship as civilClass } from '../../src/law/family-words.js';
import { classifyRelationship } from '../../src/law/islamic.js';

// Relationships written in Urdu and Persian in their own (Perso-Arabic) script: the letters Arabic does not use are
// read, and the forms of heh and yeh they write for the Arabic ones are the Arabic letters.

describe('the letters of Urdu and Persian', () => {
  it('reads an Arabic word as Urdu spells it, with heh goal for teh marbuta, as the Arabic word', () => {
    // Without heh goal these were the Arabic word one letter shorter: husband, father, maternal uncle, grandfather.
    const pairs: [urdu: string, arabic: string][] = [
      ['زوجہ', 'زوجة'],
      ['والدہ', 'والدة'],
      ['خالہ', 'خالة'],
      ['جدہ', 'جدة'],
      ['عمہ', 'عمة'],
    ];
    for (const [urdu, arabic] of pairs) {
      expect([urdu, classifyRelationship(urdu)]).toEqual([urdu, classifyRelationship(arabic)]);
      expect([urdu, civilClass(urdu)]).toEqual([urdu, civilClass(arabic)]);
    }
    expect(classifyRelationship('زوجہ')).toEqual({ kind: 'heir', heir: 'wife' });
    expect(classifyRelationship('والدہ')).toEqual({ kind: 'heir', heir: 'mother' });
  });

  it('makes one the letters typed one for another, and keeps the letters Arabic does not have', () => {
    // heh goal, do-chashmi heh, ae and teh marbuta goal are heh; bari yeh, Farsi yeh and alef maksura are yeh.
    for (const heh of ['ہ', 'ھ', 'ە', 'ۃ', 'ة'])
      expect([heh, arabicKey(`زوج${heh}`)]).toEqual([heh, arabicKey('زوجه')]);
    for (const yeh of ['ے', 'ی', 'ى']) expect([yeh, arabicKey(`وال${yeh}`)]).toEqual([yeh, arabicKey('والي')]);
    // With the hamza above, a mark of its own.
    expect(arabicKey('نوۀ')).toBe(arabicKey('نوه'));
    expect(arabicKey('بھائی')).toBe(arabicKey('بهايي'));
    // پ is not ب, and is not dropped; nor are ٹ, چ, ڈ, ڑ, ژ, گ and ں.
    expect(arabicKey('پسر')).not.toBe(arabicKey('بسر'));
    expect(arabicKey('پسر')).not.toBe(arabicKey('سر'));
    for (const letter of ['ٹ', 'چ', 'ڈ', 'ڑ', 'ژ', 'گ', 'ں'])
      expect([letter, arabicKey(`با${letter}`)]).not.toEqual([letter, arabicKey('با')]);
    expect(arabicKey('ماں')).not.toBe(arabicKey('مان'));
  });
});
