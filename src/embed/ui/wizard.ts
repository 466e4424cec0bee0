// The wizard component: its state, the effects that talk to the host page and
// to svc, and which step body goes into the shell. Steps live in ./steps/,
// shared inputs in ./fields.ts, form logic in ./form.ts and tool calls in ./calls.ts.
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ApiProblem, WizardApi } from './api.js';
import {
  faraidShares,
  generateContract,
  getJurisdiction,
  listJurisdictions,
  listTemplates,
  reviewPlan,
  validatePlan,
} from './calls.js';
import { fieldId } from './fields.js';
import {
  allErrors,
  type Errors,
  errorsOf,
  type Form,
  type Result,
  type Row,
  type StepId,
  stepOfField,
  type WizardConfig,
  visibleErrors,
  withPrefill,
} from './form.js';
import { dirOf, pickLocale, texts } from './i18n/index.js';
import type { Incoming } from './protocol.js';
import { shell } from './shell.js';
import { planSummary } from './summary.js';
import { useWizardState } from './state.js';
import { beneficiariesStep } from './steps/beneficiaries.js';
import { chainStep } from './steps/chain.js';
import type { DeployState, StepContext } from './steps/context.js';
import { generateStep } from './steps/generate.js';
import { resultStep } from './steps/result.js';
import { reviewStep } from './steps/review.js';
import { switchStep } from './steps/switch.js';
import { templateStep } from './steps/template.js';
import { DeployError, deployWithWallet, switchChain, WalletBridge } from './wallet.js';

export type { WizardConfig } from './form.js';

/** Where the wizard's events go and its commands come from: the parent page (postMessage, src/embed/ui/protocol.ts) or the MCP App host. */
export interface WizardChannel {
  post(type: string, payload: unknown): void;
  listen(handle: (message: Incoming) => void): void;
}

export interface WizardProps {
  config: WizardConfig;
  channel: WizardChannel;
  applyTheme: (theme: string, primary?: string) => void;
  setVariable: (name: string, value: string) => void;
  /** How svc is called: REST with the page's token (RestApi), or the MCP App host's bridge. */
  api: WizardApi;
}

const STEP_BODIES: Record<StepId, (c: StepContext) => ComponentChildren> = {
  chain: chainStep,
  template: templateStep,
  beneficiaries: beneficiariesStep,
  switch: switchStep,
  review: reviewStep,
  generate: generateStep,
  result: resultStep,
};

/** CSS variable each svc:wizard:setTheme variable sets. */
const THEME_VARIABLES = {
  primary: '--svc-primary',
  background: '--svc-background',
  text: '--svc-text',
  borderRadius: '--svc-border-radius',
} as const;

function setTheme(props: WizardProps, payload: Extract<Incoming, { type: 'svc:wizard:setTheme' }>['payload']): void {
  props.applyTheme(payload.theme);
  const vars = payload.variables ?? {};
  for (const [k, v] of Object.entries(vars))
    if (v) props.setVariable(THEME_VARIABLES[k as keyof typeof THEME_VARIABLES], v);
}

/** Focuses the input of a field, or the group (a beneficiary's fieldset) when the error is about the whole row. */
function focusField(field: string): void {
  const el = document.getElementById(fieldId(field)) ?? document.getElementById(`${fieldId(field)}-group`);
  el?.focus();
}

