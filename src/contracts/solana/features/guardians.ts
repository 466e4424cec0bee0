import { GUARDIAN_WAIT_DAYS_MAX, GUARDIAN_WAIT_DAYS_MIN, MAX_VETOES_LIMIT } from '../../guardians.js';
import { T, type AccountField } from '../model.js';
import {
  E,
  errors,
  ev,
  now,
  ownerSigner,
  ownerVault,
  publicVault,
  systemProgram,
  type InstructionPair,
  type SolanaProgramBuilder,
} from '../builder.js';

const guardianBound = {
  k: 'constraint',
  expr: 'vault.guardian_index(&guardian.key()).is_some()',
  error: E('NotGuardian'),
} as const;

const guardianSigner: AccountField = {
  name: 'guardian',
  doc: ['One of the guardians.'],
  type: { kind: 'signer' },
  constraints: [],
};

/**
 * Guardians (m of n): they confirm the owner's absence, which opens the
 * claims the plan's wait (`guardian_wait`) later unless the owner acts first;
 * with the switch they may also veto a wrong trigger during the grace period,
 * at most the plan's `max_vetoes` times after the owner's last sign of life.
 * Both are set at initialization within bounds the program checks.
 */
export function addGuardians(b: SolanaProgramBuilder): void {
  if (!b.s.multiSig) return;
  const sw = b.s.deadMansSwitch;
  addDeclarations(b);
  b.initArgs.push(
    { name: 'guardians', type: T.vec(T.pubkey), doc: ['1 to 10 guardians.'] },
    { name: 'threshold', type: T.u8, doc: ['Guardians needed to confirm (m of n).'] },
    {
      name: 'guardian_wait_days',
      type: T.u16,
      doc: ["Days of the owner's silence before the guardians' early release opens the claims (7 to 365)."],
    },
    ...(sw
      ? [{ name: 'max_vetoes', type: T.u8, doc: ["Vetoes allowed after each of the owner's signs of life (0 to 10)."] }]
      : []),
  );
  b.vaultFields.push(
    { name: 'threshold', type: T.u8 },
    { name: 'release_approvals', type: T.u16, doc: ['Bit i set: guardian i confirmed release.'] },
    {
      name: 'early_release_at',
      type: T.i64,
      doc: ["When the guardians' early release opens the claims (0: none); any owner action clears it."],
    },
    {
      name: 'guardian_wait',
      type: T.i64,
      doc: ["Seconds of the owner's silence before the guardians' early release opens the claims (the plan's)."],
    },
    ...(sw
      ? [
          { name: 'veto_votes', type: T.u16, doc: ['Bit i set: guardian i vetoed the trigger.'] },
          {
            name: 'vetoes_used',
            type: T.u8,
            doc: ["Vetoes that postponed the release since the owner's last sign of life."],
          },
          {
            name: 'max_vetoes',
            type: T.u8,
            doc: ["Vetoes allowed after each of the owner's signs of life (the plan's)."],
          },
        ]
      : []),
    { name: 'guardians', type: T.vec(T.pubkey) },
  );
  b.vaultVectors.push({ name: 'guardians', size: 32 });
  b.init.docs.push(' and guardians');
  b.init.checks.push(
    'validate_guardians(&args.guardians, args.threshold, &owner)?;',
    `require!(args.guardian_wait_days >= MIN_GUARDIAN_WAIT_DAYS && args.guardian_wait_days <= MAX_GUARDIAN_WAIT_DAYS, ${E('InvalidGuardianWait')});`,
    ...(sw ? [`require!(args.max_vetoes <= MAX_VETO_LIMIT, ${E('InvalidVetoLimit')});`] : []),
  );
  b.init.fields.push(
    'vault.threshold = args.threshold;',
    'vault.release_approvals = 0;',
    'vault.early_release_at = 0;',
    'vault.guardian_wait = i64::from(args.guardian_wait_days) * 86_400;',
    ...(sw ? ['vault.veto_votes = 0;', 'vault.vetoes_used = 0;', 'vault.max_vetoes = args.max_vetoes;'] : []),
    'vault.guardians = args.guardians.clone();',
  );
  b.proofOfLife.docs.push(
    "; pending guardian votes and the guardians' early release are cleared" +
      (sw ? ', and the vetoes are given back' : ''),
  );
  b.proofOfLife.body.push(
    'self.release_approvals = 0;',
    'self.early_release_at = 0;',
    ...(sw ? ['self.veto_votes = 0;', 'self.vetoes_used = 0;'] : []),
  );
  b.claimsOpen.docs.push(", or the guardians' early release came and the owner stayed silent until then");
  b.claimsOpen.prelude.push('let by_guardians = self.early_release_at > 0 && now >= self.early_release_at;');
  b.claimsOpen.early = 'by_guardians';
  b.ownerWindowOpen.conds.push('!self.claims_open(now)');
  b.ownerWindowOpen.docs.push(", and no guardians' early release took effect");
  b.releaseDoc.push(
    "Guardians confirm the owner's absence with `confirm_release` (m of n); the claims open the plan's wait (`guardian_wait`) later unless the owner acts first." +
      (sw
        ? " Vetoes postpone a release at most the plan's `max_vetoes` times after the owner's last sign of life."
        : ''),
  );
  b.add('vaultFns', 'guardians', {
    name: 'guardian_index',
    doc: [],
    pub: true,
    params: '&self, key: &Pubkey',
    ret: 'Option<usize>',
    body: ['self.guardians.iter().position(|g| g == key)'],
  });
  b.add('helpers', 'guardians', {
    name: 'validate_guardians',
    doc: ['1 to 10 distinct guardians other than the owner, threshold 1..=n.'],
    pub: false,
    params: 'list: &[Pubkey], threshold: u8, owner: &Pubkey',
    ret: 'Result<()>',
    body: [
      `require!(!list.is_empty() && list.len() <= MAX_GUARDIANS, ${E('InvalidGuardians')});`,
      {
        head: 'for (i, g) in list.iter().enumerate()',
        body: [`require!(*g != Pubkey::default() && g != owner && !list[..i].contains(g), ${E('InvalidGuardians')});`],
      },
      `require!(threshold >= 1 && usize::from(threshold) <= list.len(), ${E('InvalidThreshold')});`,
      'Ok(())',
    ],
  });
  b.add('instructions', 'guardians.release', confirmRelease(), ...(sw ? [veto()] : []));
  b.add('instructions', 'guardians.update', updateGuardians(b));
}

