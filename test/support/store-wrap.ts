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

/**
 * Counts the records of `collection` that `store`'s reads hand out (get, findBy, all and scan, in transactions and outside
 * them) from now until `restore()`, by replacing the store's methods in place: a service built on it counts too.
 */
export function countReads(store: Store, collection: string): { count: () => number; restore: () => void } {
  let n = 0;
  const own = { transact: store.transact, get: store.get, findBy: store.findBy, all: store.all };
  const reads = (target: Pick<Tx, 'get' | 'findBy' | 'all'>) => ({
    get: async (c: string, id: string) => {
      const doc = await target.get(c, id);
      if (c === collection && doc) n += 1;
      return doc;
    },
    findBy: async (c: string, field: string, value: never) => {
      const found = await target.findBy(c, field, value);
      if (c === collection) n += found.length;
      return found;
    },
    all: async (c: string) => {
      const found = await target.all(c);
      if (c === collection) n += found.length;
      return found;
    },
  });
  const txReads = (tx: Tx) => ({
    ...reads(tx),
    scan: async function* (c: string) {
      for await (const doc of tx.scan(c)) {
        if (c === collection) n += 1;
        yield doc;
      }
    },
  });
  const transact = own.transact.bind(store);
  store.transact = ((fn: (tx: Tx) => Promise<unknown>, opts?: Parameters<Store['transact']>[1]) =>
    transact((tx) => fn(overriding(tx, txReads(tx))), opts)) as Store['transact'];
  Object.assign(
    store,
    reads({ get: own.get.bind(store), findBy: own.findBy.bind(store), all: own.all.bind(store) } as Pick<
      Tx,
      'get' | 'findBy' | 'all'
    >),
  );
  return { count: () => n, restore: () => Object.assign(store, own) };
}
