import { h, type ComponentChildren } from 'preact';
import { Copyable } from '../fields.js';
import { analysisInWords } from '../../../core/messages/advice.js';
import { numberFormats } from '../../../core/messages/index.js';
import { LAW_RULES, lawFindingInWords } from '../../../core/messages/law-words.js';
import { lawNames } from '../law-names.js';
import type { Result } from '../form.js';
import type { StepContext } from './context.js';
import { findingsList } from './review.js';
import { CHAIN_NAMES, type ChainMismatch } from '../wallet.js';

/** Generation's warnings and advice in the reader's words; what has no words yet stays in English, marked so. */
function analysisList(c: StepContext, analysis: NonNullable<Result['analysis']>): ComponentChildren {
  const { t, locale } = c.tx;
  // (the law's findings are among generation's warnings when a jurisdiction is chosen)
  const words = analysisInWords(analysis, locale);
  // The law's findings among them are said from their rule and params (core/messages/law-words.ts).
  const names = lawNames(c.tx, c.jurisdictions);
  const items = words.warnings.map((w, i) => {
    const code = analysis.warnings[i]?.code;
    if (code === undefined || !(LAW_RULES as readonly string[]).includes(code)) return w;
    const params = analysis.warnings[i]?.params;
    return { ...w, ...lawFindingInWords({ rule: code, message: w.message, params }, locale, names) };
  });
  return h(
    'section',
    { class: 'svc-analysis', 'aria-labelledby': 'svc-analysis-title' },
    h('h3', { id: 'svc-analysis-title' }, t.analysisTitle),
    items.length
      ? h(
          'ul',
          { class: 'svc-findings' },
          items.map((f, i) =>
            h(
              'li',
              { key: i, class: `svc-sev-${f.severity}` },
              h('strong', null, `${t.severity[f.severity] ?? f.severity}: `),
              f.english ? h('span', { lang: 'en' }, f.message) : f.message,
            ),
          ),
        )
      : h('p', null, t.noFindings),
    words.advice.length
      ? [
          h('h3', { key: 'h' }, t.adviceTitle),
          h(
            'ul',
            { key: 'l', class: 'svc-advice' },
            words.advice.map((a, i) => h('li', { key: i }, a)),
          ),
        ]
      : null,
    words.technical.length
      ? h(
          'details',
          { class: 'svc-technical' },
          h('summary', null, t.technicalNotes),
          h(
            'ul',
            { lang: 'en' },
            words.technical.map((s, i) => h('li', { key: i }, s)),
          ),
        )
      : null,
  );
}

/** The source file's name for the chain the contract was made for. */
const sourceName = (blockchain: string) =>
  blockchain === 'evm' ? 'Inheritance.sol' : blockchain === 'ton' ? 'inheritance.fc' : 'lib.rs';

/** A chain in the reader's words: its name when it has a well-known one, and its id. */
const chainWords = (c: StepContext, id: number) => c.tx.t.networkName(String(id), CHAIN_NAMES[id]);

/** The chains that would do, as "A or B" in the reader's language. */
const expectedWords = (c: StepContext, chain: ChainMismatch) =>
  numberFormats(c.tx.locale).or(chain.expected.map((id) => chainWords(c, id)));

/** One button per chain the service reads (the first few), each asking the wallet to move there. */
function switchButtons(c: StepContext, chain: ChainMismatch): ComponentChildren {
  return h(
    'p',
    { class: 'svc-switch-chain' },
    chain.expected
      .slice(0, 3)
      .map((id) =>
        h(
          'button',
          { key: id, type: 'button', id: `svc-switch-${id}`, class: 'svc-secondary', onClick: () => c.switchChain(id) },
          c.tx.t.deploySwitchTo(chainWords(c, id)),
        ),
      ),
  );
}

/** Deploying with the host page's wallet: the button, then where it stands, in words read out as they change. */
function deploySection(c: StepContext): ComponentChildren {
  const { t } = c.tx;
  const s = c.deployState;
  let status: ComponentChildren = null;
  let offer: ChainMismatch | undefined;
  if (s.phase === 'working') status = t.deployStage[s.stage] ?? '';
  else if (s.phase === 'done')
    status = [
      h(
        'span',
        { key: 'w', class: s.deployment.verified ? 'svc-ok' : 'svc-sev-critical' },
        s.deployment.verified ? t.deployVerified(s.deployment.address) : t.deployUnverified(s.deployment.address),
      ),
      h('br', { key: 'b' }),
      h('span', { key: 't' }, `${t.deployTxLabel}: `, h('code', null, s.deployment.transactionHash)),
    ];
  else if (s.phase === 'failed' && s.chain) {
    // The wallet is on a chain the service does not read: said before anything is sent, with the way out.
    status = t.deployWrongChain(chainWords(c, s.chain.actual), expectedWords(c, s.chain));
    offer = s.chain;
  } else if (s.phase === 'failed') {
    const words = t.deployFailed[s.reason] ?? '';
    // The wallet's or the service's own message is added where ours is only a heading for it.
    status = s.reason === 'wallet' || s.reason === 'service' ? `${words}: ${s.detail}` : words;
  } else if (s.phase === 'switched') {
    status = s.ok
      ? t.deploySwitched(chainWords(c, s.chainId))
      : t.deploySwitchRefused(chainWords(c, s.chainId), expectedWords(c, s.chain));
    if (!s.ok) offer = s.chain;
  }
  return h(
    'section',
    { class: 'svc-deploy', 'aria-labelledby': 'svc-deploy-title' },
    h('h3', { id: 'svc-deploy-title' }, t.deployTitle),
    h('p', null, t.deployIntro),
    s.phase === 'done'
      ? null
      : h(
          'button',
          {
            type: 'button',
            id: 'svc-deploy',
            class: 'svc-primary',
            disabled: s.phase === 'working',
            onClick: () => c.deploy(),
          },
          t.deployButton,
        ),
    h(
      'p',
      { id: 'svc-deploy-status', class: 'svc-status', role: 'status', 'aria-live': 'polite', tabIndex: -1 },
      status,
    ),
    offer ? switchButtons(c, offer) : null,
  );
}

export function resultStep(c: StepContext): ComponentChildren {
  const result = c.result;
  const { t } = c.tx;
  if (!result) return h('p', null, t.generateFirst);
  return [
    h(Copyable, {
      t,
      label: t.sourceCode,
      text: result.contractCode,
      filename: sourceName(result.contractInfo.blockchain),
      type: 'text/plain',
    }),
    result.compiled.abi
      ? h(Copyable, {
          t,
          label: t.abi,
          text: JSON.stringify(result.compiled.abi, null, 2),
          filename: 'Inheritance.abi.json',
          type: 'application/json',
        })
      : null,
    result.compiled.bytecode
      ? h(Copyable, {
          t,
          label: t.bytecode,
          text: result.compiled.bytecode,
          filename: 'Inheritance.bin',
          type: 'text/plain',
        })
      : null,
    c.canDeploy && result.id && result.compiled.deployData ? deploySection(c) : null,
    result.analysis ? analysisList(c, result.analysis) : c.review ? findingsList(c) : null,
    h('button', { type: 'button', class: 'svc-secondary', onClick: () => c.startOver() }, t.startOver),
  ];
}
