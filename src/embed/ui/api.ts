/**
 * How the wizard calls svc: by tool name and input, getting the tool's output
 * (the same structure as MCP structuredContent). Two ways:
 * - RestApi: the embeddable page, REST /api/v1 with the page's embed token;
 * - the MCP App (src/embed/app/): tools/call through the host's bridge, with the
 *   user's own MCP session, so no credential is in the page at all.
 */

export interface ApiProblem {
  status: number;
  code: string;
  message: string;
  details: Array<{ field: string; reason: string }>;
}

export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: ApiProblem };

/** The tools the wizard uses. */
export type WizardTool =
  | 'list_templates'
  | 'list_jurisdictions'
  | 'validate_plan'
  | 'check_plan'
  | 'estimate_gas'
  | 'generate_contract'
  | 'get_jurisdiction'
  | 'calculate_inheritance'
  | 'register_deployment';

export interface WizardApi {
  tool<T>(name: WizardTool, input: Record<string, unknown>): Promise<ApiResult<T>>;
}

/** The REST route of each tool, and how its output sits in the envelope (src/tools/define.ts, RestShape). */
const ROUTES: Record<WizardTool, { method: 'GET' | 'POST'; path: string; shape: 'top-level' | 'data' | 'list' }> = {
  list_templates: { method: 'GET', path: '/contracts/templates', shape: 'top-level' },
  list_jurisdictions: { method: 'GET', path: '/jurisdictions', shape: 'list' },
  validate_plan: { method: 'POST', path: '/contracts/validate', shape: 'data' },
  check_plan: { method: 'POST', path: '/inheritance/check', shape: 'data' },
  estimate_gas: { method: 'POST', path: '/contracts/estimate-gas', shape: 'top-level' },
  generate_contract: { method: 'POST', path: '/contracts/generate', shape: 'top-level' },
  get_jurisdiction: { method: 'GET', path: '/jurisdictions/:id', shape: 'data' },
  calculate_inheritance: { method: 'POST', path: '/inheritance/calculate', shape: 'data' },
  register_deployment: { method: 'POST', path: '/contracts/:id/deployments', shape: 'data' },
};

export const NETWORK_ERROR: ApiProblem = {
  status: 0,
  code: 'NETWORK_ERROR',
  message: 'The service could not be reached. Check the connection and try again.',
  details: [],
};

/** An error envelope's `error`, as an ApiProblem. */
export function problemOf(status: number, error: unknown): ApiProblem {
  const err = (error ?? {}) as Partial<ApiProblem>;
  return {
    status,
    code: err.code ?? 'INTERNAL_ERROR',
    message: err.message ?? 'Request failed.',
    details: err.details ?? [],
  };
}

export class RestApi implements WizardApi {
  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  async tool<T>(name: WizardTool, input: Record<string, unknown>): Promise<ApiResult<T>> {
    const route = ROUTES[name];
    // A `:name` in the path takes that input; the rest of a GET's input is its query.
    const params = { ...input };
    const routePath = route.path.replace(/:(\w+)/g, (_, k: string) => {
      const v = encodeURIComponent(String(params[k] ?? ''));
      delete params[k];
      return v;
    });
    const query =
      route.method === 'GET'
        ? new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()
        : '';
    let res: Response;
    try {
      res = await fetch(this.base + routePath + (query ? `?${query}` : ''), {
        method: route.method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(route.method === 'POST' ? { 'content-type': 'application/json' } : {}),
        },
        ...(route.method === 'POST' ? { body: JSON.stringify(params) } : {}),
        credentials: 'omit',
      });
    } catch {
      return { ok: false, error: NETWORK_ERROR };
    }
    let json: Record<string, unknown>;
    try {
      json = (await res.json()) as Record<string, unknown>;
    } catch {
      return {
        ok: false,
        error: {
          status: res.status,
          code: 'INTERNAL_ERROR',
          message: `Unexpected answer (HTTP ${res.status}).`,
          details: [],
        },
      };
    }
    if (json.success !== true) return { ok: false, error: problemOf(res.status, json.error) };
    const { success: _s, meta, ...rest } = json as { success: true; meta?: { pagination?: unknown }; data?: unknown };
    const data =
      route.shape === 'top-level'
        ? rest
        : route.shape === 'data'
          ? rest.data
          : { items: rest.data, pagination: meta?.pagination };
    return { ok: true, data: data as T };
  }
}
