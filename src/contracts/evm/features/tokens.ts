import type { FunctionDef, StateVariable } from '../solidity.js';
import { constant, fn, ifThen, loop, p, priv, variable, type EvmContractBuilder } from '../builder.js';

export const MAX_TOKENS = 20;

/**
 * ERC-20 tokens: the listed tokens (constructor list, returned on cancel) and,
 * in every shape, claims of any ERC-20 the contract holds once released
 * (airdrops included), with the transfer helpers the rescue uses too.
 */
export function addTokens(b: EvmContractBuilder): void {
  const T = b.s.erc20;
  b.add('interfaces', 'tokens', {
    name: 'IERC20Minimal',
    doc: T
      ? 'The part of ERC-20 this contract uses.'
      : 'The part of ERC-20 this contract uses to return tokens sent by mistake.',
    functions: [
      {
        kind: 'function',
        name: 'balanceOf',
        params: [p('address', 'account')],
        visibility: 'external',
        mutability: 'view',
        returns: [p('uint256')],
        body: [],
      },
      {
        kind: 'function',
        name: 'transfer',
        params: [p('address', 'to'), p('uint256', 'amount')],
        visibility: 'external',
        returns: [p('bool')],
        body: [],
      },
    ],
  });
  b.add(
    'errors',
    'tokens',
    { name: 'NotAContract', params: [p('address', 'token')], doc: 'The token address holds no code.' },
    { name: 'TokenTransferFailed', params: [p('address', 'token')], doc: 'An ERC-20 transfer failed.' },
  );
  b.add('events', 'tokens', {
    name: 'TokenClaimed',
    params: [
      { type: 'address', name: 'token', indexed: true },
      { type: 'address', name: 'beneficiary', indexed: true },
      p('uint256', 'amount'),
    ],
    doc: 'A beneficiary claimed ERC-20 tokens.',
  });
  if (T) addListedTokens(b);
  b.add('state', 'tokens', ...claimState());
  b.add('functions', 'tokens', ...claimFunctions(b));
  b.add('functions', 'tokens.internals', ...transferHelpers());
}

