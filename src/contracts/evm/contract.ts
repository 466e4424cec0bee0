import { createRequire } from 'node:module';
import { GUARDIAN_WAIT_DAYS, MAX_VETOES } from '../guardians.js';
import type { TemplateType } from '../../law/templates.js';
import { shapeKey, type EvmShape } from './shape.js';
import {
  printSource,
  type ContractDef,
  type ErrorDef,
  type EventDef,
  type FunctionDef,
  type InterfaceDef,
  type ModifierDef,
  type NatSpec,
  type SolParam,
  type SourceUnit,
  type StateVariable,
  type Stmt,
} from './solidity.js';

/** The installed solc version: generated sources pin exactly this compiler. */
export const SOLC_VERSION: string = (createRequire(import.meta.url)('solc/package.json') as { version: string }).version;

export const MAX_BENEFICIARIES = 50;
export const MAX_GUARDIANS = 10;
export const MAX_TOKENS = 20;
export const MAX_NFTS = 20;
export { GUARDIAN_WAIT_DAYS, MAX_VETOES };

const CONTRACT_NAMES: Record<TemplateType, string> = {
  'common-law': 'CommonLawInheritance',
  'civil-law': 'CivilLawInheritance',
  'islamic-mirth': 'IslamicMirathInheritance',
  'islamic-wasiyyah': 'IslamicWasiyyahInheritance',
  custom: 'CustomInheritance',
};

const TEMPLATE_NOTES: Record<TemplateType, string> = {
  'common-law': 'Shares follow a common-law plan (freedom of testation), checked off-chain before deployment.',
  'civil-law': 'Shares follow a civil-law plan that respects the reserved portions, checked off-chain before deployment.',
  'islamic-mirth': "Shares follow the fara'id shares computed off-chain before deployment.",
  'islamic-wasiyyah': "Shares follow a wasiyyah of at most one third plus fara'id shares, checked off-chain before deployment.",
  custom: 'Shares follow a custom split chosen by the owner.',
};

export function contractName(shape: EvmShape): string {
  return CONTRACT_NAMES[shape.template];
}

const p = (type: string, name?: string, location?: SolParam['location']): SolParam =>
  location ? { type, name, location } : name ? { type, name } : { type };

interface FnOpts {
  vis?: FunctionDef['visibility'];
  mut?: FunctionDef['mutability'];
  mods?: string[];
  returns?: SolParam[];
}

function fn(name: string, natspec: NatSpec, params: SolParam[], opts: FnOpts, body: Stmt[]): FunctionDef {
  const f: FunctionDef = { kind: 'function', name, params, visibility: opts.vis ?? 'external', body, natspec };
  if (opts.mut) f.mutability = opts.mut;
  if (opts.mods) f.modifiers = opts.mods;
  if (opts.returns) f.returns = opts.returns;
  return f;
}

function priv(name: string, params: SolParam[], opts: FnOpts, body: Stmt[]): FunctionDef {
  const f: FunctionDef = { kind: 'function', name, params, visibility: 'private', body };
  if (opts.mut) f.mutability = opts.mut;
  if (opts.returns) f.returns = opts.returns;
  return f;
}

const ifThen = (cond: string, ...body: Stmt[]): Stmt => ({ head: `if (${cond})`, body });
const loop = (n: string, ...body: Stmt[]): Stmt => ({ head: `for (uint256 i; i < ${n}; ++i)`, body });

function interfaces(s: EvmShape): InterfaceDef[] {
  const out: InterfaceDef[] = [];
  {
    out.push({
      name: 'IERC20Minimal',
      doc: s.erc20 ? 'The part of ERC-20 this contract uses.' : 'The part of ERC-20 this contract uses to return tokens sent by mistake.',
      functions: [
        { kind: 'function', name: 'balanceOf', params: [p('address', 'account')], visibility: 'external', mutability: 'view', returns: [p('uint256')], body: [] },
        { kind: 'function', name: 'transfer', params: [p('address', 'to'), p('uint256', 'amount')], visibility: 'external', returns: [p('bool')], body: [] },
      ],
    });
  }
  out.push({
    name: 'IERC721Minimal',
    doc: s.erc721 ? 'The part of ERC-721 this contract uses.' : 'The part of ERC-721 this contract uses to return NFTs sent by mistake.',
    functions: [
      ...(s.erc721 ? [{ kind: 'function', name: 'ownerOf', params: [p('uint256', 'tokenId')], visibility: 'external', mutability: 'view', returns: [p('address')], body: [] } satisfies FunctionDef] : []),
      { kind: 'function', name: 'transferFrom', params: [p('address', 'from'), p('address', 'to'), p('uint256', 'tokenId')], visibility: 'external', body: [] },
      ...(s.erc721 ? [{ kind: 'function', name: 'safeTransferFrom', params: [p('address', 'from'), p('address', 'to'), p('uint256', 'tokenId')], visibility: 'external', body: [] } satisfies FunctionDef] : []),
    ],
  });
  if (s.erc721) {
    out.push({
      name: 'IERC721ReceiverMinimal',
      doc: 'ERC-721 receiver hook, so owners can use safeTransferFrom to deposit the listed NFTs.',
      functions: [
        {
          kind: 'function',
          name: 'onERC721Received',
          params: [p('address', 'operator'), p('address', 'from'), p('uint256', 'tokenId'), p('bytes', 'data', 'calldata')],
          visibility: 'external',
          returns: [p('bytes4')],
          body: [],
        },
      ],
    });
  }
  return out;
}

