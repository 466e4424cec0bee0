import type { FunctionDef, Stmt } from '../solidity.js';
import {
  constant,
  fn,
  getter,
  ifThen,
  immutable,
  loop,
  p,
  priv,
  variable,
  type EvmContractBuilder,
} from '../builder.js';

export const MAX_BENEFICIARIES = 50;

/**
 * The estate every shape has: the owner, the beneficiaries and their shares,
 * ETH deposits and pull-payment claims, check-in, withdrawal, the reentrancy
 * guard, and the constructor. Runs last: it assembles the extension points
 * the other features filled.
 */
export function addCore(b: EvmContractBuilder): void {
  addDeclarations(b);
  addModifiers(b);
  b.add(
    'functions',
    'core.views',
    getter('owner', { notice: 'The owner of the estate.', returns: ['The owner address.'] }, 'address', '_owner'),
  );
  b.add(
    'functions',
    'core.views',
    getter(
      'lastCheckIn',
      { notice: 'Time of the last check-in (or of deployment).', returns: ['Unix time in seconds.'] },
      'uint256',
      '_lastCheckIn',
    ),
  );
  b.add('functions', 'core.status', ...statusViews(b));
  b.add('functions', 'core.owner', ...ownerActions(b));
  b.add('functions', 'core.claims', ...claims());
  b.add('functions', 'core.receive', {
    kind: 'receive',
    params: [],
    visibility: 'external',
    mutability: 'payable',
    body: [
      ifThen('_cancelled', 'revert ContractCancelled()'),
      ifThen('msg.sender == _owner && !isReleased()', '_proveLife()'),
      'emit Deposited(msg.sender, msg.value)',
    ],
    natspec: { notice: "Deposits ETH into the estate; the owner's deposit is proof of life." },
  });
  b.add('functions', 'core.internals', ...internals(b));
}

/** The constructor: the owner, every feature's arguments, then the beneficiaries and the first check-in. */
export function constructorOf(b: EvmContractBuilder): FunctionDef {
  return {
    kind: 'constructor',
    params: [
      p('address', 'owner_'),
      p('address[]', 'beneficiaries_', 'memory'),
      p('uint16[]', 'shares_', 'memory'),
      ...b.ctor.params,
    ],
    visibility: 'public',
    mutability: 'payable',
    body: [
      ifThen('owner_ == address(0)', 'revert ZeroAddress()'),
      '_owner = owner_',
      ...b.ctor.body,
      '_setBeneficiaries(beneficiaries_, shares_)',
      '_lastCheckIn = block.timestamp',
      `emit CheckedIn(${b.firstDeadline})`,
      ifThen('msg.value > 0', 'emit Deposited(msg.sender, msg.value)'),
    ],
    natspec: {
      notice: 'Sets up the estate; ETH sent along is deposited.',
      params: {
        owner_: 'Owner of the estate: checks in, updates, withdraws or cancels.',
        beneficiaries_: 'Beneficiary addresses (1 to MAX_BENEFICIARIES).',
        shares_: 'Shares in basis points, parallel to beneficiaries_, summing to TOTAL_SHARES.',
        ...b.ctor.docs,
      },
    },
  };
}

