import type { Plan } from '../plan.js';
import type { EvmShape } from './shape.js';
import type { ConstructorInputs } from './inputs.js';
import { guardianRulesText, guardianTiming, type GuardianTiming } from '../guardians.js';
import type { EvmAdviceCode, EvmTechnicalCode, EvmWarningCode } from '../../core/messages/evm-words.js';

export type Severity = 'low' | 'medium' | 'high' | 'info';

export interface Finding {
  id: string;
  severity: Severity;
  message: string;
  /** Stable code of the sentence (src/core/messages/evm-words.ts); translations read it with `params`. */
  code: EvmWarningCode | EvmTechnicalCode;
  /** The figures and strings of the message, as data. */
  params: Record<string, number | string>;
}

/** A suggestion with its code and params: `message` is the suggestion's English text, as in `suggestions`. */
export interface Advice {
  code: EvmAdviceCode | EvmTechnicalCode;
  params: Record<string, number | string>;
  message: string;
}

interface AstNode {
  nodeType: string;
  id?: number;
  name?: string;
  memberName?: string;
  kind?: string;
  visibility?: string;
  stateMutability?: string;
  referencedDeclaration?: number;
  documentation?: unknown;
  literals?: string[];
  modifiers?: Array<{ modifierName?: { name?: string } }>;
  expression?: AstNode;
  typeDescriptions?: { typeString?: string };
  [key: string]: unknown;
}

function children(n: AstNode): AstNode[] {
  const out: AstNode[] = [];
  for (const [k, v] of Object.entries(n)) {
    if (k === 'typeDescriptions' || k === 'documentation') continue;
    if (Array.isArray(v)) {
      for (const x of v) if (x && typeof x === 'object' && 'nodeType' in x) out.push(x as AstNode);
    } else if (v && typeof v === 'object' && 'nodeType' in v) {
      out.push(v as AstNode);
    }
  }
  return out;
}

function walk(n: AstNode, visit: (node: AstNode, parent: AstNode | undefined) => void, parent?: AstNode): void {
  visit(n, parent);
  for (const c of children(n)) walk(c, visit, n);
}

const isLowLevelCall = (n: AstNode): boolean => {
  if (n.nodeType !== 'FunctionCall') return false;
  let e = n.expression;
  if (e?.nodeType === 'FunctionCallOptions') e = e.expression;
  return (
    e?.nodeType === 'MemberAccess' &&
    (e.memberName === 'call' || e.memberName === 'send' || e.memberName === 'transfer') &&
    (e.expression?.typeDescriptions?.typeString ?? '').startsWith('address')
  );
};

const isExternalCall = (n: AstNode): boolean => {
  if (n.nodeType !== 'FunctionCall') return false;
  if (isLowLevelCall(n)) return true;
  const t = n.expression?.typeDescriptions?.typeString ?? '';
  return n.expression?.nodeType === 'MemberAccess' && / external/.test(t) && !/ view| pure/.test(t);
};

/**
 * Detectors over the solc AST of a contract: tx.origin, selfdestruct and
 * delegatecall, ignored low-level call results, external calls in functions
 * without a reentrancy guard, state-changing functions that emit no event,
 * unbounded while-loops, external functions without NatSpec, floating pragma.
 */
