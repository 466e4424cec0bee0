import { GUARDIAN_WAIT_DAYS_MAX, GUARDIAN_WAIT_DAYS_MIN, MAX_VETOES_LIMIT } from '../../guardians.js';
import { constant, fn, getter, ifThen, immutable, loop, p, variable, type EvmContractBuilder } from '../builder.js';

export const MAX_GUARDIANS = 10;

/**
 * Guardians (m of n): they confirm the owner's absence, which releases the
 * estate guardianWait() later unless the owner shows a sign of life first; with
 * a grace period they may also veto a wrong trigger, at most maxVetoes() times.
 * The wait and the veto bound are the plan's, fixed at deployment within
 * bounds the contract checks.
 */
export function addGuardians(b: EvmContractBuilder): void {
  if (!b.s.guardians) return;
  const G = b.s.gracePeriod;
  b.add(
    'constants',
    'guardians',
    constant('uint256', 'MAX_GUARDIANS', String(MAX_GUARDIANS), 'Upper bound on guardians.'),
    constant('uint256', 'MIN_GUARDIAN_WAIT', `${GUARDIAN_WAIT_DAYS_MIN} days`, 'Shortest wait the plan may set.'),
    constant('uint256', 'MAX_GUARDIAN_WAIT', `${GUARDIAN_WAIT_DAYS_MAX} days`, 'Longest wait the plan may set.'),
  );
  if (G)
    b.add(
      'constants',
      'guardians',
      constant('uint256', 'MAX_VETO_LIMIT', String(MAX_VETOES_LIMIT), 'Most vetoes the plan may allow.'),
    );
  b.add(
    'state',
    'guardians.immutable',
    immutable('uint256', '_threshold'),
    immutable(
      'uint256',
      '_guardianWait',
      "How long the owner has to answer the guardians' confirmed early release with any sign of life, which cancels it.",
    ),
  );
  if (G)
    b.add(
      'state',
      'guardians.immutable',
      immutable(
        'uint256',
        '_maxVetoes',
        "Vetoes that may postpone a release after the owner's last sign of life; then the release proceeds.",
      ),
    );
  b.add(
    'state',
    'guardians',
    variable('address[]', '_guardians'),
    variable('mapping(address => bool)', '_isGuardian'),
    variable('uint256', '_round'),
    variable('mapping(uint256 => mapping(address => bool))', '_releaseVoted'),
    variable('mapping(uint256 => uint256)', '_releaseVotes'),
    variable(
      'uint256',
      '_guardianReleaseAt',
      "When the guardians' confirmed early release takes effect (0: none); the owner's sign of life clears it.",
    ),
  );
  if (G) {
    b.add(
      'state',
      'guardians',
      variable('mapping(uint256 => mapping(address => bool))', '_vetoVoted'),
      variable('mapping(uint256 => uint256)', '_vetoVotes'),
      variable('uint256', '_vetoesUsed', "Vetoes that postponed the release since the owner's last sign of life."),
    );
  }
  b.add(
    'errors',
    'guardians',
    { name: 'NotGuardian', params: [], doc: 'Only a guardian may call this.' },
    { name: 'InvalidThreshold', params: [], doc: 'The threshold must be between 1 and the number of guardians.' },
    { name: 'AlreadyConfirmed', params: [], doc: 'This guardian already voted in this round.' },
    {
      name: 'InvalidGuardianWait',
      params: [],
      doc: 'The guardian wait must be between MIN_GUARDIAN_WAIT and MAX_GUARDIAN_WAIT.',
    },
  );
  if (G) {
    b.add(
      'errors',
      'guardians',
      { name: 'NotInGracePeriod', params: [], doc: 'A veto is only possible during the grace period.' },
      {
        name: 'VetoLimitReached',
        params: [],
        doc: "The guardians already postponed the release maxVetoes() times since the owner's last sign of life.",
      },
      { name: 'InvalidVetoLimit', params: [], doc: 'The veto bound must be at most MAX_VETO_LIMIT.' },
    );
  }
  b.add(
    'events',
    'guardians',
    {
      name: 'ReleaseConfirmed',
      params: [
        { type: 'address', name: 'guardian', indexed: true },
        p('uint256', 'round'),
        p('uint256', 'confirmations'),
      ],
      doc: 'A guardian confirmed an early release.',
    },
    {
      name: 'ReleaseProposed',
      params: [p('uint256', 'releaseAt')],
      doc: "The guardians' quorum confirmed an early release; it takes effect at releaseAt unless the owner shows a sign of life first.",
    },
  );
  if (G) {
    b.add('events', 'guardians', {
      name: 'TriggerVetoed',
      params: [{ type: 'address', name: 'guardian', indexed: true }, p('uint256', 'round'), p('uint256', 'vetoes')],
      doc: 'A guardian vetoed the trigger during the grace period.',
    });
  }
  b.add('modifiers', 'guardians', {
    name: 'onlyGuardian',
    params: [],
    body: [ifThen('!_isGuardian[msg.sender]', 'revert NotGuardian()'), '_'],
    doc: 'Restricts a function to the guardians.',
  });

  b.ctor.params.push(p('address[]', 'guardians_', 'memory'), p('uint256[3]', 'guardianRules_', 'memory'));
  b.ctor.docs['guardians_'] = 'Guardian addresses (1 to MAX_GUARDIANS).';
  // One array for the three numbers, so that the largest shape's constructor still fits the EVM stack.
  b.ctor.docs['guardianRules_'] =
    "How many guardians must agree (m of n); the days the owner has to answer the guardians' early release (MIN_GUARDIAN_WAIT to MAX_GUARDIAN_WAIT); " +
    (G
      ? 'the vetoes allowed after each sign of life of the owner (0 to MAX_VETO_LIMIT).'
      : 'a veto bound, unused: without a grace period there is no veto.');
  b.ctor.body.push(
    'uint256 guardianCount = guardians_.length',
    ifThen('guardianCount == 0 || guardianCount > MAX_GUARDIANS', 'revert InvalidCount()'),
    'uint256 threshold_ = guardianRules_[0]',
    ifThen('threshold_ == 0 || threshold_ > guardianCount', 'revert InvalidThreshold()'),
    loop(
      'guardianCount',
      'address guardian = guardians_[i]',
      ifThen('guardian == address(0)', 'revert ZeroAddress()'),
      ifThen('guardian == owner_ || _isGuardian[guardian]', 'revert DuplicateAddress(guardian)'),
      '_isGuardian[guardian] = true',
      '_guardians.push(guardian)',
    ),
    '_threshold = threshold_',
    ifThen(
      'guardianRules_[1] < MIN_GUARDIAN_WAIT / 1 days || guardianRules_[1] > MAX_GUARDIAN_WAIT / 1 days',
      'revert InvalidGuardianWait()',
    ),
    '_guardianWait = guardianRules_[1] * 1 days',
    ...(G
      ? [ifThen('guardianRules_[2] > MAX_VETO_LIMIT', 'revert InvalidVetoLimit()'), '_maxVetoes = guardianRules_[2]']
      : []),
  );

  b.releasedWhen.push('(_guardianReleaseAt != 0 && block.timestamp >= _guardianReleaseAt)');
  b.proofOfLife.push('++_round', '_guardianReleaseAt = 0');
  if (G) b.proofOfLife.push('_vetoesUsed = 0');
  b.checkIn.notes.push(
    "Also clears pending guardian votes and cancels the guardians' pending early release" +
      (G ? ', and gives the guardians their maxVetoes() vetoes again.' : '.'),
  );

  addConfirmRelease(b);
  if (G) addVeto(b);
}