function addDeclarations(b: EvmContractBuilder): void {
  b.add(
    'constants',
    'core',
    constant(
      'uint256',
      'MAX_BENEFICIARIES',
      String(MAX_BENEFICIARIES),
      'Upper bound on beneficiaries, so every loop is bounded.',
    ),
    constant('uint256', 'TOTAL_SHARES', '10_000', 'Shares are in basis points and sum to this.'),
    constant(
      'string',
      'TEMPLATE',
      JSON.stringify(b.s.template),
      'Inheritance template this contract was generated from.',
    ),
  );
  b.add('state', 'core.immutable', immutable('address', '_owner'));
  b.add(
    'state',
    'core.flags',
    { type: 'uint256', name: '_lock', visibility: 'private', value: '1' },
    variable('bool', '_cancelled'),
  );
  b.add(
    'state',
    'core',
    variable('uint256', '_lastCheckIn'),
    variable('address[]', '_beneficiaries'),
    variable('mapping(address => uint256)', '_shares'),
    variable('uint256', '_totalClaimed'),
    variable('mapping(address => uint256)', '_claimed'),
  );
  b.add(
    'errors',
    'core',
    { name: 'NotOwner', params: [], doc: 'Only the owner may call this.' },
    { name: 'NotReleased', params: [], doc: 'The estate is not released yet.' },
    { name: 'AlreadyReleased', params: [], doc: 'The estate is already released.' },
    { name: 'ContractCancelled', params: [], doc: 'The owner cancelled this contract.' },
    { name: 'ZeroAddress', params: [], doc: 'The zero address is not allowed here.' },
    { name: 'DuplicateAddress', params: [p('address', 'account')], doc: 'An address is listed twice.' },
    { name: 'InvalidShares', params: [], doc: 'Shares must be positive and sum to TOTAL_SHARES.' },
    { name: 'InvalidCount', params: [], doc: 'A list is empty or longer than its bound.' },
    { name: 'LengthMismatch', params: [], doc: 'Parallel lists differ in length.' },
    { name: 'NothingToClaim', params: [], doc: 'Nothing is due to the caller.' },
    { name: 'TransferFailed', params: [p('address', 'to')], doc: 'Sending ETH failed.' },
    { name: 'InsufficientBalance', params: [], doc: 'The contract holds less than requested.' },
    { name: 'Reentrancy', params: [], doc: 'A guarded function was re-entered.' },
  );
  b.add(
    'events',
    'core',
    {
      name: 'CheckedIn',
      params: [p('uint256', 'newDeadline')],
      doc: 'The owner checked in or acted (proof of life), or guardians vetoed a trigger; the deadline moved.',
    },
    {
      name: 'BeneficiariesUpdated',
      params: [p('address[]', 'beneficiaries'), p('uint16[]', 'shares')],
      doc: 'The beneficiaries and their shares were set.',
    },
    {
      name: 'Deposited',
      params: [{ type: 'address', name: 'from', indexed: true }, p('uint256', 'amount')],
      doc: 'ETH was received.',
    },
    {
      name: 'Claimed',
      params: [{ type: 'address', name: 'beneficiary', indexed: true }, p('uint256', 'amount')],
      doc: 'A beneficiary claimed ETH.',
    },
    {
      name: 'Withdrawn',
      params: [{ type: 'address', name: 'to', indexed: true }, p('uint256', 'amount')],
      doc: 'The owner withdrew ETH.',
    },
  );
}

function addModifiers(b: EvmContractBuilder): void {
  const deadline: Stmt[] = b.deadlineCheck ? [b.deadlineCheck] : [];
  const ownerInControl: Stmt[] = [
    ifThen('_cancelled', 'revert ContractCancelled()'),
    ifThen('isReleased()', 'revert AlreadyReleased()'),
    ...deadline,
    '_proveLife()',
    '_',
  ];
  const live: Stmt[] = [ifThen('isReleased()', 'revert AlreadyReleased()'), ...deadline, '_proveLife()'];
  const notReleased = b.deadlineCheck ? `not released and ${b.ownerWindow}` : 'not released';
  b.add(
    'modifiers',
    'core',
    {
      name: 'onlyOwner',
      params: [],
      body: [ifThen('msg.sender != _owner', 'revert NotOwner()'), '_'],
      doc: 'Restricts a function to the owner.',
    },
    {
      name: 'nonReentrant',
      params: [],
      body: [ifThen('_lock != 1', 'revert Reentrancy()'), '_lock = 2', '_', '_lock = 1'],
      doc: 'Blocks re-entry into guarded functions.',
    },
    {
      name: 'ownerInControl',
      params: [],
      body: ownerInControl,
      doc:
        (b.deadlineCheck ? `Not cancelled, ${notReleased}.` : 'Not cancelled and not released.') +
        ' The action is proof of life.',
    },
    {
      name: 'liveOrCancelled',
      params: [],
      body: [ifThen('!_cancelled', ...live), '_'],
      doc: `Cancelled, or live (${notReleased}; then the action is proof of life).`,
    },
    {
      name: 'whenReleased',
      params: [],
      body: [ifThen('_cancelled', 'revert ContractCancelled()'), ifThen('!isReleased()', 'revert NotReleased()'), '_'],
      doc: 'The estate is released and the contract not cancelled.',
    },
  );
}

