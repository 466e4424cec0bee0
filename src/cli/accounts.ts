import { systemClock } from '../core/clock.js';
import { headerText } from '../core/names.js';
import type { AccountView } from '../accounts/accounts.js';
import type { AccountRecord } from '../accounts/records.js';
import { ADMIN_OPTIONS, adminRun, allPages, parse, parseScopes, print, UsageError } from './shared.js';

export async function accounts(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'create') {
    const { values } = parse(rest, {
      ...ADMIN_OPTIONS,
      name: { type: 'string' },
      tier: { type: 'string' },
      email: { type: 'string' },
      scopes: { type: 'string' },
    });
    const name = (values.name as string | undefined)?.trim();
    if (!name) throw new UsageError('--name is required');
    const tier = values.tier as string | undefined;
    if (tier !== 'partner' && tier !== 'public') throw new UsageError('--tier must be partner or public');
    const input = {
      name,
      tier,
      ...(values.email ? { email: values.email as string } : {}),
      ...(values.scopes ? { keyScopes: parseScopes(values.scopes as string) } : {}),
    };
    const [{ createAccount, CreateAccountInput }, { zodDetails }, { callApi }] = await Promise.all([
      import('../keys/provision.js'),
      import('../tools/invoke.js'),
      import('../admin.js'),
    ]);
    const done = (out: { account: { id: string; name: string; tier: string }; apiKey: { id: string }; key: string }) =>
      print(
        values,
        { account: out.account, keyId: out.apiKey.id, key: out.key },
        `Created ${out.account.tier} account ${out.account.id} (${headerText(out.account.name)}) and its first key ${out.apiKey.id}.\n` +
          `The key is shown only this once:\n${out.key}\n`,
      );
    await adminRun(
      values,
      async (services, operator) => {
        const parsed = CreateAccountInput.safeParse(input);
        if (!parsed.success)
          throw new UsageError(
            zodDetails(parsed.error, input)
              .map((d) => `${d.field}: ${d.reason}`)
              .join('; '),
          );
        done(await createAccount({ system: services.store, clock: systemClock }, operator, parsed.data));
      },
      async (url, apiKey) =>
        done((await callApi(url, apiKey, 'POST', '/api/v1/accounts', input)).data as Parameters<typeof done>[0]),
    );
    return;
  }
  if (sub === 'list') {
    const { values } = parse(rest, ADMIN_OPTIONS);
    const [{ accountView }, { ACCOUNTS }] = await Promise.all([
      import('../accounts/accounts.js'),
      import('../accounts/records.js'),
    ]);
    const show = (list: AccountView[]) => {
      if (values.json) process.stdout.write(JSON.stringify(list) + '\n');
      else
        for (const a of list)
          process.stdout.write(
            `${a.id}  ${a.kind.padEnd(8)}  ${a.tier.padEnd(8)}  ${a.status.padEnd(9)}  ${headerText(a.name)}\n`,
          );
    };
    await adminRun(
      values,
      async (services) => show((await services.store.all<AccountRecord>(ACCOUNTS)).map(accountView)),
      async (url, apiKey) => show(await allPages<AccountView>(url, apiKey, '/api/v1/accounts')),
    );
    return;
  }
  if (sub === 'set-quota') {
    const { values } = parse(rest, { ...ADMIN_OPTIONS, account: { type: 'string' }, bytes: { type: 'string' } });
    const account = values.account as string | undefined;
    if (!account) throw new UsageError('--account is required (see svc accounts list)');
    const bytes = values.bytes as string | undefined;
    if (bytes !== 'default' && !(bytes && /^\d+$/.test(bytes) && Number.isSafeInteger(Number(bytes)))) {
      throw new UsageError('--bytes must be a whole number of bytes, or "default" for the server\'s default');
    }
    const input = { id: account, storageQuotaBytes: bytes === 'default' ? null : Number(bytes) };
    const [{ updateAccount, UpdateAccountInput }, { zodDetails }, { ApiCallError, callApi }, { ApiError }] =
      await Promise.all([
        import('../accounts/accounts.js'),
        import('../tools/invoke.js'),
        import('../admin.js'),
        import('../core/errors.js'),
      ]);
    const parsed = UpdateAccountInput.safeParse(input);
    if (!parsed.success)
      throw new UsageError(
        zodDetails(parsed.error, input)
          .map((d) => `--${d.field === 'id' ? 'account' : 'bytes'}: ${d.reason}`)
          .join('; '),
      );
    const done = (out: AccountView) =>
      print(
        values,
        out,
        `Account ${out.id} may store ${out.storageQuotaBytes === null ? "the server's default number of" : out.storageQuotaBytes} bytes.\n`,
      );
    await adminRun(
      values,
      async (services, operator) => {
        try {
          done(await updateAccount({ system: services.store, clock: systemClock }, operator, parsed.data));
        } catch (err) {
          if (err instanceof ApiError) throw new ApiCallError(`${err.code}: ${err.message}`);
          throw err;
        }
      },
      async (url, apiKey) =>
        done(
          (
            await callApi(url, apiKey, 'PATCH', `/api/v1/accounts/${encodeURIComponent(account)}`, {
              storageQuotaBytes: input.storageQuotaBytes,
            })
          ).data as AccountView,
        ),
    );
    return;
  }
  throw new UsageError(
    sub
      ? `unknown accounts command "${sub}" (use create, list or set-quota)`
      : 'accounts needs a command: create, list or set-quota',
  );
}
