import { constant, fn, getter, ifThen, immutable, p, variable, type EvmContractBuilder } from '../builder.js';

/**
 * How the estate is released without the guardians: the dead man's switch
 * (the last check-in plus the interval, plus an optional grace period), or,
 * without a switch, the owner's own release().
 */
export function addSwitch(b: EvmContractBuilder): void {
  if (b.s.deadMansSwitch) addDeadMansSwitch(b);
  else addOwnerRelease(b);
}

function addDeadMansSwitch(b: EvmContractBuilder): void {
  const G = b.s.gracePeriod;
  b.add('constants', 'switch', constant('uint256', 'MAX_INTERVAL_DAYS', '3650', 'Longest check-in interval.'));
  if (G) b.add('constants', 'switch', constant('uint256', 'MAX_GRACE_DAYS', '365', 'Longest grace period.'));
  b.add('state', 'switch.immutable', immutable('uint256', '_interval'));
  if (G) b.add('state', 'switch.immutable', immutable('uint256', '_grace'));
  b.add(
    'errors',
    'switch',
    { name: 'InvalidInterval', params: [], doc: 'Interval or grace period out of range.' },
    {
      name: 'DeadlinePassed',
      params: [],
      doc: 'The check-in deadline has passed; the owner can no longer change the plan.',
    },
  );

  b.ctor.params.push(p('uint256', 'intervalDays_'));
  b.ctor.docs['intervalDays_'] = 'Days after the last check-in before the switch triggers.';
  b.ctor.body.push(
    ifThen('intervalDays_ == 0 || intervalDays_ > MAX_INTERVAL_DAYS', 'revert InvalidInterval()'),
    '_interval = intervalDays_ * 1 days',
  );
  if (G) {
    b.ctor.params.push(p('uint256', 'graceDays_'));
    b.ctor.docs['graceDays_'] = 'Days after the deadline before the estate is released.';
    b.ctor.body.push(ifThen('graceDays_ > MAX_GRACE_DAYS', 'revert InvalidInterval()'), '_grace = graceDays_ * 1 days');
  }
  b.firstDeadline = 'block.timestamp + intervalDays_ * 1 days';
  b.ownerWindow = 'before the deadline';
  b.deadlineCheck = ifThen('block.timestamp >= deadline()', 'revert DeadlinePassed()');
  b.releasedWhen.push('block.timestamp >= releaseTime()');
  b.checkIn.notice = G
    ? 'Owner proves being alive: the deadline becomes now plus the interval. Also possible during the grace period.'
    : 'Owner proves being alive: the deadline becomes now plus the interval.';
  b.releaseDoc = G
    ? "Dead man's switch: released after the last check-in plus the interval plus a grace period."
    : "Dead man's switch: released after the last check-in plus the interval.";

  b.add(
    'functions',
    'switch.views',
    getter(
      'deadline',
      {
        notice: 'End of the check-in interval: the last check-in plus the interval.',
        returns: ['Unix time in seconds.'],
      },
      'uint256',
      '_lastCheckIn + _interval',
      'public',
    ),
    getter('intervalDays', { notice: 'The check-in interval.', returns: ['Days.'] }, 'uint256', '_interval / 1 days'),
    getter(
      'releaseTime',
      {
        notice: G
          ? 'When the estate is released without a check-in: the deadline plus the grace period.'
          : 'When the estate is released without a check-in: the deadline.',
        returns: ['Unix time in seconds.'],
      },
      'uint256',
      G ? 'deadline() + _grace' : 'deadline()',
      'public',
    ),
  );
  if (G)
    b.add(
      'functions',
      'switch.views',
      getter(
        'gracePeriodDays',
        { notice: 'The grace period after the deadline.', returns: ['Days.'] },
        'uint256',
        '_grace / 1 days',
      ),
    );
}

function addOwnerRelease(b: EvmContractBuilder): void {
  const byGuardians = b.s.guardians;
  b.add('state', 'switch.flags', variable('bool', '_releasedEarly'));
  b.add('events', 'switch', {
    name: 'Released',
    params: [{ type: 'address', name: 'by', indexed: true }],
    doc: 'The estate was released before any deadline.',
  });
  b.releasedWhen.push('_releasedEarly');
  b.releaseDoc =
    "No dead man's switch: released by the owner" +
    (byGuardians ? " or by the guardians after the owner's silence." : '.');
  b.add(
    'functions',
    'switch.views',
    fn(
      'deadline',
      {
        notice: "There is no dead man's switch: no time-based deadline exists.",
        dev:
          'Release happens through release() by the owner' +
          (byGuardians ? ' or confirmRelease() by the guardians.' : '.'),
        returns: ['type(uint256).max.'],
      },
      [],
      { vis: 'public', mut: 'pure', returns: [p('uint256')] },
      ['return type(uint256).max'],
    ),
  );
  b.add(
    'functions',
    'switch.owner',
    fn(
      'release',
      { notice: "Owner releases the estate to the beneficiaries now (the release path without a dead man's switch)." },
      [],
      { mods: ['onlyOwner'] },
      [
        ifThen('_cancelled', 'revert ContractCancelled()'),
        ifThen('_releasedEarly', 'revert AlreadyReleased()'),
        '_releasedEarly = true',
        'emit Released(msg.sender)',
      ],
    ),
  );
}
