import type { Store, Tx } from '../../src/store/port.js';

/**
 * `target` seen with some of its methods replaced (to count or fail reads and writes in a test): every other property
 * is its own, its methods bound to it.
 */
export function overriding<T extends object>(target: T, replace: { [K in keyof T]?: unknown }): T {
  return new Proxy(target, {
    get(t, prop, receiver) {
      if (Object.hasOwn(replace, prop)) return replace[prop as keyof T];
      const v = Reflect.get(t, prop, receiver);
      return typeof v === 'function' ? v.bind(t) : v;
    },
  });
}

/** `store` whose transactions see their Tx through `wrap` first; `onTransact` is told of each one. */
export function wrapTransactions(store: Store, wrap: (tx: Tx) => Tx, onTransact?: () => void): Store {
  return overriding(store, {
    transact: (fn: (tx: Tx) => Promise<unknown>, opts?: Parameters<Store['transact']>[1]) => {
      onTransact?.();
      return store.transact((tx) => fn(wrap(tx)), opts);
    },
  });
}
