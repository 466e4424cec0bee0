import { z } from 'zod';
import { SourceSchema } from './findings.js';
import { TEMPLATE_TYPES } from './templates.js';

/**
 * The schema of a jurisdiction record (one JSON file under `<repo>/jurisdictions/`)
 * and of its summary. Loading and lookup are in jurisdictions.ts and
 * jurisdiction-index.ts. See docs-index/jurisdictions.md.
 */

const FRACTION_RE = /^(0|[1-9]\d*)\/[1-9]\d*$/;

export const FractionSchema = z
  .string()
  .regex(FRACTION_RE, 'a fraction "n/d", e.g. "1/2"')
  .refine((s) => {
    const [n, d] = s.split('/').map(Number);
    return n !== undefined && d !== undefined && n <= d;
  }, 'a fraction between 0 and 1')
  .describe('A share of the estate written as a fraction "n/d", e.g. "1/2".');

export const HEIR_GROUPS = ['descendants', 'spouse', 'parents'] as const;
export type HeirGroup = (typeof HEIR_GROUPS)[number];
export const HeirGroupSchema = z
  .enum(HEIR_GROUPS)
  .describe(
    'A class of relatives: descendants (children, and grandchildren representing a predeceased child), spouse (or registered partner), parents.',
  );

export const REGIONS = ['north-america', 'europe', 'oceania', 'asia', 'middle-east', 'africa'] as const;
export const LEGAL_SYSTEMS = ['common-law', 'civil-law', 'mixed', 'islamic', 'supranational'] as const;

export const ReserveShareSchema = z
  .object({
    heirs: z.array(HeirGroupSchema).min(1).describe('The classes of heirs who share this reserve collectively.'),
    fraction: FractionSchema.describe('The part of the estate reserved to these heirs together.'),
    perHead: FractionSchema.optional().describe(
      'Part of the estate (within `fraction`) that is divided equally per head among the heirs of the group, giving each a personal minimum; omitted when the law does not fix an equal split.',
    ),
    note: z
      .string()
      .optional()
      .describe('How this reserve works (e.g. a monetary claim rather than a share of the property).'),
    right: z
      .enum(['ownership', 'usufruct'])
      .optional()
      .describe(
        'What the heirs are reserved: "ownership" (absent: the default), a part of the estate they own; "usufruct", a lifetime right to use that part of the property or take its income, which burdens the shares of the others and is not a share of ownership a plan pays out (the surviving spouse in Spain and Belgium).',
      ),
    source: SourceSchema.optional().describe(
      "The article granting this reserve, cited by the findings about it; absent: the jurisdiction's first source.",
    ),
  })
  .strict()
  .describe('One reserved portion.');
export type ReserveShare = z.infer<typeof ReserveShareSchema>;

export const ReserveScenarioSchema = z
  .object({
    when: z
      .object({
        spouse: z
          .boolean()
          .optional()
          .describe(
            'true: applies only when a spouse is among the named heirs; false: only when none is; omitted: either.',
          ),
        descendantsMin: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe('Applies only when at least this many descendants (counted per child) are named.'),
        descendantsMax: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe('Applies only when at most this many descendants are named.'),
        parents: z
          .boolean()
          .optional()
          .describe('true: applies only when a parent is named; false: only when none is; omitted: either.'),
        parentsMin: z
          .number()
          .int()
          .min(1)
          .max(2)
          .optional()
          .describe(
            'Applies only when at least this many parents are named ("parents" as one beneficiary counts two).',
          ),
        regime: z
          .enum(['community', 'separate'])
          .optional()
          .describe(
            'Applies only under this marital property regime (the jurisdiction default when the caller gives none).',
          ),
      })
      .strict()
      .describe(
        'The family situation, as named in the plan, in which this scenario applies. The first matching scenario is used.',
      ),
    reserves: z.array(ReserveShareSchema).describe('The reserved portions in that situation.'),
  })
  .strict()
  .describe('Reserved portions for one family situation.');
export type ReserveScenario = z.infer<typeof ReserveScenarioSchema>;

/**
 * The schools a jurisdiction's Islamic inheritance law can follow. Ja'fari
 * (Twelver Shia) is listed here even where the fara'id engine cannot yet
 * compute it, so that the data can say what the law is.
 */
export const SCHOOL_IDS = ['hanafi', 'maliki', 'shafii', 'hanbali', 'jafari'] as const;
export type SchoolId = (typeof SCHOOL_IDS)[number];

export const SchoolIdSchema = z
  .enum(SCHOOL_IDS)
  .describe('A school of Islamic law: hanafi, maliki, shafii, hanbali (Sunni) or jafari (Twelver Shia).');

