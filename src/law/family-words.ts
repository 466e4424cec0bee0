// The family words of a plan's `relationship` fields, read for the civil-law
// checks of src/law/heirship.ts (forced heirship, reserves, spouse rights).
// Islamic law classes heirs more finely: see src/law/islamic/relationships.ts.

export type RelationshipClass = 'spouse' | 'child' | 'grandchild' | 'parent' | 'sibling' | 'other';

const WORDS: Record<Exclude<RelationshipClass, 'other'>, readonly string[]> = {
  spouse: [
    'spouse',
    'husband',
    'wife',
    'partner',
    'civil partner',
    'registered partner',
    'domestic partner',
    'life partner',
    'widow',
    'widower',
  ],
  child: [
    'child',
    'son',
    'daughter',
    'adopted child',
    'adopted son',
    'adopted daughter',
    'children',
    'sons',
    'daughters',
  ],
  grandchild: [
    'grandchild',
    'grandson',
    'granddaughter',
    'grandchildren',
    'grandsons',
    'granddaughters',
    'grand child',
    'grand son',
    'grand daughter',
  ],
  parent: ['parent', 'father', 'mother', 'parents', 'mom', 'dad', 'mum'],
  sibling: [
    'sibling',
    'brother',
    'sister',
    'siblings',
    'brothers',
    'sisters',
    'half brother',
    'half sister',
    'half-brother',
    'half-sister',
  ],
};
const LOOKUP = new Map<string, RelationshipClass>();
for (const [cls, words] of Object.entries(WORDS) as [RelationshipClass, readonly string[]][])
  for (const w of words) LOOKUP.set(w, cls);

/**
 * The class of a relationship word, case-insensitively: spouse/husband/wife/partner,
 * child/son/daughter, grandchild/grandson/granddaughter, parent/father/mother,
 * sibling/brother/sister; anything else (friend, charity, step-son, ex-wife, empty) is 'other'. With
 * `partnersAreSpouses: false` (the jurisdiction's `spouseRights.registeredPartners` is "not-spouse") a partner is
 * 'other' too.
 */
export function classifyRelationship(
  relationship: string | undefined,
  opts: { partnersAreSpouses?: boolean } = {},
): RelationshipClass {
  if (!relationship) return 'other';
  const w = relationship
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z -]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const cls = LOOKUP.get(w) ?? LOOKUP.get(w.replace(/-/g, ' ')) ?? 'other';
  // Where a registered partner is not a spouse in law (a French PACS), no partner word counts as one.
  if (cls === 'spouse' && opts.partnersAreSpouses === false && PARTNERS.has(w.replace(/-/g, ' '))) return 'other';
  return cls;
}

/** The words of `WORDS.spouse` that name a partner rather than a husband or wife. */
const PARTNERS = new Set(['partner', 'civil partner', 'registered partner', 'domestic partner', 'life partner']);