function addConfirmRelease(b: EvmContractBuilder): void {
  b.add(
    'functions',
    'guardians',
    fn(
      'guardians',
      { notice: 'The guardians.', returns: ['Guardian addresses.'] },
      [],
      { mut: 'view', returns: [p('address[]', undefined, 'memory')] },
      ['return _guardians'],
    ),
    getter(
      'threshold',
      { notice: 'How many guardians must agree.', returns: ['The threshold m of m-of-n.'] },
      'uint256',
      '_threshold',
    ),
    getter(
      'guardianWait',
      {
        notice: "How long the owner has to answer the guardians' confirmed early release; any sign of life cancels it.",
        returns: ['Seconds.'],
      },
      'uint256',
      '_guardianWait',
    ),
    getter(
      'releaseConfirmations',
      { notice: 'Guardian confirmations of an early release in the current round.', returns: ['Count.'] },
      'uint256',
      '_releaseVotes[_round]',
    ),
    getter(
      'guardianReleaseTime',
      {
        notice: "When the guardians' confirmed early release takes effect.",
        returns: ['Unix time in seconds; 0 when none is pending.'],
      },
      'uint256',
      '_guardianReleaseAt',
    ),
    fn(
      'confirmRelease',
      {
        notice:
          "A guardian confirms the owner's absence; at the threshold an early release is proposed, which takes effect guardianWait() later if the owner stays silent.",
        dev: 'Guardians never overrule a living owner: any owner action (check-in, deposit, update, withdrawal...) before then cancels it, starts a new round and clears votes.',
      },
      [],
      { mods: ['onlyGuardian'] },
      [
        ifThen('_cancelled', 'revert ContractCancelled()'),
        ifThen('isReleased()', 'revert AlreadyReleased()'),
        'uint256 round = _round',
        ifThen('_releaseVoted[round][msg.sender]', 'revert AlreadyConfirmed()'),
        '_releaseVoted[round][msg.sender] = true',
        'uint256 count = ++_releaseVotes[round]',
        'emit ReleaseConfirmed(msg.sender, round, count)',
        ifThen(
          'count == _threshold && _guardianReleaseAt == 0',
          '_guardianReleaseAt = block.timestamp + _guardianWait',
          'emit ReleaseProposed(_guardianReleaseAt)',
        ),
      ],
    ),
  );
}