function addDeclarations(b: SolanaProgramBuilder): void {
  const sw = b.s.deadMansSwitch;
  b.add(
    'consts',
    'guardians',
    { name: 'MAX_GUARDIANS', type: 'usize', value: '10' },
    {
      name: 'MIN_GUARDIAN_WAIT_DAYS',
      type: 'u16',
      value: String(GUARDIAN_WAIT_DAYS_MIN),
      doc: ['Shortest guardian wait a plan may set, in days.'],
    },
    {
      name: 'MAX_GUARDIAN_WAIT_DAYS',
      type: 'u16',
      value: String(GUARDIAN_WAIT_DAYS_MAX),
      doc: ['Longest guardian wait a plan may set, in days.'],
    },
  );
  if (sw)
    b.add('consts', 'guardians', {
      name: 'MAX_VETO_LIMIT',
      type: 'u8',
      value: String(MAX_VETOES_LIMIT),
      doc: ['Most vetoes a plan may allow after each sign of life of the owner.'],
    });
  b.add(
    'errors',
    'guardians',
    ...errors(
      ['InvalidGuardians', 'Guardians must be 1 to 10 distinct keys other than the owner'],
      ['InvalidThreshold', 'The threshold must be between 1 and the number of guardians'],
      ['NotGuardian', 'The signer is not a guardian'],
      ['InvalidGuardianWait', 'The guardian wait must be between 7 and 365 days'],
    ),
  );
  if (sw) {
    b.add(
      'errors',
      'guardians',
      ...errors(
        ['NotInGracePeriod', 'Vetoes are only possible during the grace period'],
        [
          'VetoLimitReached',
          "The guardians already postponed the release the most times allowed since the owner's last sign of life",
        ],
        ['InvalidVetoLimit', 'The veto bound must be at most 10'],
      ),
    );
  }
  if (sw)
    b.add(
      'events',
      'guardians',
      ev('TriggerVetoed', 'Guardians vetoed the trigger.', [{ name: 'deadline', type: T.i64 }]),
    );
  b.add(
    'events',
    'guardians',
    ev('GuardiansUpdated', 'The owner replaced the guardians.', [{ name: 'threshold', type: T.u8 }]),
    ev('ReleaseApproved', 'A guardian approved an early release (approvals is the vote mask).', [
      { name: 'guardian', type: T.pubkey },
      { name: 'approvals', type: T.u16 },
    ]),
    ev(
      'ReleaseProposed',
      "The guardians' quorum proposed an early release; it opens the claims at release_at unless the owner acts first.",
      [{ name: 'release_at', type: T.i64 }],
    ),
  );
  if (sw) {
    b.add(
      'events',
      'guardians',
      ev('VetoCast', 'A guardian vetoed the trigger during the grace period (votes is the vote mask).', [
        { name: 'guardian', type: T.pubkey },
        { name: 'votes', type: T.u16 },
      ]),
    );
  }
}