export function analyzeAst(ast: unknown): Finding[] {
  const root = ast as AstNode | undefined;
  if (!root || typeof root !== 'object') return [];
  const findings: Finding[] = [];
  const add = (
    id: string,
    severity: Severity,
    message: string,
    code: EvmTechnicalCode,
    params: Record<string, string> = {},
  ) => {
    if (!findings.some((f) => f.id === id && f.message === message))
      findings.push({ id, severity, message, code, params });
  };
  const fnById = new Map<number, AstNode>();
  const modById = new Map<number, AstNode>();
  walk(root, (n, parent) => {
    if (
      n.nodeType === 'PragmaDirective' &&
      n.literals?.[0] === 'solidity' &&
      n.literals.some((l) => l.includes('^') || l.includes('>') || l.includes('<'))
    ) {
      add('floating-pragma', 'low', 'The pragma allows several compiler versions; pin one.', 'evm.floating-pragma');
    }
    if (n.nodeType === 'FunctionDefinition' && n.id !== undefined) fnById.set(n.id, n);
    if (n.nodeType === 'ModifierDefinition' && n.id !== undefined) modById.set(n.id, n);
    if (
      n.nodeType === 'MemberAccess' &&
      n.memberName === 'origin' &&
      n.expression?.nodeType === 'Identifier' &&
      n.expression.name === 'tx'
    ) {
      add('tx-origin', 'high', 'tx.origin is used; authorization by tx.origin can be phished.', 'evm.tx-origin');
    }
    if (n.nodeType === 'Identifier' && (n.name === 'selfdestruct' || n.name === 'suicide'))
      add('selfdestruct', 'high', 'selfdestruct is used.', 'evm.selfdestruct');
    if (n.nodeType === 'MemberAccess' && n.memberName === 'delegatecall')
      add(
        'delegatecall',
        'high',
        "delegatecall is used; the callee runs with this contract's storage.",
        'evm.delegatecall',
      );
    if (isLowLevelCall(n) && parent?.nodeType === 'ExpressionStatement') {
      add('unchecked-call', 'high', 'The result of a low-level call is ignored.', 'evm.unchecked-call');
    }
    if (n.nodeType === 'WhileStatement' || n.nodeType === 'DoWhileStatement')
      add('unbounded-loop', 'medium', 'A while-loop has no fixed bound.', 'evm.unbounded-loop');
  });

  // Per function: reachable internal functions and modifiers, external calls, events.
  const facts = new Map<number, { calls: boolean; emits: boolean; writes: boolean; refs: number[] }>();
  const factsOf = (n: AstNode) => {
    const f = { calls: false, emits: false, writes: false, refs: [] as number[] };
    walk(n, (x) => {
      if (isExternalCall(x)) f.calls = true;
      if (x.nodeType === 'EmitStatement') f.emits = true;
      if (
        x.nodeType === 'Assignment' ||
        (x.nodeType === 'UnaryOperation' &&
          (x['operator'] === '++' || x['operator'] === '--' || x['operator'] === 'delete'))
      )
        f.writes = true;
      if (
        x.nodeType === 'FunctionCall' &&
        x.expression?.nodeType === 'Identifier' &&
        x.expression.referencedDeclaration !== undefined
      ) {
        f.refs.push(x.expression.referencedDeclaration);
      }
      if (x.nodeType === 'ModifierInvocation') {
        const ref = (x['modifierName'] as AstNode | undefined)?.referencedDeclaration;
        if (ref !== undefined) f.refs.push(ref);
      }
    });
    return f;
  };
  for (const [id, n] of [...fnById, ...modById]) facts.set(id, factsOf(n));
  const reach = (id: number) => {
    const seen = new Set<number>();
    const stack = [id];
    const acc = { calls: false, emits: false };
    while (stack.length > 0) {
      const cur = stack.pop()!;
      if (seen.has(cur)) continue;
      seen.add(cur);
      const f = facts.get(cur);
      if (!f) continue;
      acc.calls ||= f.calls;
      acc.emits ||= f.emits;
      stack.push(...f.refs);
    }
    return acc;
  };
  for (const [id, n] of fnById) {
    const external = n.visibility === 'external' || n.visibility === 'public';
    const mutating = n.stateMutability !== 'view' && n.stateMutability !== 'pure';
    if (!external || !n['implemented']) continue;
    const isReceiveOrFallback = n.kind === 'receive' || n.kind === 'fallback';
    if (!n.documentation && n.kind === 'function')
      add('missing-natspec', 'info', `Function ${n.name} has no NatSpec.`, 'evm.missing-natspec', {
        function: n.name ?? '',
      });
    if (!mutating) continue;
    const r = reach(id);
    const guarded = (n.modifiers ?? []).some((m) => /nonReentrant/i.test(m.modifierName?.name ?? ''));
    if (r.calls && !guarded)
      add(
        'reentrancy',
        'medium',
        `Function ${n.name || n.kind} makes external calls without a reentrancy guard.`,
        'evm.reentrancy',
        { function: n.name || n.kind || '' },
      );
    if (!r.emits && !isReceiveOrFallback && facts.get(id)?.writes)
      add('missing-event', 'low', `Function ${n.name} changes state without emitting an event.`, 'evm.missing-event', {
        function: n.name ?? '',
      });
  }
  return findings;
}