function statusViews(b: EvmContractBuilder): FunctionDef[] {
  return [
    fn(
      'isReleased',
      { notice: 'Whether beneficiaries can claim now.', returns: ['True once released and unless cancelled.'] },
      [],
      { vis: 'public', mut: 'view', returns: [p('bool')] },
      [ifThen('_cancelled', 'return false'), `return ${b.releasedWhen.join(' || ')}`],
    ),
    getter(
      'cancelled',
      { notice: 'Whether the owner cancelled the contract.', returns: ['True if cancelled.'] },
      'bool',
      '_cancelled',
    ),
    fn(
      'beneficiaries',
      { notice: 'The beneficiaries and their shares.', returns: ['Beneficiary addresses.', 'Shares in basis points.'] },
      [],
      { mut: 'view', returns: [p('address[]', undefined, 'memory'), p('uint256[]', undefined, 'memory')] },
      [
        'uint256 n = _beneficiaries.length',
        'uint256[] memory shareList = new uint256[](n)',
        loop('n', 'shareList[i] = _shares[_beneficiaries[i]]'),
        'return (_beneficiaries, shareList)',
      ],
    ),
    fn(
      'shareOf',
      {
        notice: 'Share of an account.',
        params: { account: 'The account.' },
        returns: ['Basis points of the estate (0 if not a beneficiary).'],
      },
      [p('address', 'account')],
      { mut: 'view', returns: [p('uint256')] },
      ['return _shares[account]'],
    ),
    fn(
      'claimedBy',
      { notice: 'ETH already claimed by an account.', params: { account: 'The account.' }, returns: ['Wei claimed.'] },
      [p('address', 'account')],
      { mut: 'view', returns: [p('uint256')] },
      ['return _claimed[account]'],
    ),
    getter(
      'totalReceived',
      { notice: 'All ETH this contract has received that remains shared: balance plus claims.', returns: ['Wei.'] },
      'uint256',
      'address(this).balance + _totalClaimed',
      'public',
    ),
    fn(
      'claimable',
      {
        notice: 'ETH an account can claim now.',
        params: { account: 'The account.' },
        returns: ['Wei due now (0 before release).'],
      },
      [p('address', 'account')],
      { mut: 'view', returns: [p('uint256')] },
      [ifThen('!isReleased()', 'return 0'), 'return _pending(account)'],
    ),
  ];
}

function ownerActions(b: EvmContractBuilder): FunctionDef[] {
  const notes = b.checkIn.notes.map((n) => ` ${n}`).join('');
  return [
    fn(
      'checkIn',
      {
        notice: b.checkIn.notice,
        dev: `Every other owner action (${b.checkIn.actions.join(', ')}) is proof of life too.${notes}`,
      },
      [],
      { mods: ['onlyOwner'] },
      [
        ifThen('_cancelled', 'revert ContractCancelled()'),
        ifThen('isReleased()', 'revert AlreadyReleased()'),
        '_proveLife()',
      ],
    ),
    fn(
      'updateBeneficiaries',
      {
        notice: `Replaces the beneficiaries and their shares (owner only, ${b.ownerWindow}).`,
        params: {
          beneficiaries_: 'New beneficiary addresses.',
          shares_: 'New shares in basis points, summing to TOTAL_SHARES.',
        },
      },
      [p('address[]', 'beneficiaries_', 'calldata'), p('uint16[]', 'shares_', 'calldata')],
      { mods: ['onlyOwner', 'ownerInControl'] },
      ['_setBeneficiaries(beneficiaries_, shares_)'],
    ),
    fn(
      'withdraw',
      { notice: `Owner takes ETH back ${b.ownerWindow}, or after cancel().`, params: { amount: 'Wei to withdraw.' } },
      [p('uint256', 'amount')],
      { mods: ['onlyOwner', 'liveOrCancelled', 'nonReentrant'] },
      [
        ifThen('amount > address(this).balance', 'revert InsufficientBalance()'),
        'emit Withdrawn(_owner, amount)',
        '_sendEth(_owner, amount)',
      ],
    ),
  ];
}