function confirmRelease(): InstructionPair {
  return {
    ix: {
      name: 'confirm_release',
      doc: [
        "A guardian confirms the owner's absence; at the threshold an early release is proposed, which opens the claims",
        "the plan's wait (guardian_wait) later unless the owner acts first (any owner instruction cancels it): guardians never overrule a living owner.",
      ],
      accounts: 'ConfirmRelease',
      args: [],
      body: [
        ...now,
        'let guardian = ctx.accounts.guardian.key();',
        'let vault = &mut ctx.accounts.vault;',
        `require!(vault.status != VaultStatus::Released && !vault.claims_open(now), ${E('AlreadyReleased')});`,
        `let index = vault.guardian_index(&guardian).ok_or(${E('NotGuardian')})?;`,
        'vault.release_approvals |= 1u16 << index;',
        'emit!(ReleaseApproved { vault: vault.key(), guardian, approvals: vault.release_approvals });',
        {
          head: 'if vault.release_approvals.count_ones() >= u32::from(vault.threshold) && vault.early_release_at == 0',
          body: [
            'vault.early_release_at = now.saturating_add(vault.guardian_wait);',
            'emit!(ReleaseProposed { vault: vault.key(), release_at: vault.early_release_at });',
          ],
        },
        'Ok(())',
      ],
    },
    accounts: { doc: [], instructionArgs: [], fields: [guardianSigner, publicVault(true, [guardianBound])] },
  };
}

function veto(): InstructionPair {
  return {
    ix: {
      name: 'veto',
      doc: [
        "During the grace period, guardians can veto a wrong trigger; at the threshold the deadline restarts, at most the plan's max_vetoes times after the owner's last sign of life.",
      ],
      accounts: 'Veto',
      args: [],
      body: [
        ...now,
        'let guardian = ctx.accounts.guardian.key();',
        'let vault = &mut ctx.accounts.vault;',
        `require!(vault.status == VaultStatus::Triggered && !vault.claims_open(now), ${E('NotInGracePeriod')});`,
        `require!(vault.vetoes_used < vault.max_vetoes, ${E('VetoLimitReached')});`,
        `let index = vault.guardian_index(&guardian).ok_or(${E('NotGuardian')})?;`,
        'vault.veto_votes |= 1u16 << index;',
        'emit!(VetoCast { vault: vault.key(), guardian, votes: vault.veto_votes });',
        {
          head: 'if vault.veto_votes.count_ones() >= u32::from(vault.threshold)',
          body: [
            'vault.status = VaultStatus::Active;',
            'vault.triggered_at = 0;',
            'vault.last_check_in = now;',
            'vault.veto_votes = 0;',
            'vault.vetoes_used += 1;',
            'emit!(TriggerVetoed { vault: vault.key(), deadline: vault.deadline() });',
          ],
        },
        'Ok(())',
      ],
    },
    accounts: { doc: [], instructionArgs: [], fields: [guardianSigner, publicVault(true, [guardianBound])] },
  };
}

function updateGuardians(b: SolanaProgramBuilder): InstructionPair {
  const args = [
    { name: 'guardians', type: T.vec(T.pubkey) },
    { name: 'threshold', type: T.u8 },
  ];
  return {
    ix: {
      name: 'update_guardians',
      doc: [`The owner replaces the guardians and threshold ${b.ownerWindow}; approvals restart.`],
      accounts: 'UpdateGuardians',
      args,
      body: [
        'validate_guardians(&guardians, threshold, &ctx.accounts.owner.key())?;',
        ...now,
        'let vault = &mut ctx.accounts.vault;',
        `require!(vault.owner_window_open(now), ${E('OwnerWindowClosed')});`,
        'vault.prove_life(now);',
        'vault.guardians = guardians;',
        'vault.threshold = threshold;',
        'emit!(GuardiansUpdated { vault: vault.key(), threshold });',
        'Ok(())',
      ],
    },
    accounts: {
      doc: [],
      instructionArgs: args,
      fields: [
        ownerSigner('The owner; pays or receives the rent difference.'),
        ownerVault(true, [
          {
            k: 'realloc',
            space: 'Vault::space(vault.beneficiaries.len(), guardians.len()).max(vault.to_account_info().data_len())',
            payer: 'owner',
            zero: false,
          },
        ]),
        systemProgram,
      ],
    },
  };
}
