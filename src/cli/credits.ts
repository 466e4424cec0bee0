import { systemClock } from '../core/clock.js';
import { ADMIN_OPTIONS, adminRun, parse, print, UsageError } from './shared.js';

export async function credits(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'grant')
    throw new UsageError(
      sub && !sub.startsWith('-') ? `unknown credits command "${sub}" (use grant)` : 'credits needs a command: grant',
    );
  const { values } = parse(rest, {
    ...ADMIN_OPTIONS,
    account: { type: 'string' },
    amount: { type: 'string' },
    reason: { type: 'string' },
    'idempotency-key': { type: 'string' },
  });
  const account = values.account as string | undefined;
  if (!account) throw new UsageError('--account is required (see svc accounts list)');
  const amountText = values.amount as string | undefined;
  if (!amountText || !/^-?\d+$/.test(amountText))
    throw new UsageError(
      '--amount must be a whole number of credits, e.g. --amount 100 (or --amount=-20 to take credits back)',
    );
  const body = {
    amount: Number(amountText),
    reason: (values.reason as string | undefined) ?? '',
    ...(values['idempotency-key'] ? { idempotencyKey: values['idempotency-key'] as string } : {}),
  };
  const [{ creditsText, grantCredits, GrantCreditsInput }, { zodDetails }, { ApiCallError, callApi }, { ApiError }] =
    await Promise.all([
      import('../credits/ledger.js'),
      import('../tools/invoke.js'),
      import('../admin.js'),
      import('../core/errors.js'),
    ]);
  const input = { id: account, ...body };
  const parsed = GrantCreditsInput.safeParse(input);
  if (!parsed.success)
    throw new UsageError(
      zodDetails(parsed.error, input)
        .map((d) => `--${d.field === 'id' ? 'account' : d.field}: ${d.reason}`)
        .join('; '),
    );
  const done = (out: { entry: { id: string; amount: number }; balance: number; replayed: boolean }) =>
    print(
      values,
      out,
      out.replayed
        ? `Already granted with this idempotency key (entry ${out.entry.id}); nothing more was granted. Balance of ${account}: ${out.balance}.\n`
        : `${out.entry.amount >= 0 ? 'Granted' : 'Took back'} ${creditsText(Math.abs(out.entry.amount))} (entry ${out.entry.id}). Balance of ${account}: ${out.balance}.\n`,
    );
  await adminRun(
    values,
    async (services, operator) => {
      try {
        done(await grantCredits(services.store, systemClock, parsed.data, operator.keyId));
      } catch (err) {
        if (err instanceof ApiError) throw new ApiCallError(`${err.code}: ${err.message}`);
        throw err;
      }
    },
    async (url, apiKey) =>
      done(
        (await callApi(url, apiKey, 'POST', `/api/v1/accounts/${encodeURIComponent(account)}/credits`, body))
          .data as Parameters<typeof done>[0],
      ),
  );
}
