import type { Store } from '../../src/store/index.js';

/**
 * Holds every transaction of `store` at a gate until `open()`: a request whose answer needed one could not come back
 * while it is closed. `held()` counts the transactions that reached the gate; `open()` lets them all run and puts the
 * store's own `transact` back.
 */
export function gateTransactions(store: Store): { held: () => number; open: () => void } {
  const transact = store.transact.bind(store);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  store.transact = (async (fn: Parameters<typeof transact>[0]) => {
    held++;
    await gate;
    return transact(fn);
  }) as typeof store.transact;
  return {
    held: () => held,
    open: () => {
      release();
      store.transact = transact;
    },
  };
}