function addListedTokens(b: EvmContractBuilder): void {
  b.add(
    'constants',
    'tokens',
    constant('uint256', 'MAX_TOKENS', String(MAX_TOKENS), 'Upper bound on listed ERC-20 tokens.'),
  );
  b.add('state', 'tokens', variable('address[]', '_tokens'), variable('mapping(address => bool)', '_isToken'));
  b.ctor.params.push(p('address[]', 'tokens_', 'memory'));
  b.ctor.docs['tokens_'] = 'ERC-20 tokens shared like ETH.';
  b.ctor.body.push(
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
  b.cancelReturns.push(
    loop(
      '_tokens.length',
      'address token = _tokens[i]',
      'uint256 held = _tokenBalance(token)',
      ifThen('held > 0 && !_tryTransfer(token, _owner, held)', 'emit ReturnFailed(token, held)'),
    ),
  );
  b.add(
    'functions',
    'tokens',
    fn(
      'tokens',
      { notice: 'The listed ERC-20 tokens.', returns: ['Token addresses.'] },
      [],
      { mut: 'view', returns: [p('address[]', undefined, 'memory')] },
      ['return _tokens'],
    ),
  );
}

/** Token claims, for the listed tokens and, after release, any ERC-20 the contract holds. */
function claimState(): StateVariable[] {
  return [
    variable(
      'mapping(address => uint256)',
      '_tokenRound',
      'Per token: the claim round; a new one starts when every share has claimed and a balance is left or arrives.',
    ),
    variable(
      'mapping(address => uint256)',
      '_tokenOut',
      'Per token: basis points of the shares that claimed in the current round.',
    ),
    variable(
      'mapping(address => uint256)',
      '_tokenTotal',
      'Per token: the round total each unclaimed share is owed its basis points of; scaled with the balance when it rises or falls, so gains and losses fall only on the shares still unclaimed.',
    ),
    variable('mapping(address => uint256)', '_tokenHeld', 'Per token: the balance recorded after the last claim.'),
    variable(
      'mapping(address => mapping(address => uint256))',
      '_tokenClaimedIn',
      'Per token and beneficiary: the round of its last claim plus one (0: never claimed).',
    ),
  ];
}

const CLAIM_DEV =
  'Paid from the balance actually held. Each unclaimed share is owed its basis points of the round total; when the balance rises or falls other than by claims (rebasing, a fee, a deposit after the first claim), the round total is scaled with it, so the gain or loss falls only on the shares still unclaimed. When every share has claimed, what is left or arrives later is shared by all shares again (a new round).';

function claimFunctions(b: EvmContractBuilder): FunctionDef[] {
  const T = b.s.erc20;
  // A listed NFT collection is claimed NFT by NFT, never as an ERC-20.
  const N = b.s.erc721;
  return [
    fn(
      'claimableToken',
      {
        notice:
          'ERC-20 tokens an account can claim now' +
          (T
            ? ' (a listed token, or after release any token the contract holds).'
            : ' (after release, any token the contract holds).'),
        dev: CLAIM_DEV,
        params: { token: 'An ERC-20 token.', account: 'The account.' },
        returns: ['Token units due now (0 before release).'],
      },
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
      {
        notice:
          "Sends the caller's due share of an ERC-20 token: a listed one, or any token that reached the contract (an airdrop after the deadline included).",
        dev:
          CLAIM_DEV +
          ' A token that charges the sender a fee on top of the amount cannot send the whole balance: then the largest amount the balance allows is sent (fees up to half the amount).',
        params: { token: 'An ERC-20 token the contract holds.' },
      },
      [p('address', 'token')],
      { mods: ['nonReentrant', 'whenReleased'] },
      ['_claimToken(token, msg.sender)'],
    ),
    fn(
      'claimTokenTo',
      {
        notice:
          "Sends the caller's due share of an ERC-20 token to another address, for a beneficiary the token refuses (a blocklisting token) or that cannot hold it.",
        params: { token: 'An ERC-20 token the contract holds.', recipient: 'Where the tokens go.' },
      },
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
    tokenDue(),
    priv(
      '_sendTokenUpTo',
      [p('address', 'token'), p('address', 'to'), p('uint256', 'amount')],
      { returns: [p('uint256')] },
      [
        ifThen('token.code.length == 0', 'revert NotAContract(token)'),
        ifThen('_tryTransfer(token, to, amount)', 'return amount'),
        'uint16[9] memory cuts = [uint16(10_000), 1_000, 200, 100, 50, 20, 10, 4, 2]',
        'uint256 n = cuts.length',
        loop(
          'n',
          'uint256 part = amount - amount / cuts[i] - 1',
          ifThen('part != 0 && _tryTransfer(token, to, part)', 'return part'),
        ),
        'revert TokenTransferFailed(token)',
      ],
    ),
  ];
}

/** What an account is owed of a token in the current round, with the round state a claim records. */
function tokenDue(): FunctionDef {
  return priv(
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
          {
            head: 'if (last == 0)',
            body: ['total = (held * TOTAL_SHARES) / (TOTAL_SHARES - out)'],
            else: [ifThen('held != last', 'total = (total * held) / last')],
          },
        ],
      },
      'uint256 share = _shares[account]',
      ifThen('share == 0 || _tokenClaimedIn[token][account] == round + 1', 'return (0, round, out, total)'),
      'due = (total * share) / TOTAL_SHARES',
      ifThen('due > held', 'due = held'),
    ],
  );
}

function transferHelpers(): FunctionDef[] {
  return [
    priv('_tokenBalance', [p('address', 'token')], { mut: 'view', returns: [p('uint256')] }, [
      ifThen('token.code.length == 0', 'return 0'),
      {
        head: 'try IERC20Minimal(token).balanceOf(address(this)) returns (uint256 held)',
        body: ['return held'],
        catch: ['return 0'],
      },
    ]),
    priv('_safeTransfer', [p('address', 'token'), p('address', 'to'), p('uint256', 'amount')], {}, [
      ifThen('token.code.length == 0', 'revert NotAContract(token)'),
      ifThen('!_tryTransfer(token, to, amount)', 'revert TokenTransferFailed(token)'),
    ]),
    priv(
      '_tryTransfer',
      [p('address', 'token'), p('address', 'to'), p('uint256', 'amount')],
      { returns: [p('bool')] },
      [
        '(bool ok, bytes memory data) = token.call(abi.encodeCall(IERC20Minimal.transfer, (to, amount)))',
        'return ok && (data.length == 0 ? token.code.length != 0 : data.length == 32 && abi.decode(data, (uint256)) == 1)',
      ],
    ),
  ];
}