export const IslamicSchoolSchema = z
  .object({
    madhhab: SchoolIdSchema.nullable().describe(
      "The school whose rules fill what the statute leaves open, or null when the code's own rules stand apart from any one school.",
    ),
    basis: z.string().min(1).describe('Why this school applies here, in one or two sentences.'),
    source: SourceSchema.describe('The statute (with article) or the recorded practice that makes it apply.'),
    alternatives: z
      .array(
        z
          .object({
            community: z.string().min(1).describe('Who the alternative applies to (e.g. "Shia Muslims").'),
            madhhab: SchoolIdSchema.describe('The school applied to them.'),
            how: z
              .string()
              .min(1)
              .describe('How a caller chooses it: what fact about the deceased makes the court apply this school.'),
            source: SourceSchema.describe('Where this rule comes from.'),
          })
          .strict()
          .describe('A community whose estates follow another school.'),
      )
      .optional()
      .describe('Other schools applied to some communities here (e.g. Shia Muslims); pass `madhhab` to use one.'),
  })
  .strict()
  .describe(
    'The school of Islamic inheritance law the jurisdiction follows, with the source; calculations use it by default.',
  );
export type IslamicSchool = z.infer<typeof IslamicSchoolSchema>;

export const ObligatoryBequestSchema = z
  .object({
    kind: z
      .enum(['bequest', 'representation'])
      .optional()
      .describe(
        "bequest (default): a bequest to grandchildren who are not heirs, taken first within the cap, the heirs dividing the rest; representation: the grandchildren take their parent's share per stirpes as if the parent had survived, the other heirs keeping what they would then have had, with no cap and whether or not the grandchildren would inherit otherwise (Pakistan).",
      ),
    sonsChildren: z
      .enum(['all-degrees', 'first-degree'])
      .describe(
        "Children of a predeceased son: with sons' children however low (all-degrees), or only his own children (first-degree).",
      ),
    daughtersChildren: z
      .enum(['none', 'first-degree'])
      .describe('Children of a predeceased daughter: not covered, or only her own children (not their descendants).'),
    cap: FractionSchema.describe('Most of the estate the obligatory bequests may take together (one third).'),
    summary: z.string().min(1).describe('The rule in plain words.'),
    source: SourceSchema.describe('The statute and articles.'),
  })
  .strict()
  .describe(
    'Obligatory bequest (wasiyya wajiba): the children of a child who died before the deceased take what that child would have inherited, within the cap, before the heirs.',
  );
export type ObligatoryBequest = z.infer<typeof ObligatoryBequestSchema>;

export const DaughtersRaddSchema = z
  .object({
    summary: z.string().min(1).describe('The rule in plain words.'),
    source: SourceSchema.describe('The statute and article.'),
  })
  .strict()
  .describe(
    "Daughters' radd: a daughter or a son's daughter takes the remainder by radd, excluding brothers, sisters, their sons, paternal uncles and their sons (and the public treasury).",
  );

export const GrandfatherSharingSchema = z
  .object({
    summary: z.string().min(1).describe('The rule in plain words.'),
    source: SourceSchema.describe('The statute and article.'),
  })
  .strict()
  .describe(
    "The grandfather with full or paternal half-siblings by statute, after 'Ali: he neither excludes them nor is excluded by them; he shares with the residuary brothers and sisters as a brother, or takes the residue beside sisters who take fixed shares, never less than one sixth of the estate (no choice of one third, no counting of excluded half-siblings against him).",
  );

export const MushtarakaSharingSchema = z
  .object({
    summary: z.string().min(1).describe('The rule in plain words.'),
    source: SourceSchema.describe('The statute and article.'),
  })
  .strict()
  .describe(
    "Mushtaraka by statute: when the fixed shares exhaust the estate, the full brothers (with any full sisters) share the maternal half-siblings' third with them, equally per head.",
  );

