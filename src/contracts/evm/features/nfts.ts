import type { FunctionDef } from '../solidity.js';
import { constant, fn, ifThen, loop, p, priv, variable, type EvmContractBuilder } from '../builder.js';

export const MAX_NFTS = 20;

/**
 * ERC-721 items: in every shape the transfer the rescue uses; with listed NFTs
 * each one is held for one beneficiary, who claims it after release, and only
 * listed NFTs are accepted by safeTransferFrom.
 */
export function addNfts(b: EvmContractBuilder): void {
  const N = b.s.erc721;
  b.add('interfaces', 'nfts', {
    name: 'IERC721Minimal',
    doc: N
      ? 'The part of ERC-721 this contract uses.'
      : 'The part of ERC-721 this contract uses to return NFTs sent by mistake, or hand them to an heir after release.',
    functions: [
      {
        kind: 'function',
        name: 'ownerOf',
        params: [p('uint256', 'tokenId')],
        visibility: 'external',
        mutability: 'view',
        returns: [p('address')],
        body: [],
      },
      {
        kind: 'function',
        name: 'transferFrom',
        params: [p('address', 'from'), p('address', 'to'), p('uint256', 'tokenId')],
        visibility: 'external',
        body: [],
      },
      ...(N
        ? [
            {
              kind: 'function',
              name: 'safeTransferFrom',
              params: [p('address', 'from'), p('address', 'to'), p('uint256', 'tokenId')],
              visibility: 'external',
              body: [],
            } satisfies FunctionDef,
          ]
        : []),
    ],
  });
  if (N) addListedNfts(b);
}