function claims(): FunctionDef[] {
  return [
    fn(
      'claim',
      {
        notice: "Sends the caller's due share of all ETH received (pull payment).",
        dev: 'Accounting by total received, so later deposits are shared too.',
      },
      [],
      { mods: ['nonReentrant', 'whenReleased'] },
      ['_claimEth(msg.sender)'],
    ),
    fn(
      'claimTo',
      {
        notice:
          "Sends the caller's due share of ETH to another address, for a beneficiary (e.g. a contract) that cannot receive ETH itself.",
        params: { recipient: 'Where the ETH goes.' },
      },
      [p('address', 'recipient')],
      { mods: ['nonReentrant', 'whenReleased'] },
      [ifThen('recipient == address(0)', 'revert ZeroAddress()'), '_claimEth(recipient)'],
    ),
  ];
}

function internals(b: EvmContractBuilder): FunctionDef[] {
  return [
    priv('_setBeneficiaries', [p('address[]', 'list', 'memory'), p('uint16[]', 'shareList', 'memory')], {}, [
      'uint256 n = list.length',
      ifThen('n == 0 || n > MAX_BENEFICIARIES', 'revert InvalidCount()'),
      ifThen('shareList.length != n', 'revert LengthMismatch()'),
      'uint256 previous = _beneficiaries.length',
      loop('previous', 'delete _shares[_beneficiaries[i]]'),
      'delete _beneficiaries',
      'uint256 total',
      loop(
        'n',
        'address account = list[i]',
        'uint256 share = shareList[i]',
        ifThen('account == address(0)', 'revert ZeroAddress()'),
        ifThen('share == 0', 'revert InvalidShares()'),
        ifThen('_shares[account] != 0', 'revert DuplicateAddress(account)'),
        '_shares[account] = share',
        '_beneficiaries.push(account)',
        'total += share',
      ),
      ifThen('total != TOTAL_SHARES', 'revert InvalidShares()'),
      'emit BeneficiariesUpdated(list, shareList)',
    ]),
    priv('_proveLife', [], {}, ['_lastCheckIn = block.timestamp', ...b.proofOfLife, 'emit CheckedIn(deadline())']),
    priv('_claimEth', [p('address', 'to')], {}, [
      'uint256 amount = _pending(msg.sender)',
      ifThen('amount == 0', 'revert NothingToClaim()'),
      '_claimed[msg.sender] += amount',
      '_totalClaimed += amount',
      'emit Claimed(msg.sender, amount)',
      '_sendEth(to, amount)',
    ]),
    priv('_pending', [p('address', 'account')], { mut: 'view', returns: [p('uint256')] }, [
      'uint256 due = (totalReceived() * _shares[account]) / TOTAL_SHARES',
      'uint256 paid = _claimed[account]',
      'return due > paid ? due - paid : 0',
    ]),
    priv('_sendEth', [p('address', 'to'), p('uint256', 'amount')], {}, [
      '(bool ok, ) = payable(to).call{value: amount}("")',
      ifThen('!ok', 'revert TransferFailed(to)'),
    ]),
  ];
}
