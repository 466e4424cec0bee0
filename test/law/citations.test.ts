import { describe, expect, it } from 'vitest';
import type { Source } from '../../src/law/findings.js';
import { type Jurisdiction, loadJurisdictions } from '../../src/law/jurisdictions.js';

/**
 * Every citation of an Islamic-law jurisdiction says whether its article
 * numbers were checked against a published text: checked true with the url
 * of that text, or false with what is still open. The loaded records (after
 * schema parsing) are read, so a field the schema dropped would fail here.
 */

function islamicSources(j: Jurisdiction): Array<{ path: string; source: Source }> {
  const out: Array<{ path: string; source: Source }> = [];
  const il = j.islamicLaw;
  if (!il || il.applies === 'none') return out;
  if (il.school) {
    out.push({ path: 'school.source', source: il.school.source });
    (il.school.alternatives ?? []).forEach((a, i) =>
      out.push({ path: `school.alternatives[${i}].source`, source: a.source }),
    );
  }
  if (il.obligatoryBequest) out.push({ path: 'obligatoryBequest.source', source: il.obligatoryBequest.source });
  if (il.daughtersRadd) out.push({ path: 'daughtersRadd.source', source: il.daughtersRadd.source });
  if (il.grandfatherSharing) out.push({ path: 'grandfatherSharing.source', source: il.grandfatherSharing.source });
  if (il.mushtarakaSharing) out.push({ path: 'mushtarakaSharing.source', source: il.mushtarakaSharing.source });
  if (il.spouseRaddSource) out.push({ path: 'spouseRaddSource', source: il.spouseRaddSource });
  return out;
}

const all = loadJurisdictions()
  .all()
  .flatMap((j) => islamicSources(j).map((s) => ({ id: j.id, ...s })));

describe('Islamic-law citations', () => {
  it('are all marked checked or unchecked, with a note', () => {
    expect(all.length).toBeGreaterThanOrEqual(30);
    for (const c of all) {
      expect(typeof c.source.checked, `${c.id} ${c.path}`).toBe('boolean');
      expect(c.source.checkNote?.length ?? 0, `${c.id} ${c.path}`).toBeGreaterThan(10);
      if (c.source.checked) expect(c.source.url, `${c.id} ${c.path}`).toMatch(/^https?:\/\//);
    }
  });

  it('records the checks made against published texts', () => {
    const checked = all.filter((c) => c.source.checked).map((c) => `${c.id} ${c.path}`);
    expect(checked).toEqual(
      expect.arrayContaining([
        'ir school.source',
        'eg obligatoryBequest.source',
        'eg spouseRaddSource',
        'eg grandfatherSharing.source',
        'eg mushtarakaSharing.source',
        'tn daughtersRadd.source',
        'sy obligatoryBequest.source',
        'sy spouseRaddSource',
        'sy grandfatherSharing.source',
        'sy mushtarakaSharing.source',
        'dz obligatoryBequest.source',
        'iq obligatoryBequest.source',
        'pk obligatoryBequest.source',
        'pk school.source',
        'my school.source',
        'id school.source',
        'kw school.source',
        'kw obligatoryBequest.source',
      ]),
    );
    // What no published text confirmed stays marked unchecked.
    const open = all.filter((c) => !c.source.checked).map((c) => `${c.id} ${c.path}`);
    expect(open).toEqual(
      expect.arrayContaining([
        'dz spouseRaddSource',
        'iq daughtersRadd.source',
        'id daughtersRadd.source',
        'kw school.alternatives[0].source',
        'sa school.source',
        'ae school.source',
      ]),
    );
  });
});
