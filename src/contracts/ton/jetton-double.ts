import { beginCell, type Cell, contractAddress, type Address } from '@ton/core';
import { compileFuncCached } from './compile.js';
import { printModule, emptyModule } from './func-model.js';
import { STDLIB, stdlibFor } from './stdlib.js';

/**
 * A minimal jetton (TEP-74 transfers and notifications, TEP-89 wallet
 * discovery) used only to verify the inheritance contract's jetton path in
 * the sandbox: it is installed at the plan's jetton master address there.
 * Not generated output and never deployed anywhere else.
 */
const BODY = `
const int op::transfer = 0x0f8a7ea5;
const int op::internal_transfer = 0x178d4519;
const int op::transfer_notification = 0x7362d09c;
const int op::provide_wallet_address = 0x2c76b973;
const int op::take_wallet_address = 0xd1735400;
const int op::mint = 21;
const int op::set_refusing = 0x72667573;

cell wallet_data_r(int balance, slice owner, slice master, cell code, int refusing) inline {
    return begin_cell().store_uint(0, 1).store_coins(balance).store_slice(owner).store_slice(master).store_ref(code).store_uint(refusing, 1).end_cell();
}

cell wallet_data(int balance, slice owner, slice master, cell code) inline {
    return wallet_data_r(balance, owner, master, code, 0);
}

cell wallet_init(slice owner, slice master, cell code) inline {
    return begin_cell().store_uint(0, 2).store_dict(code).store_dict(wallet_data(0, owner, master, code)).store_uint(0, 1).end_cell();
}

slice wallet_address(cell init) inline {
    return begin_cell().store_uint(4, 3).store_int(0, 8).store_uint(cell_hash(init), 256).end_cell().begin_parse();
}

() send_with_init(slice to, cell init, cell body) impure inline {
    send_raw_message(begin_cell().store_uint(0x18, 6).store_slice(to).store_coins(0)
        .store_uint(4 + 2 + 1, 1 + 4 + 4 + 64 + 32 + 1 + 1 + 1).store_ref(init).store_ref(body).end_cell(), 64);
}

() recv_internal(int balance, int msg_value, cell in_msg_full, slice body) impure {
    slice cs = in_msg_full.begin_parse();
    int flags = cs~load_uint(4);
    slice sender = cs~load_msg_addr();
    slice ds = get_data().begin_parse();
    int kind = ds~load_uint(1);
    if (kind == 1) {
        ;; master: admin, wallet code
        slice admin = ds~load_msg_addr();
        cell code = ds~load_ref();
        if (flags & 1) { return (); }
        int op = body~load_uint(32);
        int query_id = body~load_uint(64);
        if (op == op::mint) {
            throw_unless(73, equal_slices(sender, admin));
            slice to = body~load_msg_addr();
            int amount = body~load_coins();
            int forward = body~load_coins();
            cell init = wallet_init(to, my_address(), code);
            send_with_init(wallet_address(init), init, begin_cell().store_uint(op::internal_transfer, 32).store_uint(query_id, 64)
                .store_coins(amount).store_slice(my_address()).store_uint(0, 2).store_coins(forward).store_uint(0, 1).end_cell());
            return ();
        }
        if (op == op::provide_wallet_address) {
            slice owner = body~load_msg_addr();
            cell init = wallet_init(owner, my_address(), code);
            send_raw_message(begin_cell().store_uint(0x18, 6).store_slice(sender).store_coins(0).store_uint(1, 1 + 4 + 4 + 64 + 32 + 1 + 1)
                .store_ref(begin_cell().store_uint(op::take_wallet_address, 32).store_uint(query_id, 64)
                    .store_slice(wallet_address(init)).store_uint(0, 1).end_cell()).end_cell(), 64);
            return ();
        }
        throw(0xffff);
    }
    ;; wallet: balance, owner, master, code
    int jbalance = ds~load_coins();
    slice owner = ds~load_msg_addr();
    slice master = ds~load_msg_addr();
    cell code = ds~load_ref();
    int refusing = ds~load_uint(1);
    if (flags & 1) {
        body~skip_bits(32);
        if (body~load_uint(32) == op::internal_transfer) {
            body~skip_bits(64);
            set_data(wallet_data_r(jbalance + body~load_coins(), owner, master, code, refusing));
        }
        return ();
    }
    int op = body~load_uint(32);
    int query_id = body~load_uint(64);
    if (op == op::set_refusing) {
        ;; test control: while set, the wallet refuses (throws on) its owner's transfers, so they bounce
        set_data(wallet_data_r(jbalance, owner, master, code, body~load_uint(1)));
        return ();
    }
    if (op == op::transfer) {
        throw_unless(705, equal_slices(sender, owner));
        throw_if(708, refusing);
        int amount = body~load_coins();
        slice to = body~load_msg_addr();
        slice response = body~load_msg_addr();
        body~load_dict();
        int forward = body~load_coins();
        throw_unless(706, amount <= jbalance);
        cell init = wallet_init(to, master, code);
        send_with_init(wallet_address(init), init, begin_cell().store_uint(op::internal_transfer, 32).store_uint(query_id, 64)
            .store_coins(amount).store_slice(owner).store_slice(response).store_coins(forward).store_uint(0, 1).end_cell());
        set_data(wallet_data_r(jbalance - amount, owner, master, code, refusing));
        return ();
    }
    if (op == op::internal_transfer) {
        int amount = body~load_coins();
        slice from = body~load_msg_addr();
        body~load_msg_addr();
        int forward = body~load_coins();
        throw_unless(707, equal_slices(sender, master) | equal_slices(sender, wallet_address(wallet_init(from, master, code))));
        set_data(wallet_data_r(jbalance + amount, owner, master, code, refusing));
        if (forward > 0) {
            send_raw_message(begin_cell().store_uint(0x10, 6).store_slice(owner).store_coins(forward).store_uint(1, 1 + 4 + 4 + 64 + 32 + 1 + 1)
                .store_ref(begin_cell().store_uint(op::transfer_notification, 32).store_uint(query_id, 64).store_coins(amount)
                    .store_slice(from).store_uint(0, 1).end_cell()).end_cell(), 1 + 2);
        }
        return ();
    }
    throw(0xffff);
}

(int, slice, slice) get_wallet_data() method_id {
    slice ds = get_data().begin_parse();
    ds~skip_bits(1);
    return (ds~load_coins(), ds~load_msg_addr(), ds~load_msg_addr());
}
`;

