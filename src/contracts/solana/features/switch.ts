import { T } from '../model.js';
import { E, errors, ev, now, ownerSigner, ownerVault, publicVault, type SolanaProgramBuilder } from '../builder.js';

/**
 * How the vault is released without the guardians: the dead man's switch
 * (after the interval without a check-in anyone may `trigger`, and claims open
 * after the grace period), or, without a switch, the owner's `release`.
 */
export function addSwitch(b: SolanaProgramBuilder): void {
  if (b.s.deadMansSwitch) addDeadMansSwitch(b);
  else addOwnerRelease(b);
}

function addDeadMansSwitch(b: SolanaProgramBuilder): void {
  const ms = b.s.multiSig;
  b.ownerWindow = 'before the deadline';
  b.add(
    'consts',
    'switch',
    { name: 'SECONDS_PER_DAY', type: 'i64', value: '86_400' },
    { name: 'MAX_INTERVAL_DAYS', type: 'u32', value: '3_650' },
    { name: 'MAX_GRACE_DAYS', type: 'u32', value: '365' },
  );
  b.add(
    'errors',
    'switch',
    ...errors(
      ['InvalidInterval', 'The interval must be 1 to 3650 days'],
      ['InvalidGracePeriod', 'The grace period must be 0 to 365 days'],
      ['NotActive', 'The vault is not active'],
      ['DeadlineNotReached', 'The check-in deadline has not passed'],
    ),
  );
  b.add('events', 'switch', ev('CheckedIn', 'The owner checked in.', [{ name: 'deadline', type: T.i64 }]));
  b.initArgs.push(
    { name: 'interval_days', type: T.u32, doc: ['Days after the last check-in before the switch may trigger.'] },
    { name: 'grace_period_days', type: T.u32, doc: ['Days after a trigger before claims open.'] },
  );
  b.vaultFields.push(
    { name: 'last_check_in', type: T.i64 },
    { name: 'interval_seconds', type: T.i64 },
    { name: 'grace_seconds', type: T.i64 },
    { name: 'triggered_at', type: T.i64 },
  );
  b.init.docs.push(', interval and grace period');
  b.init.checks.push(
    `require!(args.interval_days >= 1 && args.interval_days <= MAX_INTERVAL_DAYS, ${E('InvalidInterval')});`,
    `require!(args.grace_period_days <= MAX_GRACE_DAYS, ${E('InvalidGracePeriod')});`,
  );
  b.init.fields.push(
    'vault.last_check_in = now;',
    'vault.interval_seconds = i64::from(args.interval_days) * SECONDS_PER_DAY;',
    'vault.grace_seconds = i64::from(args.grace_period_days) * SECONDS_PER_DAY;',
    'vault.triggered_at = 0;',
  );
  b.proofOfLife.docs.push(': the deadline becomes now + interval and a pending trigger is cancelled');
  b.proofOfLife.body.push('self.status = VaultStatus::Active;', 'self.triggered_at = 0;', 'self.last_check_in = now;');
  b.proofOfLife.usesNow = true;
  b.claimsOpen.doc = 'Released, or triggered and past the grace period';
  b.claimsOpen.afterGrace = 'now >= self.triggered_at.saturating_add(self.grace_seconds)';
  b.ownerWindowOpen.conds.push('now < self.deadline()');
  b.ownerWindowOpen.docs.push(' and the deadline has not passed');
  b.releaseDoc.push(
    'Release: after `interval_days` without a `check_in`, anyone calls `trigger`; claims open `grace_period_days` later.',
    'During the grace period the owner can still `check_in`' + (ms ? ' and the guardians can `veto` (m of n).' : '.'),
  );
  b.add('vaultFns', 'switch', {
    name: 'deadline',
    doc: ['Last check-in plus the interval.'],
    pub: true,
    params: '&self',
    ret: 'i64',
    body: ['self.last_check_in.saturating_add(self.interval_seconds)'],
  });
  addCheckInAndTrigger(b);
}

function addCheckInAndTrigger(b: SolanaProgramBuilder): void {
  b.add(
    'instructions',
    'switch',
    {
      ix: {
        name: 'check_in',
        doc: ['The owner proves to be alive: the deadline becomes now + interval, and a pending trigger is cancelled.'],
        accounts: 'CheckIn',
        args: [],
        body: [
          ...now,
          'let vault = &mut ctx.accounts.vault;',
          `require!(!vault.claims_open(now), ${E('AlreadyReleased')});`,
          'vault.prove_life(now);',
          'emit!(CheckedIn { vault: vault.key(), deadline: vault.deadline() });',
          'Ok(())',
        ],
      },
      accounts: { doc: [], instructionArgs: [], fields: [ownerSigner(), ownerVault(true)] },
    },
    {
      ix: {
        name: 'trigger',
        doc: ['Anyone may trigger the switch once the deadline has passed; claims open after the grace period.'],
        accounts: 'Trigger',
        args: [],
        body: [
          ...now,
          'let vault = &mut ctx.accounts.vault;',
          `require!(vault.status == VaultStatus::Active, ${E('NotActive')});`,
          `require!(now >= vault.deadline(), ${E('DeadlineNotReached')});`,
          'vault.status = VaultStatus::Triggered;',
          'vault.triggered_at = now;',
          'emit!(VaultReleased { vault: vault.key(), claims_open_at: now.saturating_add(vault.grace_seconds) });',
          'Ok(())',
        ],
      },
      accounts: {
        doc: [],
        instructionArgs: [],
        fields: [
          { name: 'caller', doc: ['Anyone; pays the fee.'], type: { kind: 'signer' }, constraints: [] },
          publicVault(true),
        ],
      },
    },
  );
}

function addOwnerRelease(b: SolanaProgramBuilder): void {
  b.releaseDoc.push(
    "Release: this plan has no dead man's switch; the owner (or an executor holding the owner key) calls `release`.",
  );
  b.add('instructions', 'switch', {
    ix: {
      name: 'release',
      doc: [
        "Without a dead man's switch the owner (or an executor holding the owner key) opens the claims" +
          (b.s.multiSig ? '; guardians can also do so with `confirm_release`.' : '.'),
      ],
      accounts: 'Release',
      args: [],
      body: [
        ...now,
        'let vault = &mut ctx.accounts.vault;',
        `require!(vault.status == VaultStatus::Active, ${E('AlreadyReleased')});`,
        'vault.status = VaultStatus::Released;',
        'vault.released_at = now;',
        'emit!(VaultReleased { vault: vault.key(), claims_open_at: now });',
        'Ok(())',
      ],
    },
    accounts: { doc: [], instructionArgs: [], fields: [ownerSigner(), ownerVault(true)] },
  });
}
