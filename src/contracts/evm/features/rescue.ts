import type { Stmt } from '../solidity.js';
import { fn, ifThen, loop, p, priv, type EvmContractBuilder } from '../builder.js';

/**
 * rescueToken() and rescueNft(): the owner takes back an asset the plan does
 * not list (sent by mistake), or any asset after cancel(). A listed asset
 * stays in the plan while it is live. After release the owner can no longer
 * act, so an unlisted NFT (sent with plain transferFrom, an airdrop) goes to
 * one heir with claimUnlistedNft(): an NFT cannot be split by shares.
 */
export function addRescue(b: EvmContractBuilder): void {
  const T = b.s.erc20;
  const N = b.s.erc721;
  if (T || N)
    b.add('errors', 'rescue', {
      name: 'ListedAsset',
      params: [p('address', 'token')],
      doc: 'A listed asset stays in the plan; the owner takes it back only after cancel().',
    });
  b.add(
    'events',
    'rescue',
    {
      name: 'TokenRescued',
      params: [{ type: 'address', name: 'token', indexed: true }, p('uint256', 'amount')],
      doc: 'The owner took back ERC-20 tokens (unlisted, or any after cancel).',
    },
    {
      name: 'NftRescued',
      params: [
        { type: 'address', name: 'token', indexed: true },
        { type: 'uint256', name: 'tokenId', indexed: true },
      ],
      doc: 'The owner took back an NFT (unlisted, or any after cancel).',
    },
  );

  addUnlistedNftClaim(b);

  const tokenBody: Stmt[] = [
    ...(T ? [ifThen('!_cancelled && _isToken[token]', 'revert ListedAsset(token)')] : []),
    'uint256 amount = _tokenBalance(token)',
    ifThen('amount == 0', 'revert NothingToClaim()'),
    'emit TokenRescued(token, amount)',
    '_safeTransfer(token, _owner, amount)',
  ];
  const nftBody: Stmt[] = [
    ...(N
      ? [
          'uint256 slot = _nftSlot(token, tokenId)',
          ifThen('slot != 0', ifThen('!_cancelled', 'revert ListedAsset(token)'), '_nfts[slot - 1].claimed = true'),
        ]
      : []),
    'emit NftRescued(token, tokenId)',
    'IERC721Minimal(token).transferFrom(address(this), _owner, tokenId)',
  ];
  b.add(
    'functions',
    'rescue',
    fn(
      'rescueToken',
      {
        notice:
          'Owner takes back an ERC-20 token ' +
          (T
            ? 'that is not listed (sent by mistake), or any token after cancel().'
            : 'sent by mistake (this plan lists none).'),
        dev: 'Possible while the plan is live (then proof of life) or after cancel(); the whole balance goes to the owner.',
        params: { token: 'The ERC-20 token.' },
      },
      [p('address', 'token')],
      { mods: ['onlyOwner', 'liveOrCancelled', 'nonReentrant'] },
      tokenBody,
    ),
    fn(
      'rescueNft',
      {
        notice:
          'Owner takes back an NFT ' +
          (N
            ? 'that is not listed (sent with transferFrom by mistake), or any NFT after cancel().'
            : 'sent with transferFrom by mistake (this plan lists none).'),
        dev: 'Possible while the plan is live (then proof of life) or after cancel().',
        params: { token: 'The ERC-721 contract.', tokenId: 'The token id.' },
      },
      [p('address', 'token'), p('uint256', 'tokenId')],
      { mods: ['onlyOwner', 'liveOrCancelled', 'nonReentrant'] },
      nftBody,
    ),
  );
}

/**
 * claimUnlistedNft(): after release, an NFT the plan does not list but the contract holds goes to the heir with the
 * largest share (the first listed at a tie), who names where it goes. Without this, an NFT sent with plain
 * transferFrom after the owner's death would stay locked: rescueNft() is the owner's, and the owner is gone. The
 * call checks ownerOf, so a fungible token whose transferFrom shares the ERC-721 selector is never moved by it.
 */
function addUnlistedNftClaim(b: EvmContractBuilder): void {
  const T = b.s.erc20;
  const N = b.s.erc721;
  b.add(
    'errors',
    'rescue',
    { name: 'NotNftHeir', params: [], doc: 'Only the heir with the largest share takes an unlisted NFT.' },
    {
      name: 'NftNotHeld',
      params: [p('address', 'token'), p('uint256', 'tokenId')],
      doc: 'The contract does not hold this NFT (or the token is not an ERC-721).',
    },
  );
  b.add('events', 'rescue', {
    name: 'UnlistedNftClaimed',
    params: [
      { type: 'address', name: 'token', indexed: true },
      { type: 'uint256', name: 'tokenId', indexed: true },
      { type: 'address', name: 'recipient', indexed: true },
    ],
    doc: 'After release, the heir with the largest share took an NFT the plan did not list.',
  });
  const notHeld = 'revert NftNotHeld(token, tokenId)';
  b.add(
    'functions',
    'rescue',
    fn(
      'unlistedNftHeir',
      {
        notice: 'The heir who takes, after release, an NFT the plan does not list.',
        dev: 'The beneficiary with the largest share; the first listed one at a tie.',
        returns: ['The heir address.'],
      },
      [],
      { mut: 'view', returns: [p('address')] },
      ['return _nftHeir()'],
    ),
    fn(
      'claimUnlistedNft',
      {
        notice:
          'After release, the heir with the largest share takes an NFT the plan does not list (sent with plain transferFrom, an airdrop), so that it is not locked.',
        dev: 'An NFT cannot be split by shares. Sent with transferFrom: the recipient must be able to hold NFTs.',
        params: { token: 'The ERC-721 contract.', tokenId: 'The token id.', recipient: 'Where the NFT goes.' },
      },
      [p('address', 'token'), p('uint256', 'tokenId'), p('address', 'recipient')],
      { mods: ['nonReentrant', 'whenReleased'] },
      [
        ifThen('recipient == address(0)', 'revert ZeroAddress()'),
        ...(N ? [ifThen('_nftSlot(token, tokenId) != 0', 'revert ListedAsset(token)')] : []),
        ...(T ? [ifThen('_isToken[token]', 'revert ListedAsset(token)')] : []),
        ifThen('msg.sender != _nftHeir()', 'revert NotNftHeir()'),
        ifThen('token.code.length == 0', notHeld),
        {
          head: 'try IERC721Minimal(token).ownerOf(tokenId) returns (address holder)',
          body: [ifThen('holder != address(this)', notHeld)],
          catch: [notHeld],
        },
        'emit UnlistedNftClaimed(token, tokenId, recipient)',
        'IERC721Minimal(token).transferFrom(address(this), recipient, tokenId)',
      ],
    ),
  );
  b.add(
    'functions',
    'nfts.internals',
    priv('_nftHeir', [], { mut: 'view', returns: [p('address')] }, [
      'uint256 n = _beneficiaries.length',
      'address heir = _beneficiaries[0]',
      'uint256 best = _shares[heir]',
      loop(
        'n',
        'address account = _beneficiaries[i]',
        ifThen('_shares[account] > best', 'heir = account', 'best = _shares[account]'),
      ),
      'return heir',
    ]),
  );
}