const PRECOMPILE_MAX = 0x100n;

/** Warnings and suggestions that depend on the plan and on the executed results. */
export function planFindings(
  _plan: Plan,
  shape: EvmShape,
  inputs: ConstructorInputs,
  runtimeSize: number,
  gas: Record<string, number>,
): { warnings: Finding[]; suggestions: string[]; advice: Advice[] } {
  const warnings: Finding[] = [];
  const advice: Advice[] = [];
  const suggest = (
    message: string,
    code: EvmAdviceCode | EvmTechnicalCode,
    params: Record<string, number | string> = {},
  ) => {
    advice.push({ code, params, message });
  };
  const lower = (a: string) => a.toLowerCase();
  const n = inputs.beneficiaries.length;
  if (!shape.deadMansSwitch) {
    warnings.push({
      id: 'no-dead-mans-switch',
      ...(shape.guardians
        ? {
            code: 'evm.owner-or-guardians-release' as const,
            params: { threshold: inputs.threshold, guardians: inputs.guardians.length },
          }
        : { code: 'evm.owner-release-only' as const, params: {} }),
      severity: 'medium',
      message: shape.guardians
        ? `No dead man's switch: the estate is released only by the owner (release()) or by ${inputs.threshold} of ${inputs.guardians.length} guardians (confirmRelease()).`
        : "No dead man's switch: the estate is released only when the owner calls release(); if the owner dies first, the funds stay locked.",
    });
    if (shape.guardians)
      suggest("Consider enabling the dead man's switch as a fallback to the guardians.", 'evm.advice-fallback-switch');
    else
      suggest(
        "Enable the dead man's switch or add guardians, so the estate can be released after the owner's death.",
        'evm.advice-enable-switch',
      );
  } else {
    const days = inputs.intervalDays;
    if (days < 30)
      warnings.push({
        id: 'short-interval',
        code: 'evm.short-interval',
        params: { intervalDays: days },
        severity: 'medium',
        message: `The check-in interval is ${days} day(s): a missed check-in (travel, illness) releases the estate early.`,
      });
    else if (days < 90)
      warnings.push({
        id: 'short-interval',
        code: 'evm.short-interval',
        params: { intervalDays: days },
        severity: 'low',
        message: `The check-in interval is ${days} days; make sure check-ins fit your routine.`,
      });
    if (days > 730)
      warnings.push({
        id: 'long-interval',
        code: 'evm.long-interval',
        params: { intervalDays: days },
        severity: 'low',
        message: `The check-in interval is ${days} days: beneficiaries wait that long after the last check-in.`,
      });
    if (!shape.gracePeriod)
      suggest(
        "Add a grace period so a late check-in (or guardians' veto) can still stop a wrong trigger.",
        'evm.advice-add-grace',
      );
    suggest(
      `Check in before ${days} days pass (checkIn(), about ${gas['checkIn'] ?? 0} gas); every other owner action (a deposit from the owner's address, updateBeneficiaries, withdraw, rescueToken, rescueNft${shape.erc721 ? ', assignNft' : ''}) is proof of life too and moves the deadline.`,
      'evm.advice-check-in',
      { intervalDays: days, checkInGas: gas['checkIn'] ?? 0 },
    );
  }
  if (n === 1) {
    warnings.push({
      id: 'single-beneficiary',
      code: 'evm.single-beneficiary',
      params: {},
      severity: 'low',
      message:
        'One beneficiary receives everything; if the key of that address is lost, the estate has no other recipient (an address that cannot receive ETH can still claim with claimTo()).',
    });
    suggest(
      'Consider a second beneficiary or updating the plan if the beneficiary loses access to the address.',
      'evm.advice-second-beneficiary',
    );
  }
  if (shape.guardians) {
    const g = inputs.guardians.length;
    const timing = guardianTiming({ waitDays: inputs.guardianWaitDays, maxVetoes: inputs.maxVetoes });
    warnings.push(...guardianFindings(g, inputs.threshold, shape.gracePeriod, timing));
    suggest(
      `Tell your guardians that confirmRelease() only starts a ${timing.waitDays}-day wait, and that any action of yours (checkIn(), a deposit, an update) cancels it.`,
      'evm.advice-tell-guardians',
      { waitDays: timing.waitDays },
    );
    const both = inputs.guardians.filter((x) => inputs.beneficiaries.some((b) => lower(b) === lower(x)));
    if (both.length > 0)
      warnings.push({
        id: 'guardian-is-beneficiary',
        code: 'evm.guardian-is-beneficiary',
        params: { count: both.length },
        severity: 'medium',
        message: `${both.length} guardian(s) are also beneficiaries and could vote to release funds to themselves.`,
      });
  } else if (shape.deadMansSwitch) {
    suggest(
      'Guardians (multiSig) could veto a wrong trigger or confirm an early release.',
      'evm.advice-consider-guardians',
    );
  }
  const known = new Set([...inputs.tokens, ...inputs.nfts.map((x) => x.token)].map(lower));
  inputs.beneficiaries.forEach((b, i) => {
    if (known.has(lower(b)))
      warnings.push({
        id: 'beneficiary-is-contract',
        code: 'evm.beneficiary-cannot-claim',
        params: { beneficiary: i + 1 },
        severity: 'high',
        message: `Beneficiary ${i + 1} is a token contract listed in the plan; it cannot claim.`,
      });
    else if (BigInt(b) < PRECOMPILE_MAX)
      warnings.push({
        id: 'beneficiary-is-contract',
        code: 'evm.beneficiary-cannot-claim',
        params: { beneficiary: i + 1 },
        severity: 'high',
        message: `Beneficiary ${i + 1} is a precompile or system address; it cannot claim.`,
      });
  });
  suggest(
    `Beneficiaries claim from their own address (pull payments); a beneficiary that is a contract (multisig, smart wallet) must be able to call the contract. If it cannot receive ETH${shape.erc721 ? ' or NFTs' : ''}, it calls claimTo(recipient)${shape.erc721 ? ' (claimNftTo(index, recipient) for an NFT)' : ''} to have its share sent to another address${shape.erc20 ? '; a beneficiary a token refuses (a blocklisting token such as USDC) takes its share of that token with claimTokenTo(token, recipient)' : ''}. Code at an address cannot be checked offline.`,
    'evm.advice-claim-own-address',
  );
  suggest(
    shape.erc20 || shape.erc721
      ? `cancel() returns every asset to the owner one by one (${[...(shape.erc20 ? ['each listed token'] : []), ...(shape.erc721 ? ['each deposited NFT'] : []), 'the ETH'].join(', ')}); an asset that cannot be sent (a paused or blocklisting token) does not block the others: a ReturnFailed event reports it and the owner retries later with rescueToken(token), rescueNft(token, tokenId) or withdraw(amount).`
      : 'cancel() returns the ETH to the owner; if it cannot be sent, a ReturnFailed event reports it and the owner retries with withdraw(amount).',
    'evm.advice-cancel',
  );
  suggest(
    `Tokens sent to the contract by mistake are not lost: ${shape.erc721 ? 'an NFT that is not listed is refused by safeTransferFrom' : 'NFTs sent with safeTransferFrom are refused'}; the owner takes back an ERC-20 ${shape.erc20 ? 'that is not listed ' : ''}with rescueToken(token), and an NFT ${shape.erc721 ? 'that is not listed ' : ''}sent with plain transferFrom with rescueNft(token, tokenId), while the plan is live or after cancel(). After release, any ERC-20 that reaches the contract (an airdrop, a token nobody took back) is shared by the beneficiaries: each claims its share with claimToken(token). An NFT that is not listed and arrives after release cannot be split by shares: the heir with the largest share (unlistedNftHeir()) takes it with claimUnlistedNft(token, tokenId, recipient).`,
    'evm.advice-rescue',
  );
  for (const [i, nft] of inputs.nfts.entries()) {
    if (!inputs.beneficiaries.some((b) => lower(b) === lower(nft.recipient))) {
      warnings.push({
        id: 'nft-recipient-not-beneficiary',
        code: 'evm.nft-recipient-not-beneficiary',
        params: { nft: i + 1 },
        severity: 'info',
        message: `NFT ${i + 1} goes to an address that has no share of the ETH.`,
      });
    }
  }
  if (shape.erc20) {
    warnings.push({
      id: 'token-behaviour',
      code: 'evm.token-behaviour',
      params: {},
      severity: 'info',
      message:
        "Token claims pay from the balance the contract actually holds. When it rises or falls after a first claim (a rebasing token, a fee the token charges the contract, a late deposit), the gain or loss is shared only by the beneficiaries who have not claimed yet, in proportion to their shares; once everyone has claimed, what is left or arrives later is shared by all shares again. A token that charges the sender a fee on top of the amount cannot send the whole balance: the last claimant receives the largest amount the balance allows (fees up to half the amount) and the rest is shared again, so claims do not revert for that. Fees the token charges on the way to the beneficiary are the token's own. Claims of standard ERC-20 tokens are exact to the unit (a few units of rounding dust may stay until more arrives).",
    });
    suggest(
      'Send the listed tokens to the contract address; a token that is not listed is not shared (the owner takes it back with rescueToken(token)).',
      'evm.advice-send-tokens',
    );
  }
  if (shape.erc721)
    suggest(
      'Deposit each listed NFT with safeTransferFrom to the contract address before it is needed; NFTs that are not listed are refused.',
      'evm.advice-deposit-nfts',
    );
  if (runtimeSize > 24_576)
    warnings.push({
      id: 'code-size',
      code: 'evm.code-size',
      params: { bytes: runtimeSize, limit: 24_576 },
      severity: 'high',
      message: `Runtime code is ${runtimeSize} bytes, above the 24,576-byte limit of EIP-170.`,
    });
  return { warnings, suggestions: advice.map((a) => a.message), advice };
}