export function Wizard(props: WizardProps) {
  const options = props.config.options!;
  const api = props.api;
  const steps = options.steps;
  const state = useWizardState(options);
  const { index, setIndex, form, setForm, errors, setErrors, showAll, setShowAll, busy, setBusy, alert, setAlert } =
    state;
  const { templates, setTemplates, jurisdictions, setJurisdictions, review, setReview, result, setResult } = state;
  const heading = useRef<HTMLHeadingElement>(null);
  const [faraidStatus, setFaraidStatus] = useState('');
  const firstRender = useRef(true);
  const [deployState, setDeployState] = useState<DeployState>({ phase: 'idle' });
  // Requests to the host's wallet go out as svc:wizard:eth-request; answers come back through onMessage.
  const wallet = useMemo(() => new WalletBridge((type, payload) => props.channel.post(type, payload)), []);
  /** What svc:wizard:complete said last, to say it again with the deployment. */
  const completed = useRef<Result | null>(null);
  const formRef = useRef(form);
  formRef.current = form;
  const step = steps[index]!;
  const locale = useMemo(() => pickLocale(options.locale, navigator.languages ?? [navigator.language]), []);
  const tx = useMemo(() => texts(locale), [locale]);
  const { t } = tx;
  /** Every field's problem: the wizard's own checks of the form as it is now, and the API's last findings. */
  const shown = allErrors(form, errors, locale);

  /** Tells the parent about an API problem it should know of (credentials, limits, failures), not field mistakes. */
  const report = (problem: ApiProblem) => {
    if (problem.code !== 'VALIDATION_ERROR')
      props.channel.post('svc:wizard:error', { code: problem.code, message: problem.message });
  };

  /** An API problem for the alert line: the network failure in the reader's words, the rest as the API says it. */
  const messageOf = (problem: ApiProblem): string =>
    problem.code === 'NETWORK_ERROR' ? t.networkError : problem.message;

  useEffect(() => {
    // The document's language and direction follow the wizard's (the page shell set them too when it knew).
    document.documentElement.lang = locale;
    document.documentElement.dir = dirOf(locale);
    props.channel.post('svc:wizard:ready', { version: props.config.version });
    void listTemplates(api).then((r) => (r.ok ? setTemplates(r.data.templates) : report(r.error)));
    void listJurisdictions(api).then((r) => (r.ok ? setJurisdictions(r.data) : report(r.error)));
    props.channel.listen(onMessage);
  }, []);

  useEffect(() => {
    props.channel.post('svc:wizard:step', { step: index + 1, total: steps.length, name: step });
    if (firstRender.current) firstRender.current = false;
    else heading.current?.focus();
    if (step === 'review') void runReview();
  }, [index]);

  // Shares and addresses are checked as they are typed, by the API's own rules (validate_plan).
  useEffect(() => {
    if (step !== 'beneficiaries' && step !== 'switch') return;
    const timer = setTimeout(() => void check(), 400);
    return () => clearTimeout(timer);
  }, [form, step]);

  function onMessage(message: Incoming): void {
    if (message.type === 'svc:wizard:setData') setForm((f) => withPrefill(f, message.payload));
    else if (message.type === 'svc:wizard:setTheme') setTheme(props, message.payload);
    else if (message.type === 'svc:wizard:eth-response') wallet.answer(message.payload);
    else {
      setDeployState({ phase: 'idle' });
      state.reset();
    }
  }

  /** Validates the whole plan; returns the field errors (also shown). */
  async function check(): Promise<Errors | undefined> {
    const r = await validatePlan(api, formRef.current);
    if (r.ok) {
      setErrors({});
      return {};
    }
    if (r.error.code !== 'VALIDATION_ERROR') {
      report(r.error);
      setAlert(messageOf(r.error));
      return undefined;
    }
    const found = errorsOf(r.error);
    setErrors(found);
    return found;
  }

  async function runReview(): Promise<void> {
    setReview(null);
    setBusy(t.busyReview);
    const { review, problem } = await reviewPlan(api, formRef.current);
    setBusy('');
    if (problem) {
      setErrors(errorsOf(problem));
      report(problem);
      setAlert(t.needsChanges(messageOf(problem)));
    }
    setReview(review);
  }

  async function generate(): Promise<void> {
    setAlert('');
    setBusy(t.busyGenerate);
    const r = await generateContract(api, formRef.current);
    setBusy('');
    if (!r.ok) {
      if (r.error.code === 'VALIDATION_ERROR') setErrors(errorsOf(r.error));
      report(r.error);
      setAlert(messageOf(r.error));
      return;
    }
    const out: Result = {
      contractCode: r.data.contractCode,
      compiled: r.data.compiled,
      contractInfo: r.data.contractInfo,
    };
    setResult({ ...out, id: r.data.id, ...(r.data.analysis ? { analysis: r.data.analysis } : {}) });
    setDeployState({ phase: 'idle' });
    completed.current = out;
    props.channel.post('svc:wizard:complete', out);
    setIndex(steps.indexOf('result'));
  }

  /** Deploys with the host page's wallet, registers and verifies it, then says complete again with the deployment. */
  async function deploy(): Promise<void> {
    const r = result;
    if (!r?.id || !r.compiled.deployData || deployState.phase === 'working') return;
    setDeployState({ phase: 'working', stage: 'account' });
    try {
      const deployment = await deployWithWallet(
        wallet,
        api,
        { id: r.id, deployData: r.compiled.deployData },
        { networks: options.networks ?? [], onStage: (stage) => setDeployState({ phase: 'working', stage }) },
      );
      setDeployState({ phase: 'done', deployment });
      props.channel.post('svc:wizard:complete', { ...completed.current, deployment });
    } catch (err) {
      const reason = err instanceof DeployError ? err.reason : 'wallet';
      const detail = err instanceof Error ? err.message : String(err);
      const chain = err instanceof DeployError ? err.chain : undefined;
      setDeployState({ phase: 'failed', reason, detail, ...(chain ? { chain } : {}) });
    }
    setTimeout(() => document.getElementById('svc-deploy-status')?.focus(), 0);
  }

  /** Asks the host's wallet to move to a chain the service reads; nothing is sent, the reader deploys after. */
  async function switchNetwork(chainId: number): Promise<void> {
    const s = deployState;
    if (s.phase !== 'failed' && s.phase !== 'switched') return;
    const chain = s.chain;
    if (!chain) return;
    setDeployState({ phase: 'working', stage: 'switching' });
    try {
      const now = await switchChain(wallet, chainId);
      setDeployState({
        phase: 'switched',
        chainId: now,
        ok: chain.expected.includes(now),
        chain: { ...chain, actual: now },
      });
    } catch {
      // Declined, or a wallet that cannot: still on the chain it was on, and the offer stays.
      setDeployState({ phase: 'switched', chainId: chain.actual, ok: false, chain });
    }
    setTimeout(() => document.getElementById('svc-deploy-status')?.focus(), 0);
  }

  /** The jurisdiction chosen, then its law's first recommended template and its recorded school, preselected. */
  async function chooseJurisdiction(id: string): Promise<void> {
    setForm((f) => ({ ...f, jurisdiction: id }));
    if (!id) return;
    const r = await getJurisdiction(api, id);
    if (!r.ok) {
      report(r.error);
      return;
    }
    const offered = r.data.recommendedTemplates.find((tp) => templates.some((x) => x.type === tp));
    const template = offered ?? r.data.recommendedTemplates[0];
    const school = r.data.islamicLaw?.school?.madhhab ?? '';
    setForm((f) => (f.jurisdiction === id ? { ...f, ...(template ? { template } : {}), madhhab: school } : f));
  }

  async function fillFaraid(): Promise<void> {
    setFaraidStatus('');
    setBusy(t.busyFaraid);
    const r = await faraidShares(api, formRef.current);
    setBusy('');
    if (r.ok === 'unknown') {
      setFaraidStatus(t.faraidUnknown(r.rows.map((i) => tx.n(i + 1)).join(', ')));
      return;
    }
    if (!r.ok) {
      report(r.error);
      setFaraidStatus(messageOf(r.error));
      return;
    }
    setForm((f) => ({
      ...f,
      beneficiaries: f.beneficiaries.map((b, i) => {
        const share = r.data.shares[i];
        return share === undefined ? b : { ...b, percentage: String(share) };
      }),
    }));
    setFaraidStatus(t.faraidFilled);
  }

  const stepFields = (id: StepId) => Object.keys(shown).filter((f) => stepOfField(f) === id);

  async function next(): Promise<void> {
    setAlert('');
    if (step === 'chain' && !form.blockchain) {
      setErrors({ blockchain: t.chooseChain });
      document.getElementById('chain-evm')?.focus();
      return;
    }
    if (step === 'beneficiaries' || step === 'switch') {
      setShowAll(true);
      const found = await check();
      if (found === undefined) return;
      const mine = Object.keys(allErrors(formRef.current, found, locale)).filter((f) => stepOfField(f) === step);
      if (mine.length) {
        // The summary at the top lists every problem, each a link to its field.
        setTimeout(() => document.getElementById('svc-error-summary')?.focus(), 0);
        return;
      }
    }
    setIndex((i) => Math.min(i + 1, steps.length - 1));
  }

  const visible = visibleErrors(form, shown, showAll);
  const context: StepContext = {
    tx,
    form,
    errors: shown,
    visible,
    set: (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch })),
    setRow: (i: number, patch: Partial<Row>) =>
      setForm((f) => ({ ...f, beneficiaries: f.beneficiaries.map((b, j) => (j === i ? { ...b, ...patch } : b)) })),
    templates,
    jurisdictions,
    review,
    result,
    busy,
    steps,
    goTo: setIndex,
    generate: () => void generate(),
    startOver: () => onMessage({ type: 'svc:wizard:reset' }),
    chooseJurisdiction: (id: string) => void chooseJurisdiction(id),
    fillFaraid: () => void fillFaraid(),
    faraidStatus,
    canDeploy: options.wallet === true && result?.contractInfo.blockchain === 'evm',
    deploy: () => void deploy(),
    switchChain: (chainId: number) => void switchNetwork(chainId),
    deployState,
  };

  return shell({
    tx,
    options,
    steps,
    index,
    heading,
    alert,
    busy,
    body: STEP_BODIES[step](context),
    plan: step === 'chain' || step === 'result' ? null : planSummary(tx, form, jurisdictions),
    errors: shown,
    stepFields: stepFields(step),
    summary: showAll ? Object.fromEntries(Object.entries(visible).filter(([f]) => stepOfField(f) === step)) : {},
    focusField,
    back: () => setIndex(index - 1),
    next: () => void next(),
  });
}
