// The svc tool calls the wizard makes, with their answers narrowed to what the
// steps show. Each returns the API's result so the caller decides how to report.
import type { ApiProblem, ApiResult, WizardApi } from './api.js';
import { type CoinFigures, type Finding, type Form, num, planOf, type Result, type Review } from './form.js';

export interface Template {
  type: string;
  name: string;
  description: string;
}

export interface Jurisdiction {
  id: string;
  name: string;
  /** The enclosing jurisdiction (a country for its states or provinces), or null. */
  parent: string | null;
}

/** What the wizard reads of a jurisdiction's law: its templates (the first is the one to preselect) and its school. */
export interface JurisdictionLaw {
  id: string;
  recommendedTemplates: string[];
  islamicLaw?: { applies?: string; school?: { madhhab?: string } };
}

export function getJurisdiction(api: WizardApi, id: string): Promise<ApiResult<JurisdictionLaw>> {
  return api.tool<JurisdictionLaw>('get_jurisdiction', { id });
}

/** The fara'id heir type a relationship names, in the words the wizard understands (English heir names). */
const HEIR_WORDS: Record<string, string> = {
  husband: 'husband',
  wife: 'wife',
  son: 'son',
  daughter: 'daughter',
  father: 'father',
  mother: 'mother',
  brother: 'fullBrother',
  sister: 'fullSister',
  'full brother': 'fullBrother',
  'full sister': 'fullSister',
  grandson: 'sonsSon',
  granddaughter: 'sonsDaughter',
};

export const heirOf = (relationship: string): string | undefined =>
  HEIR_WORDS[relationship.trim().toLowerCase().replace(/\s+/g, ' ')];

interface FaraidShare {
  heir: string;
  perPersonBasisPoints: number[];
}

/**
 * Each beneficiary's fara'id share in percent, from calculate_inheritance on the heirs the relationships name, in
 * the jurisdiction and school chosen; `unknown` lists the rows whose relationship names no heir.
 */
export async function faraidShares(
  api: WizardApi,
  form: Form,
): Promise<ApiResult<{ shares: Array<number | undefined> }> | { ok: 'unknown'; rows: number[] }> {
  const heirs = form.beneficiaries.map((b) => heirOf(b.relationship));
  const unknown = heirs.flatMap((h, i) => (h ? [] : [i]));
  if (unknown.length) return { ok: 'unknown', rows: unknown };
  const counts: Record<string, number> = {};
  for (const h of heirs) counts[h!] = (counts[h!] ?? 0) + 1;
  const r = await api.tool<{ shares: FaraidShare[] }>('calculate_inheritance', {
    heirs: counts,
    ...(form.madhhab ? { madhhab: form.madhhab } : {}),
    ...(form.jurisdiction ? { jurisdiction: form.jurisdiction } : {}),
  });
  if (!r.ok) return r;
  const next: Record<string, number> = {};
  const shares = heirs.map((h) => {
    const group = r.data.shares.find((s) => s.heir === h);
    const i = next[h!] ?? 0;
    next[h!] = i + 1;
    const bp = group?.perPersonBasisPoints[i];
    return bp === undefined ? undefined : bp / 100;
  });
  return { ok: true, data: { shares } };
}

export function listTemplates(api: WizardApi): Promise<ApiResult<{ templates: Template[] }>> {
  return api.tool<{ templates: Template[] }>('list_templates', {});
}

/** Every jurisdiction, page by page (at most ten pages of 100). */
export async function listJurisdictions(api: WizardApi): Promise<ApiResult<Jurisdiction[]>> {
  const all: Jurisdiction[] = [];
  for (let page = 1; page <= 10; page++) {
    const r = await api.tool<{ items: Jurisdiction[]; pagination: { hasNext: boolean } }>('list_jurisdictions', {
      limit: 100,
      page,
    });
    if (!r.ok) return r;
    all.push(...r.data.items);
    if (!r.data.pagination.hasNext) break;
  }
  return { ok: true, data: all };
}

export function validatePlan(api: WizardApi, form: Form) {
  return api.tool<{ warnings: Finding[] }>('validate_plan', planOf(form));
}

/**
 * The review's three calls at once: plan rules, the jurisdiction's law (if one is chosen) and measured gas.
 * `problem` is set when the plan itself is refused; the review then shows what the other calls found.
 */
export async function reviewPlan(api: WizardApi, form: Form): Promise<{ review: Review; problem?: ApiProblem }> {
  const [valid, law, gas] = await Promise.all([
    validatePlan(api, form),
    form.jurisdiction
      ? api.tool<{ findings: Finding[] }>('check_plan', {
          jurisdiction: form.jurisdiction,
          template: form.template,
          ...(form.madhhab && form.template.startsWith('islamic') ? { madhhab: form.madhhab } : {}),
          beneficiaries: form.beneficiaries.map((b) => ({
            name: b.name,
            percentage: num(b.percentage),
            ...(b.relationship.trim() ? { relationship: b.relationship.trim() } : {}),
          })),
        })
      : Promise.resolve(undefined),
    // This plan's own contract, built in memory by the service (nothing is stored until it is generated).
    api.tool<{
      estimate: Record<string, string>;
      contractCode?: string;
      figures?: Record<string, unknown>;
      gasPriceGwei?: number;
    }>('estimate_gas', {
      blockchain: form.blockchain,
      plan: planOf(form),
    }),
  ]);
  const review: Review = {
    warnings: valid.ok ? valid.data.warnings : [],
    findings: law?.ok ? law.data.findings : [],
    gas: gas.ok ? gas.data.estimate : null,
    code: gas.ok ? (gas.data.contractCode ?? null) : null,
  };
  if (gas.ok && form.blockchain === 'evm' && typeof gas.data.gasPriceGwei === 'number' && gas.data.figures) {
    review.gasFigures = Object.fromEntries(
      Object.entries(gas.data.figures).map(([k, v]) => [k, typeof v === 'number' ? v : null]),
    );
    review.gasPriceGwei = gas.data.gasPriceGwei;
  }
  const coins = gas.ok ? coinFiguresOf(form.blockchain, gas.data.figures) : undefined;
  if (coins) review.coinFigures = coins;
  return valid.ok ? { review } : { review, problem: valid.error };
}

/** A TON or Solana estimate's raw figures, when the answer has them all (an older service may not). */
export function coinFiguresOf(
  blockchain: string,
  figures: Record<string, unknown> | undefined,
): CoinFigures | undefined {
  const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  const ops = (v: unknown) => {
    const o = (v ?? {}) as Record<string, unknown>;
    return isNum(o['deployment']) && isNum(o['claim']) && isNum(o['update'])
      ? { deployment: o['deployment'], claim: o['claim'], update: o['update'] }
      : undefined;
  };
  if (blockchain === 'ton') {
    const units = ops(figures?.['nanoton']);
    return units ? { coin: 'TON', units } : undefined;
  }
  if (blockchain === 'solana') {
    const units = ops(figures?.['lamports']);
    if (!units) return undefined;
    const cu = (figures?.['computeUnits'] as Record<string, unknown> | undefined)?.['claim'];
    const perAdded = figures?.['lamportsPerAddedBeneficiary'];
    return {
      coin: 'SOL',
      units,
      ...(isNum(cu) ? { claimComputeUnits: cu } : {}),
      ...(isNum(perAdded) ? { perAddedBeneficiary: perAdded } : {}),
    };
  }
  return undefined;
}

export function generateContract(api: WizardApi, form: Form) {
  return api.tool<Result>('generate_contract', planOf(form));
}