const PENALTY: Record<Severity, number> = { high: 25, medium: 10, low: 4, info: 0 };

export function securityScore(findings: Finding[]): number {
  return Math.max(0, 100 - findings.reduce((s, f) => s + PENALTY[f.severity], 0));
}

/** Every guardian threshold explained (not only 1 of n), with the warnings for the extremes. */
export function guardianFindings(
  g: number,
  threshold: number,
  veto: boolean,
  timing: GuardianTiming = guardianTiming(),
): Finding[] {
  const out: Finding[] = [
    {
      id: 'guardian-threshold',
      code: 'evm.guardian-rules',
      params: { threshold, guardians: g, waitDays: timing.waitDays },
      severity: threshold === 1 && g > 1 ? 'medium' : 'info',
      message: guardianRulesText(g, threshold, veto, timing),
    },
  ];
  if (threshold === 1 && g > 1)
    out.push({
      id: 'single-guardian-release',
      code: 'evm.any-one-guardian',
      params: { guardians: g, waitDays: timing.waitDays },
      severity: 'medium',
      message: `Any one of ${g} guardians can propose an early release (the owner has ${timing.waitDays} days to cancel it).`,
    });
  if (threshold === g && g > 1)
    out.push({
      id: 'unanimous-guardians',
      code: 'evm.all-guardians',
      params: { guardians: g },
      severity: 'low',
      message: `All ${g} guardians must agree; one lost guardian key blocks guardian actions.`,
    });
  return out;
}
