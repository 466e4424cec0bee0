import { systemClock } from '../core/clock.js';
import { headerText } from '../core/names.js';
import type { ApiKeyRecord } from '../keys/keys.js';
import type { ApiKeyView } from '../keys/manage.js';
import { TIERS } from '../accounts/scopes.js';
import { ADMIN_OPTIONS, adminRun, allPages, parse, parseScopes, print, UsageError } from './shared.js';

function keyText(
  k: { id: string; name: string; tier: string; scopes: string[]; ownerId: string },
  key: string,
): string {
  return `Created ${k.tier} key ${k.id} (${headerText(k.name)}), scopes ${k.scopes.join(',')}, account ${k.ownerId}.\nThe key is shown only this once:\n${key}\n`;
}

export async function keys(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'create') {
    const { values } = parse(rest, {
      ...ADMIN_OPTIONS,
      tier: { type: 'string' },
      scopes: { type: 'string' },
      name: { type: 'string' },
      account: { type: 'string' },
      owner: { type: 'string' },
    });
    const tier = values.tier as string | undefined;
    if (!tier) throw new UsageError(`--tier is required: one of ${TIERS.join(', ')}`);
    if (!(TIERS as readonly string[]).includes(tier))
      throw new UsageError(`--tier must be one of ${TIERS.join(', ')}, not ${JSON.stringify(tier)}`);
    const scopes = parseScopes(values.scopes as string | undefined);
    if (scopes.includes('all') && tier !== 'internal')
      throw new UsageError('the "all" scope is for internal keys only');
    const name = (values.name as string | undefined)?.trim();
    if (!name) throw new UsageError('--name is required');
    const account = (values.account ?? values.owner) as string | undefined;
    const [{ createAccountKey, CreateAccountKeyInput }, { zodDetails }, { apiErrorText, ApiCallError, callApi }] =
      await Promise.all([import('../keys/provision.js'), import('../tools/invoke.js'), import('../admin.js')]);
    await adminRun(
      values,
      async (services, operator) => {
        // As create_account_key through the API, with its checks: the name, and the account's tier capping its keys
        // (an internal key in a customer's account would make the customer an operator).
        const input = { id: account ?? operator.ownerId, name, tier, scopes };
        const parsed = CreateAccountKeyInput.safeParse(input);
        if (!parsed.success)
          throw new UsageError(
            zodDetails(parsed.error, input)
              .map((d) => `--${d.field.split('.')[0]} ${d.reason}`)
              .join('; '),
          );
        const { ApiError } = await import('../core/errors.js');
        const k = await createAccountKey({ system: services.store, clock: systemClock }, operator, parsed.data).catch(
          (err: unknown) => {
            throw err instanceof ApiError ? new ApiCallError(apiErrorText(err)) : err;
          },
        );
        print(
          values,
          { id: k.id, key: k.key, name: k.name, tier: k.tier, scopes: k.scopes, ownerId: k.ownerId },
          keyText(k, k.key),
        );
      },
      async (url, apiKey) => {
        const body = { name, tier, scopes };
        const { data } = account
          ? await callApi(url, apiKey, 'POST', `/api/v1/accounts/${encodeURIComponent(account)}/keys`, body)
          : await callApi(url, apiKey, 'POST', '/api/v1/api-keys', body);
        const k = data as { id: string; key: string; name: string; tier: string; scopes: string[]; ownerId: string };
        print(
          values,
          { id: k.id, key: k.key, name: k.name, tier: k.tier, scopes: k.scopes, ownerId: k.ownerId },
          keyText(k, k.key),
        );
      },
    );
    return;
  }
  if (sub === 'list') {
    const { values } = parse(rest, ADMIN_OPTIONS);
    const [{ API_KEYS }, { keyView }] = await Promise.all([import('../keys/keys.js'), import('../keys/manage.js')]);
    const show = (shown: ApiKeyView[]) => {
      if (values.json) process.stdout.write(JSON.stringify(shown) + '\n');
      else if (shown.length === 0) process.stdout.write('No API keys.\n');
      else {
        for (const r of shown) {
          const state = r.revokedAt
            ? 'revoked'
            : r.expiresAt && Date.parse(r.expiresAt) <= Date.now()
              ? 'expired'
              : 'active';
          process.stdout.write(
            `${r.id}  ${r.displayPrefix}…  ${r.tier.padEnd(8)}  ${state.padEnd(7)}  ${r.ownerId}  ${r.scopes.join(',')}  ${headerText(r.name)}\n`,
          );
        }
      }
    };
    await adminRun(
      values,
      async (services) => show((await services.store.all<ApiKeyRecord>(API_KEYS)).map(keyView)),
      async (url, apiKey) => show(await allPages<ApiKeyView>(url, apiKey, '/api/v1/api-keys')),
    );
    return;
  }
  throw new UsageError(
    sub ? `unknown keys command "${sub}" (use create or list)` : 'keys needs a command: create or list',
  );
}