function addListedNfts(b: EvmContractBuilder): void {
  b.add('interfaces', 'nfts', {
    name: 'IERC721ReceiverMinimal',
    doc: 'ERC-721 receiver hook, so owners can use safeTransferFrom to deposit the listed NFTs.',
    functions: [
      {
        kind: 'function',
        name: 'onERC721Received',
        params: [
          p('address', 'operator'),
          p('address', 'from'),
          p('uint256', 'tokenId'),
          p('bytes', 'data', 'calldata'),
        ],
        visibility: 'external',
        returns: [p('bytes4')],
        body: [],
      },
    ],
  });
  b.add('structs', 'nfts', {
    name: 'NftItem',
    doc: 'An NFT held for one beneficiary.',
    fields: [
      { type: 'address', name: 'token' },
      { type: 'uint256', name: 'tokenId' },
      { type: 'address', name: 'recipient' },
      { type: 'bool', name: 'claimed' },
    ],
  });
  b.add('constants', 'nfts', constant('uint256', 'MAX_NFTS', String(MAX_NFTS), 'Upper bound on listed ERC-721 items.'));
  b.add('state', 'nfts', variable('NftItem[]', '_nfts'));
  b.add(
    'errors',
    'nfts',
    { name: 'UnknownNft', params: [p('uint256', 'index')], doc: 'No NFT is listed at this index.' },
    { name: 'NotNftRecipient', params: [], doc: 'The NFT is assigned to another beneficiary.' },
    {
      name: 'UnlistedNft',
      params: [p('address', 'token'), p('uint256', 'tokenId')],
      doc: 'This NFT is not listed in the plan (or was already claimed or returned); it is refused.',
    },
    {
      name: 'NftCollection',
      params: [p('address', 'token')],
      doc: 'A listed NFT collection is not an ERC-20 token; its NFTs are claimed with claimNft().',
    },
    { name: 'DuplicateNft', params: [p('address', 'token'), p('uint256', 'tokenId')], doc: 'An NFT is listed twice.' },
  );
  b.add(
    'events',
    'nfts',
    {
      name: 'NftClaimed',
      params: [
        { type: 'address', name: 'token', indexed: true },
        { type: 'uint256', name: 'tokenId', indexed: true },
        { type: 'address', name: 'recipient', indexed: true },
      ],
      doc: 'A beneficiary claimed an NFT.',
    },
    {
      name: 'NftAssigned',
      params: [
        { type: 'uint256', name: 'index', indexed: true },
        { type: 'address', name: 'recipient', indexed: true },
      ],
      doc: 'The owner assigned an NFT to another recipient.',
    },
  );

  b.ctor.params.push(
    p('address[]', 'nftTokens_', 'memory'),
    p('uint256[]', 'nftIds_', 'memory'),
    p('address[]', 'nftRecipients_', 'memory'),
  );
  b.ctor.docs['nftTokens_'] = 'ERC-721 contract of each listed NFT.';
  b.ctor.docs['nftIds_'] = 'Token id of each listed NFT.';
  b.ctor.docs['nftRecipients_'] = 'Beneficiary that receives each listed NFT.';
  b.ctor.body.push(
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
  b.cancelReturns.push(
    loop(
      '_nfts.length',
      'NftItem storage item = _nfts[i]',
      ifThen('!item.claimed && _holdsNft(item.token, item.tokenId)', 'item.claimed = true', {
        head: 'try IERC721Minimal(item.token).transferFrom(address(this), _owner, item.tokenId)',
        body: [],
        catch: ['item.claimed = false', 'emit ReturnFailed(item.token, item.tokenId)'],
      }),
    ),
  );
  b.checkIn.actions.push('NFT assignment');
  b.add('functions', 'nfts', ...nftFunctions(b));
  b.add('functions', 'nfts.internals', ...nftHelpers());
}

function nftFunctions(b: EvmContractBuilder): FunctionDef[] {
  return [
    fn(
      'nftCount',
      { notice: 'Number of listed NFTs.', returns: ['Count.'] },
      [],
      { mut: 'view', returns: [p('uint256')] },
      ['return _nfts.length'],
    ),
    fn(
      'nftAt',
      {
        notice: 'A listed NFT.',
        params: { index: 'Position in the list.' },
        returns: ['ERC-721 contract.', 'Token id.', 'Recipient.', 'Whether it was claimed (or returned on cancel).'],
      },
      [p('uint256', 'index')],
      { mut: 'view', returns: [p('address'), p('uint256'), p('address'), p('bool')] },
      [
        ifThen('index >= _nfts.length', 'revert UnknownNft(index)'),
        'NftItem storage item = _nfts[index]',
        'return (item.token, item.tokenId, item.recipient, item.claimed)',
      ],
    ),
    fn(
      'assignNft',
      {
        notice: `Owner assigns a listed NFT to another recipient (${b.ownerWindow}).`,
        params: { index: 'Position in the list.', recipient: 'New recipient.' },
      },
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
      {
        notice:
          'The assigned beneficiary sends a listed NFT to another address, for a beneficiary (e.g. a contract) that cannot receive NFTs itself.',
        params: { index: 'Position in the list.', recipient: 'Where the NFT goes.' },
      },
      [p('uint256', 'index'), p('address', 'recipient')],
      { mods: ['nonReentrant', 'whenReleased'] },
      [ifThen('recipient == address(0)', 'revert ZeroAddress()'), '_claimNft(index, recipient)'],
    ),
    fn(
      'onERC721Received',
      {
        notice: 'Accepts only the listed NFTs sent with safeTransferFrom; any other NFT is refused.',
        returns: ['The ERC-721 receiver selector.'],
      },
      [p('address'), p('address'), p('uint256', 'tokenId'), p('bytes', undefined, 'calldata')],
      { mut: 'view', returns: [p('bytes4')] },
      [
        ifThen('_cancelled', 'revert ContractCancelled()'),
        'uint256 slot = _nftSlot(msg.sender, tokenId)',
        ifThen('slot == 0 || _nfts[slot - 1].claimed', 'revert UnlistedNft(msg.sender, tokenId)'),
        'return IERC721ReceiverMinimal.onERC721Received.selector',
      ],
    ),
  ];
}

function nftHelpers(): FunctionDef[] {
  return [
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
      loop(
        'n',
        'NftItem storage item = _nfts[i]',
        ifThen('item.token == token && item.tokenId == tokenId', 'return i + 1'),
      ),
      'return 0',
    ]),
    priv('_isNftCollection', [p('address', 'token')], { mut: 'view', returns: [p('bool')] }, [
      'uint256 n = _nfts.length',
      loop('n', ifThen('_nfts[i].token == token', 'return true')),
      'return false',
    ]),
    priv('_holdsNft', [p('address', 'token'), p('uint256', 'tokenId')], { mut: 'view', returns: [p('bool')] }, [
      ifThen('token.code.length == 0', 'return false'),
      {
        head: 'try IERC721Minimal(token).ownerOf(tokenId) returns (address holder)',
        body: ['return holder == address(this)'],
        catch: ['return false'],
      },
    ]),
  ];
}