export const JurisdictionSchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z]{2}(-[a-z]{2,4})?$/, 'lowercase ISO 3166 code, e.g. "fr", "us-ca", "gb-eng"')
      .describe(
        'Identifier: ISO 3166-1 alpha-2 for countries ("fr"), ISO 3166-2 style for subdivisions ("us-ca", "gb-eng"), "eu" for the EU Succession Regulation, "ae-difc"/"ae-adgm" for the financial free zones.',
      ),
    name: z.string().min(1).describe('English name.'),
    aliases: z
      .array(z.string().min(1).describe('An alias.'))
      .describe('Other names and codes that resolve to this jurisdiction (case-insensitive).'),
    kind: z
      .enum(['country', 'subdivision', 'special-zone', 'supranational'])
      .describe('What sort of jurisdiction this is.'),
    parent: z.string().nullable().describe('Id of the enclosing jurisdiction (e.g. "us" for a state), or null.'),
    instruments: z
      .array(z.string().describe('Jurisdiction id of the instrument.'))
      .describe(
        'Supranational instruments in force here, as jurisdiction ids (e.g. ["eu"] where the EU Succession Regulation applies).',
      ),
    region: z.enum(REGIONS).describe('World region, for filtering.'),
    legalSystem: z.enum(LEGAL_SYSTEMS).describe('Legal tradition governing succession.'),
    legalSystemNote: z.string().describe('One or two sentences on the legal tradition.'),
    forcedHeirship: z
      .object({
        exists: z
          .boolean()
          .describe('Whether some heirs are entitled to a part of the estate a will cannot take away.'),
        reservedHeirs: z
          .array(HeirGroupSchema)
          .describe('Classes of heirs with a reserve (those the checks understand).'),
        basis: z
          .enum(['whole-estate', 'movable-estate'])
          .describe('What the reserve is computed on: the whole estate, or movable property only (Scotland).'),
        claim: z
          .enum(['reduction', 'money'])
          .optional()
          .describe(
            'What a reserved heir left short may claim: "reduction" (absent: the default), the reduction of the gifts beyond the disposable part (as France\'s réduction); "money", a sum of money from the heirs or the estate (Germany\'s Pflichtteil, Poland\'s zachowek, Scotland\'s legal rights).',
          ),
        onlyIf: z
          .string()
          .optional()
          .describe(
            'A condition the plan cannot show (e.g. the child is under 24 or disabled); findings then become info.',
          ),
        scenarios: z
          .array(ReserveScenarioSchema)
          .describe(
            'Machine-readable reserves by family situation; empty when the reserve is not machine-checked (see summary).',
          ),
        summary: z.string().describe('The rules in plain words.'),
      })
      .strict()
      .describe('Forced heirship (reserved portions).'),
    spouseRights: z
      .object({
        electiveShare: z
          .object({
            fractions: z
              .array(
                z
                  .object({
                    when: z
                      .enum(['always', 'descendants', 'no-descendants'])
                      .describe('Which family situation the fraction applies to.'),
                    fraction: FractionSchema.describe('The fraction the spouse may elect to take.'),
                  })
                  .strict()
                  .describe('A flat elective-share fraction.'),
              )
              .describe('Flat fractions, where the statute fixes one; empty when it depends on other facts.'),
            maxFraction: FractionSchema.optional().describe(
              'The most the spouse can elect (e.g. by length of marriage), where there is no flat fraction.',
            ),
            basis: z.string().describe('What the share is computed on (e.g. "augmented estate").'),
            statute: z.string().describe('The statute granting it.'),
          })
          .strict()
          .nullable()
          .describe("A surviving spouse's right to elect a share against the will, or null."),
        summary: z.string().describe("A surviving spouse's rights in plain words."),
        registeredPartners: z
          .enum(['spouse', 'not-spouse'])
          .optional()
          .describe(
            'How the checks read a plan\'s partner ("partner", "registered partner", "civil partner"...): as a spouse (absent or "spouse": a UK civil partnership, a German or Dutch registered partnership, an Italian civil union), or "not-spouse" where a registered partner has none of a spouse\'s reserve (a French PACS: no inheritance right at all; a Belgian legal cohabitation: the use of the family home, which a will can take away).',
          ),
      })
      .strict()
      .describe('Rights of a surviving spouse.'),
    maritalProperty: z
      .object({
        communityProperty: z
          .enum(['default', 'deferred', 'opt-in', 'none'])
          .describe(
            'default: spouses co-own property acquired during marriage; deferred: property is separate during marriage but shared out when it ends (death included); opt-in: community only by agreement or trust; none.',
          ),
        defaultRegime: z.string().describe('Name of the default matrimonial property regime.'),
        deathSettlement: z
          .enum(['claim', 'share-increase'])
          .optional()
          .describe(
            "How a deferred regime is settled when the marriage ends by death: claim (absent: the default), the spouse's claim to share the gains is settled before the estate is shared out; share-increase, the gains are not reckoned and the spouse's statutory share is raised instead, unless the spouse refuses the inheritance and claims the gains (Germany's community of accrued gains, BGB § 1371).",
          ),
        summary: z.string().describe('What it means for a plan.'),
      })
      .strict()
      .describe('Matrimonial property.'),
    intestacy: z.string().describe('Who inherits without a will, in order, in short.'),
    islamicLaw: z
      .object({
        applies: z.enum(['none', 'muslims', 'all']).describe('To whose estates Islamic inheritance law applies.'),
        bequestLimit: FractionSchema.optional().describe(
          'Most of the estate that may be bequeathed by will where Islamic law applies (usually 1/3).',
        ),
        spouseRadd: z
          .boolean()
          .optional()
          .describe(
            'A husband or wife as the only heir: true when the law here returns the surplus to the spouse by radd (the whole estate), false when the spouse keeps the fixed share and the rest goes to the public treasury (bayt al-mal). Omitted when not recorded; calculations then return it to the spouse.',
          ),
        spouseRaddSource: SourceSchema.optional().describe('Where the spouseRadd setting comes from, when recorded.'),
        school: IslamicSchoolSchema.optional(),
        obligatoryBequest: ObligatoryBequestSchema.optional(),
        daughtersRadd: DaughtersRaddSchema.optional(),
        grandfatherSharing: GrandfatherSharingSchema.optional(),
        mushtarakaSharing: MushtarakaSharingSchema.optional(),
        summary: z.string().describe('Where and to whom Islamic law applies.'),
      })
      .strict()
      .describe('Islamic inheritance law.'),
    willFormalities: z
      .object({
        witnesses: z
          .number()
          .int()
          .min(0)
          .nullable()
          .describe('Witnesses needed for an ordinary witnessed will; null when not stated.'),
        holographic: z
          .boolean()
          .nullable()
          .describe(
            'Whether a will handwritten and signed by the testator is valid without witnesses; null when not stated.',
          ),
        notarial: z
          .boolean()
          .nullable()
          .describe('Whether a will made before a notary (public will) is available; null when not stated.'),
        electronic: z
          .boolean()
          .nullable()
          .describe('Whether wills may be made or signed electronically; null when not stated.'),
        summary: z.string().describe('The formalities in plain words.'),
      })
      .strict()
      .describe('Will formalities.'),
    digitalAssets: z
      .object({
        rufadaa: z
          .enum(['adopted', 'not-adopted', 'unknown', 'not-applicable'])
          .describe(
            'US states: whether the Revised Uniform Fiduciary Access to Digital Assets Act is enacted; not-applicable elsewhere; unknown when not verified.',
          ),
        law: z.string().nullable().describe('The statute on fiduciary access to digital assets, or null.'),
        summary: z.string().describe('Digital-asset law in plain words.'),
      })
      .strict()
      .describe('Digital-asset law.'),
    tax: z
      .object({
        kind: z
          .enum(['estate', 'inheritance', 'estate-and-inheritance', 'none', 'varies'])
          .describe('Headline death tax.'),
        summary: z.string().describe('Headline estate or inheritance tax, in short.'),
      })
      .strict()
      .describe('Estate or inheritance tax.'),
    recommendedTemplates: z
      .array(z.enum(TEMPLATE_TYPES))
      .min(1)
      .describe('Inheritance templates that fit this jurisdiction.'),
    sources: z.array(SourceSchema).min(1).describe('Statutes and official texts the data rests on.'),
    lastReviewed: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .describe('Date the record was last reviewed (YYYY-MM-DD).'),
  })
  .strict()
  .describe("One jurisdiction's inheritance law, in short.");
export type Jurisdiction = z.infer<typeof JurisdictionSchema>;

export const JurisdictionSummarySchema = z
  .object({
    id: z.string().describe('Jurisdiction id.'),
    name: z.string().describe('English name.'),
    parent: z.string().nullable().describe('Id of the enclosing jurisdiction, or null.'),
    region: z.enum(REGIONS).describe('World region.'),
    legalSystem: z.enum(LEGAL_SYSTEMS).describe('Legal tradition.'),
    forcedHeirship: z.boolean().describe('Whether forced heirship exists.'),
    communityProperty: z.boolean().describe('Whether community property is the default matrimonial regime.'),
  })
  .describe('A jurisdiction in a list.');
export type JurisdictionSummary = z.infer<typeof JurisdictionSummarySchema>;

export function summarizeJurisdiction(j: Jurisdiction): JurisdictionSummary {
  return {
    id: j.id,
    name: j.name,
    parent: j.parent,
    region: j.region,
    legalSystem: j.legalSystem,
    forcedHeirship: j.forcedHeirship.exists,
    communityProperty: j.maritalProperty.communityProperty === 'default',
  };
}
