import { systemClock } from '../core/clock.js';
import { hasUnsafeNameChars, headerText, NAME_CHARS_REASON } from '../core/names.js';
import type { ApiKeyRecord } from '../keys/keys.js';
import type { ApiKeyView } from '../keys/manage.js';
import { TIERS, type Tier } from '../accounts/scopes.js';
import { TIER_RANK } from '../accounts/records.js';
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
    if (hasUnsafeNameChars(name)) throw new UsageError(`--name ${NAME_CHARS_REASON}`);
    const account = (values.account ?? values.owner) as string | undefined;
    const [{ createKey }, { accountExists, callApi }] = await Promise.all([
      import('../keys/provision.js'),
      import('../admin.js'),
    ]);
    await adminRun(
      values,
      async (services, operator) => {
        const ownerId = account ?? operator.ownerId;
        const owner = await accountExists(services.store, ownerId);
        if (!owner) throw new UsageError(`no account ${ownerId} (see svc accounts list)`);
        // As create_account_key through the API: an account's tier caps its keys (an internal key in a customer's
        // account would make the customer an operator).
        if (TIER_RANK[tier as Tier] > TIER_RANK[owner.tier])
          throw new UsageError(`the account is ${owner.tier} tier, which caps its keys at ${owner.tier}`);
        const { record, key } = await createKey(
          services.store,
          { name, tier: tier as Tier, scopes, ownerId },
          systemClock,
        );
        print(
          values,
          { id: record.id, key, name, tier, scopes: record.scopes, ownerId: record.ownerId },
          keyText(record, key),
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
