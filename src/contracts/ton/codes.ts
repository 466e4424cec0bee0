/** Message opcodes, error codes, states and fixed amounts of the TON contract, shared with its deploy script and tests. */

export const OP = {
  deposit: 0x64706f73,
  checkIn: 0x636b696e,
  update: 0x75706474,
  cancel: 0x636e636c,
  withdraw: 0x77647261,
  release: 0x726c7365,
  approve: 0x61707276,
  veto: 0x7665746f,
  claim: 0x636c6169,
  payout: 0x7061796f,
  claimJetton: 0x636c6a74,
  discover: 0x64697363,
  returnJettons: 0x726a6574,
  shareUnlisted: 0x756e6c73,
  /** TEP-74 / TEP-89 jetton messages. */
  jettonTransfer: 0x0f8a7ea5,
  transferNotification: 0x7362d09c,
  excesses: 0xd53276db,
  provideWalletAddress: 0x2c76b973,
  takeWalletAddress: 0xd1735400,
} as const;

export const ERR = {
  notOwner: 401,
  notBeneficiary: 402,
  notGuardian: 403,
  notReleased: 410,
  deadlinePassed: 411,
  notActive: 412,
  nothingToClaim: 413,
  badShares: 414,
  notInGrace: 415,
  alreadyVoted: 416,
  insufficientFunds: 417,
  vetoLimit: 418,
  notStarted: 419,
  unknownJetton: 420,
  unlistedFull: 421,
  unknownOp: 0xffff,
} as const;

export const STATE = { active: 0, released: 1, cancelled: 2 } as const;

/** Nanotons sent with each jetton-wallet discovery request and with each jetton returned on cancel. */
export const JETTON_MESSAGE_VALUE = 50_000_000n;
/** Nanotons per jetton message on top of JETTON_MESSAGE_VALUE that a paid discovery or return must attach (forwarding fees). */
export const JETTON_FEE_MARGIN = 20_000_000n;
/** After the release the reserve still covers this long, and it never decays below this much rent. */
export const CLAIM_WINDOW_SECONDS = 365 * 86_400;
/** Query ids of jetton returns on cancel: RETURN_QUERY_BASE + jetton index (claims use index << 8 | jetton, below 2^16). */
export const RETURN_QUERY_BASE = 0x10000;
/** Query id of every transfer of an unlisted jetton (a share, or the owner's return), so that its bounce is recognised. */
export const UNLISTED_QUERY = 0x20000;
/** At most this many unlisted jetton wallets are recorded at once (the state, and so the rent, stays bounded). */
export const TON_MAX_UNLISTED = 8;
