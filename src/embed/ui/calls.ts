// The svc tool calls the wizard makes, with their answers narrowed to what the
// steps show. Each returns the API's result so the caller decides how to report.
import type { ApiProblem, ApiResult, WizardApi } from './api.js';
import { type Finding, type Form, num, planOf, type Result, type Review } from './form.js';

export interface Template {
  type: string;
  name: string;
  description: string;
}

export interface Jurisdiction {
  id: string;
  name: string;
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
          beneficiaries: form.beneficiaries.map((b) => ({
            name: b.name,
            percentage: num(b.percentage),
            ...(b.relationship.trim() ? { relationship: b.relationship.trim() } : {}),
          })),
        })
      : Promise.resolve(undefined),
    api.tool<{ estimate: Record<string, string> }>('estimate_gas', {
      blockchain: form.blockchain,
      ...(form.blockchain === 'solana' ? { beneficiaries: form.beneficiaries.length } : {}),
    }),
  ]);
  const review: Review = {
    warnings: valid.ok ? valid.data.warnings : [],
    findings: law?.ok ? law.data.findings : [],
    gas: gas.ok ? gas.data.estimate : null,
  };
  return valid.ok ? { review } : { review, problem: valid.error };
}

export function generateContract(api: WizardApi, form: Form) {
  return api.tool<Result>('generate_contract', planOf(form));
}
