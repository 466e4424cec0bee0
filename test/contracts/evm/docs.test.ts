import { describe, expect, it } from 'vitest';
import { DocsIndex } from '../../../src/docs/search.js';
import { TOOLS } from '../../../src/tools/index.js';

// The safety properties of issue #15 are explained in a user's words, and search_docs finds them.
const docs = DocsIndex.load(TOOLS);

const QUESTIONS: Array<[string, string]> = [
  ['I sent an NFT to the contract by mistake, how do I get it back', 'Tokens sent by mistake are refused or rescued'],
  ['rescue an ERC-20 token that is not listed', 'Tokens sent by mistake are refused or rescued'],
  ['cancel fails because a token is paused', 'Cancel returns each asset on its own, and failures can be retried'],
  [
    'retry returning a blocklisted token after cancel',
    'Cancel returns each asset on its own, and failures can be retried',
  ],
  [
    'does a deposit or an update reset the dead man switch timer',
    'Proof of life: every owner action resets the switch timer',
  ],
  [
    'beneficiary is a multisig contract that cannot receive ETH',
    'claimTo: beneficiaries that cannot receive ETH, NFTs or a token',
  ],
  ['rebasing token balance fell, claims revert', 'Fee-on-transfer and rebasing tokens: claims pay from what is held'],
  ["what happens if I omit the dead man's switch", "The default dead man's switch"],
  ['tokens airdropped to the contract after the deadline', 'Airdrops after the deadline are shared, not locked'],
  [
    'a beneficiary claimed early, who gets the rebase gain',
    'Fee-on-transfer and rebasing tokens: claims pay from what is held',
  ],
];

describe('contract safety docs', () => {
  it.each(QUESTIONS)('"%s" → %s', (q, heading) => {
    const [top] = docs.search(q, 3);
    expect(top?.slug).toBe('contract-safety');
    expect(top?.heading).toBe(heading);
  });

  it('names the functions the contracts really have', () => {
    const text = docs.pages.get('contract-safety')!.markdown;
    for (const name of [
      'rescueToken(token)',
      'rescueNft(token, tokenId)',
      'claimTo(recipient)',
      'claimNftTo(index, recipient)',
      'ReturnFailed',
      'UnlistedNft',
      'ListedAsset',
      'withdraw(amount)',
      'claimToken(token)',
      'claimTokenTo(token, recipient)',
      'NftCollection',
    ]) {
      expect(text).toContain(name);
    }
  });
});
