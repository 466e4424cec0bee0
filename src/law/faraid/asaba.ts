import { DISTANT_AGNATES, type Kinship } from './hajb.js';
import { type EngineState, isActive, L, type Residuary } from './state.js';

/** Residuaries ('asaba): the first class present, nearest first, takes what the fixed shares leave. */

type ResiduaryClass = [on: boolean, members: Residuary[], description: string];

function classes(st: EngineState, kin: Kinship): ResiduaryClass[] {
  const active = (k: Residuary['heir']): boolean => isActive(st, k);
  return [
    [
      active('son'),
      [
        { heir: 'son', weight: 2 },
        { heir: 'daughter', weight: 1 },
      ],
      'sons (with daughters, a male taking twice a female)',
    ],
    [
      active('sonsSon'),
      [
        { heir: 'sonsSon', weight: 2 },
        { heir: 'sonsDaughter', weight: 1 },
      ],
      "sons' sons (with sons' daughters, a male taking twice a female)",
    ],
    [active('father') && !kin.maleDesc, [{ heir: 'father', weight: 1 }], 'the father'],
    [
      active('paternalGrandfather') && !kin.maleDesc && !kin.zaydSiblings && !kin.statuteSiblings,
      [{ heir: 'paternalGrandfather', weight: 1 }],
      'the paternal grandfather',
    ],
    [
      active('fullBrother'),
      [
        { heir: 'fullBrother', weight: 2 },
        { heir: 'fullSister', weight: 1 },
      ],
      'full brothers (with full sisters, a male taking twice a female)',
    ],
    [kin.fsWithOthers, [{ heir: 'fullSister', weight: 1 }], "full sisters, made residuary by the deceased's daughters"],
    [
      active('paternalHalfBrother'),
      [
        { heir: 'paternalHalfBrother', weight: 2 },
        { heir: 'paternalHalfSister', weight: 1 },
      ],
      'paternal half-brothers (with paternal half-sisters, a male taking twice a female)',
    ],
    [
      kin.phsWithOthers,
      [{ heir: 'paternalHalfSister', weight: 1 }],
      "paternal half-sisters, made residuary by the deceased's daughters",
    ],
    ...DISTANT_AGNATES.map((k): ResiduaryClass => [active(k), [{ heir: k, weight: 1 }], `the ${L[k]}`]),
  ];
}

/**
 * The residuaries of the case, with their weights; none when the grandfather
 * shares with siblings after Zayd (grandfather.ts settles that case on its
 * own). Under a statute on the grandfather with siblings, the residuary
 * siblings without him: grandfather.ts adds him beside them.
 */
export function findResiduaries(st: EngineState, kin: Kinship): Residuary[] {
  if (kin.zaydSiblings) return [];
  const first = classes(st, kin).find(([on]) => on);
  if (!first) return [];
  st.steps.push({ kind: 'residuary', detail: `Residuaries: ${first[2]}.` });
  return first[1].filter((r) => isActive(st, r.heir));
}