/** The double's source: the shared stdlib declarations followed by the body above. */
export function jettonDoubleSource(): string {
  const m = emptyModule(['Test double: a minimal jetton master and wallet (sandbox verification only).']);
  m.asm = stdlibFor(Object.keys(STDLIB));
  return printModule(m) + BODY;
}

export async function jettonDoubleCode(): Promise<Cell> {
  return (await compileFuncCached(jettonDoubleSource(), { persist: true })).code;
}

/** Master data: kind=1, admin, wallet code (the same code, acting as a wallet with kind=0 data). */
export function jettonMasterData(admin: Address, code: Cell): Cell {
  return beginCell().storeUint(1, 1).storeAddress(admin).storeRef(code).endCell();
}

export function jettonMintBody(to: Address, amount: bigint, forwardTon: bigint): Cell {
  return beginCell()
    .storeUint(21, 32)
    .storeUint(0, 64)
    .storeAddress(to)
    .storeCoins(amount)
    .storeCoins(forwardTon)
    .endCell();
}

/** The double's wallet address for `owner` (same layout as wallet_data / wallet_init above). */
export function jettonWalletAddress(code: Cell, owner: Address, master: Address): Address {
  return contractAddress(0, { code, data: jettonWalletData(0n, owner, master, code) });
}

export function jettonWalletData(balance: bigint, owner: Address, master: Address, code: Cell, refusing = false): Cell {
  return beginCell()
    .storeUint(0, 1)
    .storeCoins(balance)
    .storeAddress(owner)
    .storeAddress(master)
    .storeRef(code)
    .storeBit(refusing)
    .endCell();
}

/** Body that makes a double's wallet refuse (true) or accept again (false) its owner's transfers. */
export function jettonSetRefusingBody(refusing: boolean): Cell {
  return beginCell().storeUint(0x72667573, 32).storeUint(0, 64).storeBit(refusing).endCell();
}
