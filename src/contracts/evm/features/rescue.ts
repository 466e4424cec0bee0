import type { Stmt } from '../solidity.js';
import { fn, ifThen, p, type EvmContractBuilder } from '../builder.js';

/**
 * rescueToken() and rescueNft(): the owner takes back an asset the plan does
 * not list (sent by mistake), or any asset after cancel(). A listed asset
 * stays in the plan while it is live.
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