function addVeto(b: EvmContractBuilder): void {
  b.add(
    'functions',
    'guardians',
    getter(
      'vetoes',
      { notice: 'Guardian vetoes in the current round.', returns: ['Count.'] },
      'uint256',
      '_vetoVotes[_round]',
    ),
    getter(
      'maxVetoes',
      {
        notice: "How many times the guardians may postpone a release after each of the owner's signs of life.",
        returns: ['Count.'],
      },
      'uint256',
      '_maxVetoes',
    ),
    getter(
      'vetoesLeft',
      {
        notice: "How many more times the guardians may postpone the release before the owner's next sign of life.",
        returns: ['Count.'],
      },
      'uint256',
      '_maxVetoes - _vetoesUsed',
    ),
    fn(
      'vetoTrigger',
      {
        notice:
          'During the grace period, a guardian vetoes a wrong trigger; at the threshold the deadline restarts from now.',
        dev: "At most maxVetoes() times after the owner's last sign of life; then the release proceeds.",
      },
      [],
      { mods: ['onlyGuardian'] },
      [
        ifThen('_cancelled', 'revert ContractCancelled()'),
        ifThen('isReleased()', 'revert AlreadyReleased()'),
        ifThen('_vetoesUsed >= _maxVetoes', 'revert VetoLimitReached()'),
        'uint256 start = deadline()',
        ifThen('block.timestamp < start || block.timestamp >= start + _grace', 'revert NotInGracePeriod()'),
        'uint256 round = _round',
        ifThen('_vetoVoted[round][msg.sender]', 'revert AlreadyConfirmed()'),
        '_vetoVoted[round][msg.sender] = true',
        'uint256 count = ++_vetoVotes[round]',
        'emit TriggerVetoed(msg.sender, round, count)',
        ifThen(
          'count >= _threshold',
          '_lastCheckIn = block.timestamp',
          '++_round',
          '++_vetoesUsed',
          'emit CheckedIn(deadline())',
        ),
      ],
    ),
  );
}
