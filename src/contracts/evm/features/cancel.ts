import { fn, ifThen, p, type EvmContractBuilder } from '../builder.js';

/**
 * The owner's cancel(): the plan stops and every asset goes back to the owner
 * one by one, each listed kind by the return its feature registered, then the
 * ETH. Run after the asset features.
 */
export function addCancel(b: EvmContractBuilder): void {
  b.add(
    'events',
    'cancel',
    {
      name: 'Cancelled',
      params: [],
      doc: 'The owner cancelled the contract; every asset is returned to the owner one by one.',
    },
    {
      name: 'ReturnFailed',
      params: [{ type: 'address', name: 'asset', indexed: true }, p('uint256', 'amountOrTokenId')],
      doc: 'cancel() could not return this asset (ETH: asset 0); the owner retries with withdraw(), rescueToken() or rescueNft().',
    },
  );
  b.add(
    'functions',
    'cancel',
    fn(
      'cancel',
      {
        notice: `Owner cancels the plan and takes every asset back (${b.ownerWindow}).`,
        dev: 'Each asset is returned on its own: one that cannot be sent (paused, blocklisted) emits ReturnFailed and is retried with withdraw(), rescueToken() or rescueNft(). The contract stops accepting deposits and claims.',
      },
      [],
      { mods: ['onlyOwner', 'ownerInControl', 'nonReentrant'] },
      [
        '_cancelled = true',
        'emit Cancelled()',
        ...b.cancelReturns,
        'uint256 amount = address(this).balance',
        ifThen('amount > 0', '(bool ok, ) = payable(_owner).call{value: amount}("")', {
          head: 'if (ok)',
          body: ['emit Withdrawn(_owner, amount)'],
          else: ['emit ReturnFailed(address(0), amount)'],
        }),
      ],
    ),
  );
}
