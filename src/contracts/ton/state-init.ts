/**
 * The deployable form of a TON contract: its StateInit (code and initial data cells) as base64 BoCs, and the address
 * the StateInit determines (workchain 0). Whoever sends the StateInit with a first message deploys exactly this
 * contract at exactly this address, so the address is known before anything is sent.
 */
import { beginCell, type Cell, contractAddress, storeStateInit } from '@ton/core';

export interface TonStateInit {
  /** The code cell, base64 BoC. */
  codeBoc: string;
  /** The initial data cell (the plan's values), base64 BoC. */
  dataBoc: string;
  /** The StateInit cell holding both, base64 BoC. */
  stateInitBoc: string;
  /** The address of the contract, user-friendly bounceable form. */
  address: string;
  /** The same address in raw form, `0:<64 hex>`. */
  rawAddress: string;
}

export function tonStateInit(code: Cell, data: Cell, workchain = 0): TonStateInit {
  const init = { code, data };
  const address = contractAddress(workchain, init);
  return {
    codeBoc: code.toBoc().toString('base64'),
    dataBoc: data.toBoc().toString('base64'),
    stateInitBoc: beginCell().store(storeStateInit(init)).endCell().toBoc().toString('base64'),
    address: address.toString({ bounceable: true }),
    rawAddress: address.toRawString(),
  };
}
