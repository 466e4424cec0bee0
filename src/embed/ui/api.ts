/** The wizard's calls to the svc REST API, with the page's embed token. */

export interface ApiProblem {
  status: number;
  code: string;
  message: string;
  details: Array<{ field: string; reason: string }>;
}

export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: ApiProblem };

export class Api {
  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiResult<T>> {
    let res: Response;
    try {
      res = await fetch(this.base + path, {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        credentials: 'omit',
      });
    } catch {
      return { ok: false, error: { status: 0, code: 'NETWORK_ERROR', message: 'The service could not be reached. Check the connection and try again.', details: [] } };
    }
    let json: Record<string, unknown>;
    try {
      json = (await res.json()) as Record<string, unknown>;
    } catch {
      return { ok: false, error: { status: res.status, code: 'INTERNAL_ERROR', message: `Unexpected answer (HTTP ${res.status}).`, details: [] } };
    }
    if (json.success === true) return { ok: true, data: json as T };
    const err = (json.error ?? {}) as Partial<ApiProblem>;
    return { ok: false, error: { status: res.status, code: err.code ?? 'INTERNAL_ERROR', message: err.message ?? 'Request failed.', details: err.details ?? [] } };
  }
}