/** Builds the model of the contract for a shape. */
export function buildContractModel(s: EvmShape): SourceUnit {
  const S = s.deadMansSwitch;
  const G = s.gracePeriod;
  const M = s.guardians;
  const T = s.erc20;
  const N = s.erc721;
  const early = !S; // a release flag exists (the owner's release without a switch)

  const constants: StateVariable[] = [
    { type: 'uint256', name: 'MAX_BENEFICIARIES', visibility: 'public', mutability: 'constant', value: String(MAX_BENEFICIARIES), doc: 'Upper bound on beneficiaries, so every loop is bounded.' },
    { type: 'uint256', name: 'TOTAL_SHARES', visibility: 'public', mutability: 'constant', value: '10_000', doc: 'Shares are in basis points and sum to this.' },
    { type: 'string', name: 'TEMPLATE', visibility: 'public', mutability: 'constant', value: JSON.stringify(s.template), doc: 'Inheritance template this contract was generated from.' },
  ];
  if (S) constants.push({ type: 'uint256', name: 'MAX_INTERVAL_DAYS', visibility: 'public', mutability: 'constant', value: '3650', doc: 'Longest check-in interval.' });
  if (G) constants.push({ type: 'uint256', name: 'MAX_GRACE_DAYS', visibility: 'public', mutability: 'constant', value: '365', doc: 'Longest grace period.' });
  if (M) constants.push({ type: 'uint256', name: 'MAX_GUARDIANS', visibility: 'public', mutability: 'constant', value: String(MAX_GUARDIANS), doc: 'Upper bound on guardians.' });
  if (M) constants.push({ type: 'uint256', name: 'GUARDIAN_WAIT', visibility: 'public', mutability: 'constant', value: `${GUARDIAN_WAIT_DAYS} days`, doc: "How long the owner has to answer the guardians' confirmed early release with any sign of life, which cancels it." });
  if (M && G) constants.push({ type: 'uint256', name: 'MAX_VETOES', visibility: 'public', mutability: 'constant', value: String(MAX_VETOES), doc: "Vetoes that may postpone a release after the owner's last sign of life; then the release proceeds." });
  if (T) constants.push({ type: 'uint256', name: 'MAX_TOKENS', visibility: 'public', mutability: 'constant', value: String(MAX_TOKENS), doc: 'Upper bound on listed ERC-20 tokens.' });
  if (N) constants.push({ type: 'uint256', name: 'MAX_NFTS', visibility: 'public', mutability: 'constant', value: String(MAX_NFTS), doc: 'Upper bound on listed ERC-721 items.' });

  const state: StateVariable[] = [
    { type: 'address', name: '_owner', visibility: 'private', mutability: 'immutable' },
  ];
  if (S) state.push({ type: 'uint256', name: '_interval', visibility: 'private', mutability: 'immutable' });
  if (G) state.push({ type: 'uint256', name: '_grace', visibility: 'private', mutability: 'immutable' });
  if (M) state.push({ type: 'uint256', name: '_threshold', visibility: 'private', mutability: 'immutable' });
  state.push(
    { type: 'uint256', name: '_lock', visibility: 'private', value: '1' },
    { type: 'bool', name: '_cancelled', visibility: 'private' },
  );
  if (early) state.push({ type: 'bool', name: '_releasedEarly', visibility: 'private' });
  state.push(
    { type: 'uint256', name: '_lastCheckIn', visibility: 'private' },
    { type: 'address[]', name: '_beneficiaries', visibility: 'private' },
    { type: 'mapping(address => uint256)', name: '_shares', visibility: 'private' },
    { type: 'uint256', name: '_totalClaimed', visibility: 'private' },
    { type: 'mapping(address => uint256)', name: '_claimed', visibility: 'private' },
  );
  if (M) {
    state.push(
      { type: 'address[]', name: '_guardians', visibility: 'private' },
      { type: 'mapping(address => bool)', name: '_isGuardian', visibility: 'private' },
      { type: 'uint256', name: '_round', visibility: 'private' },
      { type: 'mapping(uint256 => mapping(address => bool))', name: '_releaseVoted', visibility: 'private' },
      { type: 'mapping(uint256 => uint256)', name: '_releaseVotes', visibility: 'private' },
      { type: 'uint256', name: '_guardianReleaseAt', visibility: 'private', doc: "When the guardians' confirmed early release takes effect (0: none); the owner's sign of life clears it." },
    );
    if (G) {
      state.push(
        { type: 'mapping(uint256 => mapping(address => bool))', name: '_vetoVoted', visibility: 'private' },
        { type: 'mapping(uint256 => uint256)', name: '_vetoVotes', visibility: 'private' },
        { type: 'uint256', name: '_vetoesUsed', visibility: 'private', doc: "Vetoes that postponed the release since the owner's last sign of life." },
      );
    }
  }
  if (T) {
    state.push(
      { type: 'address[]', name: '_tokens', visibility: 'private' },
      { type: 'mapping(address => bool)', name: '_isToken', visibility: 'private' },
    );
  }
  // Token claims, for the listed tokens and, after release, any ERC-20 the contract holds (airdrops included).
  state.push(
    { type: 'mapping(address => uint256)', name: '_tokenRound', visibility: 'private', doc: 'Per token: the claim round; a new one starts when every share has claimed and a balance is left or arrives.' },
    { type: 'mapping(address => uint256)', name: '_tokenOut', visibility: 'private', doc: 'Per token: basis points of the shares that claimed in the current round.' },
    { type: 'mapping(address => uint256)', name: '_tokenTotal', visibility: 'private', doc: 'Per token: the round total each unclaimed share is owed its basis points of; scaled with the balance when it rises or falls, so gains and losses fall only on the shares still unclaimed.' },
    { type: 'mapping(address => uint256)', name: '_tokenHeld', visibility: 'private', doc: 'Per token: the balance recorded after the last claim.' },
    { type: 'mapping(address => mapping(address => uint256))', name: '_tokenClaimedIn', visibility: 'private', doc: 'Per token and beneficiary: the round of its last claim plus one (0: never claimed).' },
  );
  if (N) state.push({ type: 'NftItem[]', name: '_nfts', visibility: 'private' });

  const errors: ErrorDef[] = [
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
    { name: 'NotAContract', params: [p('address', 'token')], doc: 'The token address holds no code.' },
    { name: 'TokenTransferFailed', params: [p('address', 'token')], doc: 'An ERC-20 transfer failed.' },
  ];
  if (T || N) errors.push({ name: 'ListedAsset', params: [p('address', 'token')], doc: 'A listed asset stays in the plan; the owner takes it back only after cancel().' });
  if (S) {
    errors.push(
      { name: 'InvalidInterval', params: [], doc: 'Interval or grace period out of range.' },
      { name: 'DeadlinePassed', params: [], doc: 'The check-in deadline has passed; the owner can no longer change the plan.' },
    );
  }
  if (M) {
    errors.push(
      { name: 'NotGuardian', params: [], doc: 'Only a guardian may call this.' },
      { name: 'InvalidThreshold', params: [], doc: 'The threshold must be between 1 and the number of guardians.' },
      { name: 'AlreadyConfirmed', params: [], doc: 'This guardian already voted in this round.' },
    );
    if (G) errors.push({ name: 'NotInGracePeriod', params: [], doc: 'A veto is only possible during the grace period.' });
    if (G) errors.push({ name: 'VetoLimitReached', params: [], doc: "The guardians already postponed the release MAX_VETOES times since the owner's last sign of life." });
  }
  if (N) {
    errors.push(
      { name: 'UnknownNft', params: [p('uint256', 'index')], doc: 'No NFT is listed at this index.' },
      { name: 'NotNftRecipient', params: [], doc: 'The NFT is assigned to another beneficiary.' },
      { name: 'UnlistedNft', params: [p('address', 'token'), p('uint256', 'tokenId')], doc: 'This NFT is not listed in the plan (or was already claimed or returned); it is refused.' },
      { name: 'NftCollection', params: [p('address', 'token')], doc: 'A listed NFT collection is not an ERC-20 token; its NFTs are claimed with claimNft().' },
      { name: 'DuplicateNft', params: [p('address', 'token'), p('uint256', 'tokenId')], doc: 'An NFT is listed twice.' },
    );
  }

  const events: EventDef[] = [
    { name: 'CheckedIn', params: [p('uint256', 'newDeadline')], doc: 'The owner checked in or acted (proof of life), or guardians vetoed a trigger; the deadline moved.' },
    { name: 'BeneficiariesUpdated', params: [p('address[]', 'beneficiaries'), p('uint16[]', 'shares')], doc: 'The beneficiaries and their shares were set.' },
    { name: 'Deposited', params: [{ type: 'address', name: 'from', indexed: true }, p('uint256', 'amount')], doc: 'ETH was received.' },
    { name: 'Claimed', params: [{ type: 'address', name: 'beneficiary', indexed: true }, p('uint256', 'amount')], doc: 'A beneficiary claimed ETH.' },
    { name: 'Withdrawn', params: [{ type: 'address', name: 'to', indexed: true }, p('uint256', 'amount')], doc: 'The owner withdrew ETH.' },
    { name: 'Cancelled', params: [], doc: 'The owner cancelled the contract; every asset is returned to the owner one by one.' },
    { name: 'ReturnFailed', params: [{ type: 'address', name: 'asset', indexed: true }, p('uint256', 'amountOrTokenId')], doc: 'cancel() could not return this asset (ETH: asset 0); the owner retries with withdraw(), rescueToken() or rescueNft().' },
    { name: 'TokenRescued', params: [{ type: 'address', name: 'token', indexed: true }, p('uint256', 'amount')], doc: 'The owner took back ERC-20 tokens (unlisted, or any after cancel).' },
    { name: 'NftRescued', params: [{ type: 'address', name: 'token', indexed: true }, { type: 'uint256', name: 'tokenId', indexed: true }], doc: 'The owner took back an NFT (unlisted, or any after cancel).' },
  ];
  if (early) events.push({ name: 'Released', params: [{ type: 'address', name: 'by', indexed: true }], doc: 'The estate was released before any deadline.' });
  if (M) {
    events.push({ name: 'ReleaseConfirmed', params: [{ type: 'address', name: 'guardian', indexed: true }, p('uint256', 'round'), p('uint256', 'confirmations')], doc: 'A guardian confirmed an early release.' });
    events.push({ name: 'ReleaseProposed', params: [p('uint256', 'releaseAt')], doc: "The guardians' quorum confirmed an early release; it takes effect at releaseAt unless the owner shows a sign of life first." });
    if (G) events.push({ name: 'TriggerVetoed', params: [{ type: 'address', name: 'guardian', indexed: true }, p('uint256', 'round'), p('uint256', 'vetoes')], doc: 'A guardian vetoed the trigger during the grace period.' });
  }
  events.push({ name: 'TokenClaimed', params: [{ type: 'address', name: 'token', indexed: true }, { type: 'address', name: 'beneficiary', indexed: true }, p('uint256', 'amount')], doc: 'A beneficiary claimed ERC-20 tokens.' });
  if (N) {
    events.push(
      { name: 'NftClaimed', params: [{ type: 'address', name: 'token', indexed: true }, { type: 'uint256', name: 'tokenId', indexed: true }, { type: 'address', name: 'recipient', indexed: true }], doc: 'A beneficiary claimed an NFT.' },
      { name: 'NftAssigned', params: [{ type: 'uint256', name: 'index', indexed: true }, { type: 'address', name: 'recipient', indexed: true }], doc: 'The owner assigned an NFT to another recipient.' },
    );
  }

  const ownerInControl: Stmt[] = [ifThen('_cancelled', 'revert ContractCancelled()'), ifThen('isReleased()', 'revert AlreadyReleased()')];
  if (S) ownerInControl.push(ifThen('block.timestamp >= deadline()', 'revert DeadlinePassed()'));
  ownerInControl.push('_proveLife()', '_');
  const live: Stmt[] = [ifThen('isReleased()', 'revert AlreadyReleased()')];
  if (S) live.push(ifThen('block.timestamp >= deadline()', 'revert DeadlinePassed()'));
  live.push('_proveLife()');

  const modifiers: ModifierDef[] = [
    { name: 'onlyOwner', params: [], body: [ifThen('msg.sender != _owner', 'revert NotOwner()'), '_'], doc: 'Restricts a function to the owner.' },
    { name: 'nonReentrant', params: [], body: [ifThen('_lock != 1', 'revert Reentrancy()'), '_lock = 2', '_', '_lock = 1'], doc: 'Blocks re-entry into guarded functions.' },
    { name: 'ownerInControl', params: [], body: ownerInControl, doc: (S ? 'Not cancelled, not released and before the deadline.' : 'Not cancelled and not released.') + ' The action is proof of life.' },
    { name: 'liveOrCancelled', params: [], body: [ifThen('!_cancelled', ...live), '_'], doc: 'Cancelled, or live (' + (S ? 'not released and before the deadline' : 'not released') + '; then the action is proof of life).' },
    { name: 'whenReleased', params: [], body: [ifThen('_cancelled', 'revert ContractCancelled()'), ifThen('!isReleased()', 'revert NotReleased()'), '_'], doc: 'The estate is released and the contract not cancelled.' },
  ];
  if (M) modifiers.push({ name: 'onlyGuardian', params: [], body: [ifThen('!_isGuardian[msg.sender]', 'revert NotGuardian()'), '_'], doc: 'Restricts a function to the guardians.' });

  // Constructor
  const ctorParams: SolParam[] = [p('address', 'owner_'), p('address[]', 'beneficiaries_', 'memory'), p('uint16[]', 'shares_', 'memory')];
  const ctorDoc: Record<string, string> = {
    owner_: 'Owner of the estate: checks in, updates, withdraws or cancels.',
    beneficiaries_: 'Beneficiary addresses (1 to MAX_BENEFICIARIES).',
    shares_: 'Shares in basis points, parallel to beneficiaries_, summing to TOTAL_SHARES.',
  };
  const ctorBody: Stmt[] = [ifThen('owner_ == address(0)', 'revert ZeroAddress()'), '_owner = owner_'];
  if (S) {
    ctorParams.push(p('uint256', 'intervalDays_'));
    ctorDoc['intervalDays_'] = 'Days after the last check-in before the switch triggers.';
    ctorBody.push(ifThen('intervalDays_ == 0 || intervalDays_ > MAX_INTERVAL_DAYS', 'revert InvalidInterval()'), '_interval = intervalDays_ * 1 days');
  }
  if (G) {
    ctorParams.push(p('uint256', 'graceDays_'));
    ctorDoc['graceDays_'] = 'Days after the deadline before the estate is released.';
    ctorBody.push(ifThen('graceDays_ > MAX_GRACE_DAYS', 'revert InvalidInterval()'), '_grace = graceDays_ * 1 days');
  }
  if (M) {
    ctorParams.push(p('address[]', 'guardians_', 'memory'), p('uint256', 'threshold_'));
    ctorDoc['guardians_'] = 'Guardian addresses (1 to MAX_GUARDIANS).';
    ctorDoc['threshold_'] = 'How many guardians must agree (m of n).';
    ctorBody.push(
      'uint256 guardianCount = guardians_.length',
      ifThen('guardianCount == 0 || guardianCount > MAX_GUARDIANS', 'revert InvalidCount()'),
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
    );
  }
  if (T) {
    ctorParams.push(p('address[]', 'tokens_', 'memory'));
    ctorDoc['tokens_'] = 'ERC-20 tokens shared like ETH.';
    ctorBody.push(
      ifThen('tokens_.length > MAX_TOKENS', 'revert InvalidCount()'),
      loop(
        'tokens_.length',
        'address token = tokens_[i]',
        ifThen('token == address(0)', 'revert ZeroAddress()'),
        ifThen('_isToken[token]', 'revert DuplicateAddress(token)'),
        '_isToken[token] = true',
        '_tokens.push(token)',
      ),
    );
  }
  if (N) {
    ctorParams.push(p('address[]', 'nftTokens_', 'memory'), p('uint256[]', 'nftIds_', 'memory'), p('address[]', 'nftRecipients_', 'memory'));
    ctorDoc['nftTokens_'] = 'ERC-721 contract of each listed NFT.';
    ctorDoc['nftIds_'] = 'Token id of each listed NFT.';
    ctorDoc['nftRecipients_'] = 'Beneficiary that receives each listed NFT.';
    ctorBody.push(
      'uint256 nftCount_ = nftTokens_.length',
      ifThen('nftCount_ > MAX_NFTS', 'revert InvalidCount()'),
      ifThen('nftIds_.length != nftCount_ || nftRecipients_.length != nftCount_', 'revert LengthMismatch()'),
      loop(
        'nftCount_',
        ifThen('nftTokens_[i] == address(0) || nftRecipients_[i] == address(0)', 'revert ZeroAddress()'),
        ifThen('_nftSlot(nftTokens_[i], nftIds_[i]) != 0', 'revert DuplicateNft(nftTokens_[i], nftIds_[i])'),
        '_nfts.push(NftItem({token: nftTokens_[i], tokenId: nftIds_[i], recipient: nftRecipients_[i], claimed: false}))',
        'emit NftAssigned(i, nftRecipients_[i])',
      ),
    );
  }
  ctorBody.push(
    '_setBeneficiaries(beneficiaries_, shares_)',
    '_lastCheckIn = block.timestamp',
    S ? 'emit CheckedIn(block.timestamp + intervalDays_ * 1 days)' : 'emit CheckedIn(type(uint256).max)',
    ifThen('msg.value > 0', 'emit Deposited(msg.sender, msg.value)'),
  );
  const ctor: FunctionDef = {
    kind: 'constructor',
    params: ctorParams,
    visibility: 'public',
    mutability: 'payable',
    body: ctorBody,
    natspec: { notice: 'Sets up the estate; ETH sent along is deposited.', params: ctorDoc },
  };

  const functions: FunctionDef[] = [];
  // Views
  functions.push(
    fn('owner', { notice: 'The owner of the estate.', returns: ['The owner address.'] }, [], { mut: 'view', returns: [p('address')] }, ['return _owner']),
    fn('lastCheckIn', { notice: 'Time of the last check-in (or of deployment).', returns: ['Unix time in seconds.'] }, [], { mut: 'view', returns: [p('uint256')] }, ['return _lastCheckIn']),
  );
  if (S) {
    functions.push(
      fn('deadline', { notice: 'End of the check-in interval: the last check-in plus the interval.', returns: ['Unix time in seconds.'] }, [], { vis: 'public', mut: 'view', returns: [p('uint256')] }, ['return _lastCheckIn + _interval']),
      fn('intervalDays', { notice: 'The check-in interval.', returns: ['Days.'] }, [], { mut: 'view', returns: [p('uint256')] }, ['return _interval / 1 days']),
      fn(
        'releaseTime',
        { notice: G ? 'When the estate is released without a check-in: the deadline plus the grace period.' : 'When the estate is released without a check-in: the deadline.', returns: ['Unix time in seconds.'] },
        [],
        { vis: 'public', mut: 'view', returns: [p('uint256')] },
        [G ? 'return deadline() + _grace' : 'return deadline()'],
      ),
    );
    if (G) functions.push(fn('gracePeriodDays', { notice: 'The grace period after the deadline.', returns: ['Days.'] }, [], { mut: 'view', returns: [p('uint256')] }, ['return _grace / 1 days']));
  } else {
    functions.push(
      fn(
        'deadline',
        { notice: 'There is no dead man\'s switch: no time-based deadline exists.', dev: 'Release happens through release() by the owner' + (M ? ' or confirmRelease() by the guardians.' : '.'), returns: ['type(uint256).max.'] },
        [],
        { vis: 'public', mut: 'pure', returns: [p('uint256')] },
        ['return type(uint256).max'],
      ),
    );
  }
  const releasedTerms = [...(early ? ['_releasedEarly'] : []), ...(S ? ['block.timestamp >= releaseTime()'] : []), ...(M ? ['(_guardianReleaseAt != 0 && block.timestamp >= _guardianReleaseAt)'] : [])];
  const releasedExpr = releasedTerms.join(' || ');
  functions.push(
    fn('isReleased', { notice: 'Whether beneficiaries can claim now.', returns: ['True once released and unless cancelled.'] }, [], { vis: 'public', mut: 'view', returns: [p('bool')] }, [
      ifThen('_cancelled', 'return false'),
      `return ${releasedExpr}`,
    ]),
    fn('cancelled', { notice: 'Whether the owner cancelled the contract.', returns: ['True if cancelled.'] }, [], { mut: 'view', returns: [p('bool')] }, ['return _cancelled']),
    fn('beneficiaries', { notice: 'The beneficiaries and their shares.', returns: ['Beneficiary addresses.', 'Shares in basis points.'] }, [], { mut: 'view', returns: [p('address[]', undefined, 'memory'), p('uint256[]', undefined, 'memory')] }, [
      'uint256 n = _beneficiaries.length',
      'uint256[] memory shareList = new uint256[](n)',
      loop('n', 'shareList[i] = _shares[_beneficiaries[i]]'),
      'return (_beneficiaries, shareList)',
    ]),
    fn('shareOf', { notice: 'Share of an account.', params: { account: 'The account.' }, returns: ['Basis points of the estate (0 if not a beneficiary).'] }, [p('address', 'account')], { mut: 'view', returns: [p('uint256')] }, ['return _shares[account]']),
    fn('claimedBy', { notice: 'ETH already claimed by an account.', params: { account: 'The account.' }, returns: ['Wei claimed.'] }, [p('address', 'account')], { mut: 'view', returns: [p('uint256')] }, ['return _claimed[account]']),
    fn('totalReceived', { notice: 'All ETH this contract has received that remains shared: balance plus claims.', returns: ['Wei.'] }, [], { vis: 'public', mut: 'view', returns: [p('uint256')] }, ['return address(this).balance + _totalClaimed']),
    fn('claimable', { notice: 'ETH an account can claim now.', params: { account: 'The account.' }, returns: ['Wei due now (0 before release).'] }, [p('address', 'account')], { mut: 'view', returns: [p('uint256')] }, [
      ifThen('!isReleased()', 'return 0'),
      'return _pending(account)',
    ]),
  );

  // Owner actions
  const checkInBody: Stmt[] = [ifThen('isReleased()', 'revert AlreadyReleased()'), '_proveLife()'];
  const proveLife: Stmt[] = ['_lastCheckIn = block.timestamp'];
  if (M) proveLife.push('++_round', '_guardianReleaseAt = 0');
  if (M && G) proveLife.push('_vetoesUsed = 0');
  proveLife.push('emit CheckedIn(deadline())');
  functions.push(
    fn(
      'checkIn',
      { notice: S ? (G ? 'Owner proves being alive: the deadline becomes now plus the interval. Also possible during the grace period.' : 'Owner proves being alive: the deadline becomes now plus the interval.') : 'Owner proves being alive; recorded for the record.', dev: 'Every other owner action (deposit, update, withdrawal, rescue' + (N ? ', NFT assignment' : '') + ') is proof of life too.' + (M ? " Also clears pending guardian votes and cancels the guardians' pending early release" + (G ? ', and gives the guardians their MAX_VETOES vetoes again.' : '.') : '') },
      [],
      { mods: ['onlyOwner'] },
      [ifThen('_cancelled', 'revert ContractCancelled()'), ...checkInBody],
    ),
    fn(
      'updateBeneficiaries',
      { notice: 'Replaces the beneficiaries and their shares' + (S ? ' (owner only, before the deadline).' : ' (owner only, before release).'), params: { beneficiaries_: 'New beneficiary addresses.', shares_: 'New shares in basis points, summing to TOTAL_SHARES.' } },
      [p('address[]', 'beneficiaries_', 'calldata'), p('uint16[]', 'shares_', 'calldata')],
      { mods: ['onlyOwner', 'ownerInControl'] },
      ['_setBeneficiaries(beneficiaries_, shares_)'],
    ),
    fn(
      'withdraw',
      { notice: 'Owner takes ETH back' + (S ? ' before the deadline' : ' before release') + ', or after cancel().', params: { amount: 'Wei to withdraw.' } },
      [p('uint256', 'amount')],
      { mods: ['onlyOwner', 'liveOrCancelled', 'nonReentrant'] },
      [ifThen('amount > address(this).balance', 'revert InsufficientBalance()'), 'emit Withdrawn(_owner, amount)', '_sendEth(_owner, amount)'],
    ),
  );
  const cancelBody: Stmt[] = ['_cancelled = true', 'emit Cancelled()'];
  if (T) {
    cancelBody.push(
      loop(
        '_tokens.length',
        'address token = _tokens[i]',
        'uint256 held = _tokenBalance(token)',
        ifThen('held > 0 && !_tryTransfer(token, _owner, held)', 'emit ReturnFailed(token, held)'),
      ),
    );
  }
  if (N) {
    cancelBody.push(
      loop(
        '_nfts.length',
        'NftItem storage item = _nfts[i]',
        ifThen(
          '!item.claimed && _holdsNft(item.token, item.tokenId)',
          'item.claimed = true',
          { head: 'try IERC721Minimal(item.token).transferFrom(address(this), _owner, item.tokenId)', body: [], catch: ['item.claimed = false', 'emit ReturnFailed(item.token, item.tokenId)'] },
        ),
      ),
    );
  }
  cancelBody.push(
    'uint256 amount = address(this).balance',
    ifThen('amount > 0', '(bool ok, ) = payable(_owner).call{value: amount}("")', { head: 'if (ok)', body: ['emit Withdrawn(_owner, amount)'], else: ['emit ReturnFailed(address(0), amount)'] }),
  );
  functions.push(
    fn(
      'cancel',
      { notice: 'Owner cancels the plan and takes every asset back' + (S ? ' (before the deadline).' : ' (before release).'), dev: 'Each asset is returned on its own: one that cannot be sent (paused, blocklisted) emits ReturnFailed and is retried with withdraw(), rescueToken() or rescueNft(). The contract stops accepting deposits and claims.' },
      [],
      { mods: ['onlyOwner', 'ownerInControl', 'nonReentrant'] },
      cancelBody,
    ),
  );
  const rescueTokenBody: Stmt[] = [];
  if (T) rescueTokenBody.push(ifThen('!_cancelled && _isToken[token]', 'revert ListedAsset(token)'));
  rescueTokenBody.push('uint256 amount = _tokenBalance(token)', ifThen('amount == 0', 'revert NothingToClaim()'), 'emit TokenRescued(token, amount)', '_safeTransfer(token, _owner, amount)');
  const rescueNftBody: Stmt[] = [];
  if (N) {
    rescueNftBody.push(
      'uint256 slot = _nftSlot(token, tokenId)',
      ifThen('slot != 0', ifThen('!_cancelled', 'revert ListedAsset(token)'), '_nfts[slot - 1].claimed = true'),
    );
  }
  rescueNftBody.push('emit NftRescued(token, tokenId)', 'IERC721Minimal(token).transferFrom(address(this), _owner, tokenId)');
  functions.push(
    fn(
      'rescueToken',
      { notice: 'Owner takes back an ERC-20 token ' + (T ? 'that is not listed (sent by mistake), or any token after cancel().' : 'sent by mistake (this plan lists none).'), dev: 'Possible while the plan is live (then proof of life) or after cancel(); the whole balance goes to the owner.', params: { token: 'The ERC-20 token.' } },
      [p('address', 'token')],
      { mods: ['onlyOwner', 'liveOrCancelled', 'nonReentrant'] },
      rescueTokenBody,
    ),
    fn(
      'rescueNft',
      { notice: 'Owner takes back an NFT ' + (N ? 'that is not listed (sent with transferFrom by mistake), or any NFT after cancel().' : 'sent with transferFrom by mistake (this plan lists none).'), dev: 'Possible while the plan is live (then proof of life) or after cancel().', params: { token: 'The ERC-721 contract.', tokenId: 'The token id.' } },
      [p('address', 'token'), p('uint256', 'tokenId')],
      { mods: ['onlyOwner', 'liveOrCancelled', 'nonReentrant'] },
      rescueNftBody,
    ),
  );
  if (!S) {
    functions.push(
      fn(
        'release',
        { notice: 'Owner releases the estate to the beneficiaries now (the release path without a dead man\'s switch).' },
        [],
        { mods: ['onlyOwner'] },
        [ifThen('_cancelled', 'revert ContractCancelled()'), ifThen('_releasedEarly', 'revert AlreadyReleased()'), '_releasedEarly = true', 'emit Released(msg.sender)'],
      ),
    );
  }

  // Claims
  functions.push(
    fn(
      'claim',
      { notice: "Sends the caller's due share of all ETH received (pull payment).", dev: 'Accounting by total received, so later deposits are shared too.' },
      [],
      { mods: ['nonReentrant', 'whenReleased'] },
      ['_claimEth(msg.sender)'],
    ),
    fn(
      'claimTo',
      { notice: "Sends the caller's due share of ETH to another address, for a beneficiary (e.g. a contract) that cannot receive ETH itself.", params: { recipient: 'Where the ETH goes.' } },
      [p('address', 'recipient')],
      { mods: ['nonReentrant', 'whenReleased'] },
      [ifThen('recipient == address(0)', 'revert ZeroAddress()'), '_claimEth(recipient)'],
    ),
  );

  if (M) {
    functions.push(
      fn('guardians', { notice: 'The guardians.', returns: ['Guardian addresses.'] }, [], { mut: 'view', returns: [p('address[]', undefined, 'memory')] }, ['return _guardians']),
      fn('threshold', { notice: 'How many guardians must agree.', returns: ['The threshold m of m-of-n.'] }, [], { mut: 'view', returns: [p('uint256')] }, ['return _threshold']),
      fn('releaseConfirmations', { notice: 'Guardian confirmations of an early release in the current round.', returns: ['Count.'] }, [], { mut: 'view', returns: [p('uint256')] }, ['return _releaseVotes[_round]']),
      fn('guardianReleaseTime', { notice: "When the guardians' confirmed early release takes effect.", returns: ['Unix time in seconds; 0 when none is pending.'] }, [], { mut: 'view', returns: [p('uint256')] }, ['return _guardianReleaseAt']),
      fn(
        'confirmRelease',
        { notice: 'A guardian confirms the owner\'s absence; at the threshold an early release is proposed, which takes effect GUARDIAN_WAIT later if the owner stays silent.', dev: "Guardians never overrule a living owner: any owner action (check-in, deposit, update, withdrawal...) before then cancels it, starts a new round and clears votes." },
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
          ifThen('count == _threshold && _guardianReleaseAt == 0', '_guardianReleaseAt = block.timestamp + GUARDIAN_WAIT', 'emit ReleaseProposed(_guardianReleaseAt)'),
        ],
      ),
    );
    if (G) {
      functions.push(
        fn('vetoes', { notice: 'Guardian vetoes in the current round.', returns: ['Count.'] }, [], { mut: 'view', returns: [p('uint256')] }, ['return _vetoVotes[_round]']),
        fn('vetoesLeft', { notice: "How many more times the guardians may postpone the release before the owner's next sign of life.", returns: ['Count.'] }, [], { mut: 'view', returns: [p('uint256')] }, ['return MAX_VETOES - _vetoesUsed']),
        fn(
          'vetoTrigger',
          { notice: 'During the grace period, a guardian vetoes a wrong trigger; at the threshold the deadline restarts from now.', dev: "At most MAX_VETOES times after the owner's last sign of life; then the release proceeds." },
          [],
          { mods: ['onlyGuardian'] },
          [
            ifThen('_cancelled', 'revert ContractCancelled()'),
            ifThen('isReleased()', 'revert AlreadyReleased()'),
            ifThen('_vetoesUsed >= MAX_VETOES', 'revert VetoLimitReached()'),
            'uint256 start = deadline()',
            ifThen('block.timestamp < start || block.timestamp >= start + _grace', 'revert NotInGracePeriod()'),
            'uint256 round = _round',
            ifThen('_vetoVoted[round][msg.sender]', 'revert AlreadyConfirmed()'),
            '_vetoVoted[round][msg.sender] = true',
            'uint256 count = ++_vetoVotes[round]',
            'emit TriggerVetoed(msg.sender, round, count)',
            ifThen('count >= _threshold', '_lastCheckIn = block.timestamp', '++_round', '++_vetoesUsed', 'emit CheckedIn(deadline())'),
          ],
        ),
      );
    }
  }

  if (T) {
    functions.push(
      fn('tokens', { notice: 'The listed ERC-20 tokens.', returns: ['Token addresses.'] }, [], { mut: 'view', returns: [p('address[]', undefined, 'memory')] }, ['return _tokens']),
    );
  }
  const tokenClaimDev =
    'Paid from the balance actually held. Each unclaimed share is owed its basis points of the round total; when the balance rises or falls other than by claims (rebasing, a fee, a deposit after the first claim), the round total is scaled with it, so the gain or loss falls only on the shares still unclaimed. When every share has claimed, what is left or arrives later is shared by all shares again (a new round).';
  functions.push(
    fn(
      'claimableToken',
      { notice: 'ERC-20 tokens an account can claim now' + (T ? ' (a listed token, or after release any token the contract holds).' : ' (after release, any token the contract holds).'), dev: tokenClaimDev, params: { token: 'An ERC-20 token.', account: 'The account.' }, returns: ['Token units due now (0 before release).'] },
      [p('address', 'token'), p('address', 'account')],
      { mut: 'view', returns: [p('uint256')] },
      [
        ifThen('!isReleased()' + (N ? ' || _isNftCollection(token)' : ''), 'return 0'),
        '(uint256 due, , , ) = _tokenDue(token, account, _tokenBalance(token))',
        'return due',
      ],
    ),
    fn(
      'claimToken',
      { notice: "Sends the caller's due share of an ERC-20 token: a listed one, or any token that reached the contract (an airdrop after the deadline included).", dev: tokenClaimDev + ' A token that charges the sender a fee on top of the amount cannot send the whole balance: then the largest amount the balance allows is sent (fees up to half the amount).', params: { token: 'An ERC-20 token the contract holds.' } },
      [p('address', 'token')],
      { mods: ['nonReentrant', 'whenReleased'] },
      ['_claimToken(token, msg.sender)'],
    ),
    fn(
      'claimTokenTo',
      { notice: "Sends the caller's due share of an ERC-20 token to another address, for a beneficiary the token refuses (a blocklisting token) or that cannot hold it.", params: { token: 'An ERC-20 token the contract holds.', recipient: 'Where the tokens go.' } },
      [p('address', 'token'), p('address', 'recipient')],
      { mods: ['nonReentrant', 'whenReleased'] },
      [ifThen('recipient == address(0)', 'revert ZeroAddress()'), '_claimToken(token, recipient)'],
    ),
    priv('_claimToken', [p('address', 'token'), p('address', 'to')], {}, [
      ...(N ? [ifThen('_isNftCollection(token)', 'revert NftCollection(token)')] : []),
      'uint256 held = _tokenBalance(token)',
      '(uint256 amount, uint256 round, uint256 out, uint256 total) = _tokenDue(token, msg.sender, held)',
      ifThen('amount == 0', 'revert NothingToClaim()'),
      ifThen('round != _tokenRound[token]', '_tokenRound[token] = round'),
      '_tokenOut[token] = out + _shares[msg.sender]',
      '_tokenTotal[token] = total',
      '_tokenClaimedIn[token][msg.sender] = round + 1',
      '_tokenHeld[token] = held - amount',
      'uint256 paid = _sendTokenUpTo(token, to, amount)',
      ifThen('paid != amount', '_tokenHeld[token] = held - paid'),
      'emit TokenClaimed(token, msg.sender, paid)',
    ]),
    priv(
      '_tokenDue',
      [p('address', 'token'), p('address', 'account'), p('uint256', 'held')],
      { mut: 'view', returns: [p('uint256', 'due'), p('uint256', 'round'), p('uint256', 'out'), p('uint256', 'total')] },
      [
        'round = _tokenRound[token]',
        'out = _tokenOut[token]',
        'total = _tokenTotal[token]',
        {
          head: 'if (out == 0 || out == TOTAL_SHARES)',
          body: [ifThen('out == TOTAL_SHARES', '++round', 'out = 0'), 'total = held'],
          else: [
            'uint256 last = _tokenHeld[token]',
            { head: 'if (last == 0)', body: ['total = (held * TOTAL_SHARES) / (TOTAL_SHARES - out)'], else: [ifThen('held != last', 'total = (total * held) / last')] },
          ],
        },
        'uint256 share = _shares[account]',
        ifThen('share == 0 || _tokenClaimedIn[token][account] == round + 1', 'return (0, round, out, total)'),
        'due = (total * share) / TOTAL_SHARES',
        ifThen('due > held', 'due = held'),
      ],
    ),
    priv('_sendTokenUpTo', [p('address', 'token'), p('address', 'to'), p('uint256', 'amount')], { returns: [p('uint256')] }, [
      ifThen('token.code.length == 0', 'revert NotAContract(token)'),
      ifThen('_tryTransfer(token, to, amount)', 'return amount'),
      'uint16[9] memory cuts = [uint16(10_000), 1_000, 200, 100, 50, 20, 10, 4, 2]',
      'uint256 n = cuts.length',
      loop('n', 'uint256 part = amount - amount / cuts[i] - 1', ifThen('part != 0 && _tryTransfer(token, to, part)', 'return part')),
      'revert TokenTransferFailed(token)',
    ]),
  );
  if (N) {
    functions.push(
      fn('nftCount', { notice: 'Number of listed NFTs.', returns: ['Count.'] }, [], { mut: 'view', returns: [p('uint256')] }, ['return _nfts.length']),
      fn(
        'nftAt',
        { notice: 'A listed NFT.', params: { index: 'Position in the list.' }, returns: ['ERC-721 contract.', 'Token id.', 'Recipient.', 'Whether it was claimed (or returned on cancel).'] },
        [p('uint256', 'index')],
        { mut: 'view', returns: [p('address'), p('uint256'), p('address'), p('bool')] },
        [ifThen('index >= _nfts.length', 'revert UnknownNft(index)'), 'NftItem storage item = _nfts[index]', 'return (item.token, item.tokenId, item.recipient, item.claimed)'],
      ),
      fn(
        'assignNft',
        { notice: 'Owner assigns a listed NFT to another recipient' + (S ? ' (before the deadline).' : ' (before release).'), params: { index: 'Position in the list.', recipient: 'New recipient.' } },
        [p('uint256', 'index'), p('address', 'recipient')],
        { mods: ['onlyOwner', 'ownerInControl'] },
        [
          ifThen('index >= _nfts.length', 'revert UnknownNft(index)'),
          ifThen('recipient == address(0)', 'revert ZeroAddress()'),
          '_nfts[index].recipient = recipient',
          'emit NftAssigned(index, recipient)',
        ],
      ),
      fn(
        'claimNft',
        { notice: 'The assigned beneficiary takes a listed NFT.', params: { index: 'Position in the list.' } },
        [p('uint256', 'index')],
        { mods: ['nonReentrant', 'whenReleased'] },
        ['_claimNft(index, msg.sender)'],
      ),
      fn(
        'claimNftTo',
        { notice: 'The assigned beneficiary sends a listed NFT to another address, for a beneficiary (e.g. a contract) that cannot receive NFTs itself.', params: { index: 'Position in the list.', recipient: 'Where the NFT goes.' } },
        [p('uint256', 'index'), p('address', 'recipient')],
        { mods: ['nonReentrant', 'whenReleased'] },
        [ifThen('recipient == address(0)', 'revert ZeroAddress()'), '_claimNft(index, recipient)'],
      ),
      fn(
        'onERC721Received',
        { notice: 'Accepts only the listed NFTs sent with safeTransferFrom; any other NFT is refused.', returns: ['The ERC-721 receiver selector.'] },
        [p('address'), p('address'), p('uint256', 'tokenId'), p('bytes', undefined, 'calldata')],
        { mut: 'view', returns: [p('bytes4')] },
        [
          ifThen('_cancelled', 'revert ContractCancelled()'),
          'uint256 slot = _nftSlot(msg.sender, tokenId)',
          ifThen('slot == 0 || _nfts[slot - 1].claimed', 'revert UnlistedNft(msg.sender, tokenId)'),
          'return IERC721ReceiverMinimal.onERC721Received.selector',
        ],
      ),
    );
  }

  functions.push({
    kind: 'receive',
    params: [],
    visibility: 'external',
    mutability: 'payable',
    body: [ifThen('_cancelled', 'revert ContractCancelled()'), ifThen('msg.sender == _owner && !isReleased()', '_proveLife()'), 'emit Deposited(msg.sender, msg.value)'],
    natspec: { notice: "Deposits ETH into the estate; the owner's deposit is proof of life." },
  });

  // Internals
  functions.push(
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
    priv('_proveLife', [], {}, proveLife),
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
  );
  functions.push(
    priv('_tokenBalance', [p('address', 'token')], { mut: 'view', returns: [p('uint256')] }, [
      ifThen('token.code.length == 0', 'return 0'),
      { head: 'try IERC20Minimal(token).balanceOf(address(this)) returns (uint256 held)', body: ['return held'], catch: ['return 0'] },
    ]),
    priv('_safeTransfer', [p('address', 'token'), p('address', 'to'), p('uint256', 'amount')], {}, [
      ifThen('token.code.length == 0', 'revert NotAContract(token)'),
      ifThen('!_tryTransfer(token, to, amount)', 'revert TokenTransferFailed(token)'),
    ]),
    priv('_tryTransfer', [p('address', 'token'), p('address', 'to'), p('uint256', 'amount')], { returns: [p('bool')] }, [
      '(bool ok, bytes memory data) = token.call(abi.encodeCall(IERC20Minimal.transfer, (to, amount)))',
      'return ok && (data.length == 0 ? token.code.length != 0 : data.length == 32 && abi.decode(data, (uint256)) == 1)',
    ]),
  );
  if (N) {
    functions.push(
      priv('_claimNft', [p('uint256', 'index'), p('address', 'to')], {}, [
        ifThen('index >= _nfts.length', 'revert UnknownNft(index)'),
        'NftItem storage item = _nfts[index]',
        ifThen('msg.sender != item.recipient', 'revert NotNftRecipient()'),
        ifThen('item.claimed', 'revert NothingToClaim()'),
        'item.claimed = true',
        'emit NftClaimed(item.token, item.tokenId, to)',
        'IERC721Minimal(item.token).safeTransferFrom(address(this), to, item.tokenId)',
      ]),
      priv('_nftSlot', [p('address', 'token'), p('uint256', 'tokenId')], { mut: 'view', returns: [p('uint256')] }, [
        'uint256 n = _nfts.length',
        loop('n', 'NftItem storage item = _nfts[i]', ifThen('item.token == token && item.tokenId == tokenId', 'return i + 1')),
        'return 0',
      ]),
      priv('_isNftCollection', [p('address', 'token')], { mut: 'view', returns: [p('bool')] }, [
        'uint256 n = _nfts.length',
        loop('n', ifThen('_nfts[i].token == token', 'return true')),
        'return false',
      ]),
      priv('_holdsNft', [p('address', 'token'), p('uint256', 'tokenId')], { mut: 'view', returns: [p('bool')] }, [
        ifThen('token.code.length == 0', 'return false'),
        { head: 'try IERC721Minimal(token).ownerOf(tokenId) returns (address holder)', body: ['return holder == address(this)'], catch: ['return false'] },
      ]),
    );
  }

  const contract: ContractDef = {
    name: contractName(s),
    natspec: {
      title: `${contractName(s)}: inheritance contract (${shapeKey(s)})`,
      notice: TEMPLATE_NOTES[s.template],
      dev: [
        S
          ? G
            ? "Dead man's switch: released after the last check-in plus the interval plus a grace period."
            : "Dead man's switch: released after the last check-in plus the interval."
          : "No dead man's switch: released by the owner" + (M ? " or by the guardians after the owner's silence." : '.'),
        'Pull payments, accounting by total received; bounded loops; authorization by msg.sender only.',
      ].join(' '),
    },
    structs: N
      ? [{ name: 'NftItem', doc: 'An NFT held for one beneficiary.', fields: [{ type: 'address', name: 'token' }, { type: 'uint256', name: 'tokenId' }, { type: 'address', name: 'recipient' }, { type: 'bool', name: 'claimed' }] }]
      : [],
    constants,
    state,
    errors,
    events,
    modifiers,
    ctor,
    functions,
  };
  return { license: 'MIT', solidityVersion: SOLC_VERSION, interfaces: interfaces(s), contract };
}

const sourceCache = new Map<string, string>();

/** The fixed Solidity source of a shape (memoized). */
export function contractSource(s: EvmShape): string {
  const key = shapeKey(s);
  let src = sourceCache.get(key);
  if (src === undefined) {
    src = printSource(buildContractModel(s));
    sourceCache.set(key, src);
  }
  return src;
}
