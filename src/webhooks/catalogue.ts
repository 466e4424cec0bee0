/**
 * Every webhook event name, with its group. `emitted` says whether some
 * operation of this service sends it today; the others are accepted in
 * subscriptions so that a subscriber can register ahead of time.
 */
export interface EventType {
  type: string;
  group: string;
  description: string;
  emitted: boolean;
}

/** Subscribes to every event type. */
export const WILDCARD = '*';

const t = (type: string, group: string, description: string, emitted = false): EventType => ({
  type,
  group,
  description,
  emitted,
});

export const EVENT_CATALOGUE: EventType[] = [
  t('contract.generated', 'contract', 'An inheritance contract was generated.', true),
  t('contract.compiled', 'contract', 'Contract source was compiled to ABI and bytecode.', true),
  t(
    'contract.deployed',
    'contract',
    'A registered deployment was found on chain matching its contract (data: contractId, deploymentId, ' +
      'contractAddress, transactionHash, network, blockNumber, deployer).',
    true,
  ),
  t(
    'contract.verified',
    'contract',
    "A deployment's code and constructor arguments were verified against the chain by this service (same data).",
    true,
  ),
  t(
    'contract.error',
    'contract',
    'Generating or compiling a contract failed, or a registered deployment differs from its contract ' +
      '(data: contractId, deploymentId, network, contractAddress, differences).',
    true,
  ),
  t('vault.created', 'vault', 'A vault was created.'),
  t('vault.updated', 'vault', 'A vault was updated.'),
  t('vault.deleted', 'vault', 'A vault was deleted.'),
  t('vault.accessed', 'vault', 'A vault was accessed.'),
  t(
    'verification.started',
    'verification',
    "A reported dead man's switch trigger started a waiting period before a memoir opens to heirs (data: planId, startedAt, endsAt, memoirSharesScheduled).",
    true,
  ),
  t(
    'verification.complete',
    'verification',
    'The waiting period ended with no sign of life of the owner: the shares open (data: planId, startedAt, endsAt, memoirSharesOpened).',
    true,
  ),
  t(
    'verification.failed',
    'verification',
    'A sign of life of the owner ended the waiting period, or the plan became watched on chain: the shares stay closed (data: planId, startedAt, reason: check-in, sign-in, key, session or watched, memoirSharesCancelled).',
    true,
  ),
  t('verification.expired', 'verification', 'A verification expired before completion.'),
  t(
    'payment.initiated',
    'payment',
    'A credit purchase started: a checkout session or an automatic reload (data: kind, packType, credits, amount, currency).',
    true,
  ),
  t(
    'payment.completed',
    'payment',
    'A payment completed and its credits were added (data: kind, credits, amount, currency, balance).',
    true,
  ),
  t(
    'payment.failed',
    'payment',
    'A payment failed or a checkout expired (data: kind, reason; automatic reloads: consecutiveFailures, autoReloadDisabled).',
    true,
  ),
  t(
    'payment.refunded',
    'payment',
    'A payment was refunded and its credits reversed (data: refundedAmount, creditsReversed, shortfall).',
    true,
  ),
  t(
    'credits.low_balance',
    'credits',
    'A debit took the credit balance below a threshold (data: balance, threshold, autoReload).',
    true,
  ),
  t(
    'deadman.warning',
    'deadman',
    "A dead man's switch deadline is approaching: sent by the chain watcher once per lead time and deadline, when " +
      'the lead time is crossed (data: deploymentId, contractId, network, contractAddress, blockNumber, blockTime, ' +
      'deadline, daysLeft: the whole days left at blockTime, rounded down, leadDays: the lead time crossed); once ' +
      "when the watcher reads an early release the contract's guardians proposed (deadline: when it takes effect " +
      'unless the owner shows a sign of life first, daysLeft, guardians: true, no leadDays); or reported for a plan ' +
      'nobody watches.',
    true,
  ),
  t(
    'deadman.triggered',
    'deadman',
    "A dead man's switch fired: read on chain by the watcher when the contract became claimable (data: deploymentId, " +
      'contractId, network, contractAddress, blockNumber, blockTime, deadline), or reported for a plan nobody watches.',
    true,
  ),
  t(
    'deadman.reset',
    'deadman',
    "The dead man's switch was reset: read on chain by the watcher (data: deploymentId, contractId, network, " +
      "contractAddress, blockNumber, blockTime, lastCheckIn, deadline, by: 'owner' when the owner checked in, " +
      "'guardians' when their quorum vetoed a trigger in the grace period, with vetoesLeft), or reported (the owner).",
    true,
  ),
  t(
    'deadman.cancelled',
    'deadman',
    'The owner cancelled the contract on chain, read by the watcher, once: it is never released, and no warning is ' +
      'sent for it any more (data: deploymentId, contractId, network, contractAddress, blockNumber, blockTime, ' +
      'lastCheckIn: the last owner action the contract counts, the cancel itself on generated contracts).',
    true,
  ),
  t(
    'deadman.claimed',
    'deadman',
    'A beneficiary claimed from a released contract, read on chain by the watcher, once per claim (data: ' +
      'deploymentId, contractId, network, contractAddress, blockNumber, blockTime, beneficiary, asset: ' +
      "'native', 'erc20', 'erc721' or 'jetton'; native, erc20 and jetton: amount, the claimed amount in the " +
      'smallest unit as a decimal string; erc20 and erc721: token, the token contract, and transactionHash; ' +
      'jetton: token, the jetton master; erc721: tokenId and recipient, where the NFT was sent).',
    true,
  ),
  t('user.created', 'account', 'A user registered (data: id, accountId).', true),
  t('user.updated', 'account', 'A user changed (data: id, changed: the fields, e.g. password).', true),
  t('api_key.created', 'account', 'An API key was created.', true),
  t('api_key.revoked', 'account', 'An API key was revoked.', true),
  t('test.webhook', 'test', 'Sent by the test endpoint to one subscription.', true),
];

export const EVENT_TYPES: ReadonlySet<string> = new Set(EVENT_CATALOGUE.map((e) => e.type));

/** Whether a subscription's `events` list matches an event type. */
export function subscribes(events: readonly string[], type: string): boolean {
  return events.includes(WILDCARD) || events.includes(type);
}
