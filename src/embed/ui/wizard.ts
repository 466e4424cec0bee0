import { h, type ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ApiProblem, WizardApi } from './api.js';
import type { Incoming, Prefill } from './protocol.js';

export interface WizardConfig {
  version: string;
  apiBase: string;
  token: string | null;
  origins: string[];
  options: {
    theme: 'light' | 'dark' | 'auto';
    blockchain?: 'evm' | 'solana' | 'ton';
    template?: string;
    steps: StepId[];
    logo?: string;
    primaryColor?: string;
    hideHeader: boolean;
    hideFooter: boolean;
  } | null;
  error: { code: string; message: string } | null;
}

type StepId = 'chain' | 'template' | 'beneficiaries' | 'switch' | 'review' | 'generate' | 'result';

const STEP_TITLES: Record<StepId, string> = {
  chain: 'Blockchain',
  template: 'Template and jurisdiction',
  beneficiaries: 'Owner and beneficiaries',
  switch: "Dead man's switch and guardians",
  review: 'Review',
  generate: 'Generate',
  result: 'Your contract',
};

const CHAINS = [
  { id: 'evm', label: 'EVM (Ethereum and compatible chains): Solidity, compiled and tested' },
  { id: 'solana', label: 'Solana: Rust/Anchor program with build instructions' },
  { id: 'ton', label: 'TON: FunC contract, compiled and tested' },
] as const;

interface Row {
  name: string;
  address: string;
  percentage: string;
  relationship: string;
}

interface Form {
  blockchain: string;
  template: string;
  jurisdiction: string;
  ownerAddress: string;
  beneficiaries: Row[];
  switchEnabled: boolean;
  intervalDays: string;
  gracePeriodDays: string;
  guardians: string;
  threshold: string;
}

type Errors = Record<string, string>;

interface Result {
  contractCode: string;
  compiled: { abi?: unknown[]; bytecode?: string } & Record<string, unknown>;
  contractInfo: { blockchain: string } & Record<string, unknown>;
}

const emptyRow = (): Row => ({ name: '', address: '', percentage: '', relationship: '' });

function initialForm(options: NonNullable<WizardConfig['options']>): Form {
  return {
    blockchain: options.blockchain ?? '',
    template: options.template ?? 'custom',
    jurisdiction: '',
    ownerAddress: '',
    beneficiaries: [emptyRow()],
    switchEnabled: true,
    intervalDays: '365',
    gracePeriodDays: '0',
    guardians: '',
    threshold: '1',
  };
}

const num = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

/** The API's plan (generate_contract / validate_plan input) from the form. */
function planOf(form: Form): Record<string, unknown> {
  const guardians = form.guardians.split(/[\s,]+/).filter(Boolean);
  return {
    blockchain: form.blockchain,
    ownerAddress: form.ownerAddress,
    beneficiaries: form.beneficiaries.map((b) => ({
      name: b.name,
      address: b.address,
      percentage: num(b.percentage),
      ...(b.relationship.trim() ? { relationship: b.relationship.trim() } : {}),
    })),
    inheritanceTemplate: form.template,
    deadMansSwitch: {
      enabled: form.switchEnabled,
      intervalDays: num(form.intervalDays),
      gracePeriodDays: num(form.gracePeriodDays),
    },
    ...(guardians.length ? { guardians: { addresses: guardians, threshold: num(form.threshold) } } : {}),
    ...(form.jurisdiction ? { jurisdiction: form.jurisdiction } : {}),
  };
}

/** Which step shows the input an API `details[].field` names. */
function stepOfField(field: string): StepId {
  if (field === 'blockchain') return 'chain';
  if (field === 'inheritanceTemplate' || field === 'jurisdiction' || field === 'madhhab') return 'template';
  if (field === 'ownerAddress' || field.startsWith('beneficiaries')) return 'beneficiaries';
  if (field.startsWith('deadMansSwitch') || field.startsWith('guardians')) return 'switch';
  return 'generate';
}

function errorsOf(problem: ApiProblem): Errors {
  const out: Errors = {};
  for (const d of problem.details) {
    const field = d.field.replace(/^guardians\.addresses\.\d+$/, 'guardians.addresses');
    out[field] = out[field] ? `${out[field]}; ${d.reason}` : d.reason;
  }
  return out;
}

const fieldId = (field: string) => `f-${field.replace(/[^A-Za-z0-9-]/g, '-')}`;
const errorId = (field: string) => `e-${field.replace(/[^A-Za-z0-9-]/g, '-')}`;

function FieldError(props: { field: string; errors: Errors }) {
  const message = props.errors[props.field];
  return message ? h('p', { id: errorId(props.field), class: 'svc-error', role: 'alert' }, message) : null;
}

interface InputProps {
  field: string;
  label: string;
  value: string;
  errors: Errors;
  onInput: (value: string) => void;
  type?: string;
  hint?: string;
  autocomplete?: string;
  inputmode?: string;
}

function Input(p: InputProps) {
  const id = fieldId(p.field);
  const invalid = Boolean(p.errors[p.field]);
  const described = [p.hint ? `${id}-hint` : '', invalid ? errorId(p.field) : ''].filter(Boolean).join(' ');
  return h(
    'div',
    { class: 'svc-field' },
    h('label', { for: id }, p.label),
    p.hint ? h('p', { id: `${id}-hint`, class: 'svc-hint' }, p.hint) : null,
    h('input', {
      id,
      type: p.type ?? 'text',
      value: p.value,
      autocomplete: p.autocomplete ?? 'off',
      spellcheck: false,
      ...(p.inputmode ? { inputmode: p.inputmode } : {}),
      'aria-invalid': invalid ? 'true' : undefined,
      'aria-describedby': described || undefined,
      onInput: (e: Event) => p.onInput((e.currentTarget as HTMLInputElement).value),
    }),
    h(FieldError, { field: p.field, errors: p.errors }),
  );
}

function Radios(p: {
  legend: string;
  name: string;
  value: string;
  options: Array<{ id: string; label: string; hint?: string }>;
  onChange: (v: string) => void;
  field: string;
  errors: Errors;
}) {
  return h(
    'fieldset',
    { class: 'svc-radios', 'aria-describedby': p.errors[p.field] ? errorId(p.field) : undefined },
    h('legend', null, p.legend),
    p.options.map((o) =>
      h(
        'div',
        { class: 'svc-radio', key: o.id },
        h('input', {
          type: 'radio',
          id: `${p.name}-${o.id}`,
          name: p.name,
          value: o.id,
          checked: p.value === o.id,
          onChange: () => p.onChange(o.id),
        }),
        h(
          'label',
          { for: `${p.name}-${o.id}` },
          o.label,
          o.hint ? h('span', { class: 'svc-hint' }, ` ${o.hint}`) : null,
        ),
      ),
    ),
    h(FieldError, { field: p.field, errors: p.errors }),
  );
}

function Copyable(p: { label: string; text: string; filename: string; type: string }) {
  const [status, setStatus] = useState('');
  const url = useMemo(() => URL.createObjectURL(new Blob([p.text], { type: p.type })), [p.text, p.type]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(p.text);
      setStatus(`${p.label} copied.`);
    } catch {
      setStatus('Copying is not allowed here: select the text and copy it.');
    }
  };
  return h(
    'section',
    { class: 'svc-output', 'aria-label': p.label },
    h('h3', null, p.label),
    h(
      'div',
      { class: 'svc-actions' },
      h('button', { type: 'button', onClick: copy }, `Copy ${p.label.toLowerCase()}`),
      h('a', { class: 'svc-button', href: url, download: p.filename }, `Download ${p.filename}`),
    ),
    h('p', { class: 'svc-status', role: 'status' }, status),
    h('pre', { tabIndex: 0, 'aria-label': p.label }, h('code', null, p.text)),
  );
}

/** Where the wizard's events go and its commands come from: the parent page (postMessage, src/embed/ui/protocol.ts) or the MCP App host. */
export interface WizardChannel {
  post(type: string, payload: unknown): void;
  listen(handle: (message: Incoming) => void): void;
}

export function Wizard(props: {
  config: WizardConfig;
  channel: WizardChannel;
  applyTheme: (theme: string, primary?: string) => void;
  setVariable: (name: string, value: string) => void;
  /** How svc is called: REST with the page's token (RestApi), or the MCP App host's bridge. */
  api: WizardApi;
}) {
  const options = props.config.options!;
  const api = props.api;
  const steps = options.steps;
  const [index, setIndex] = useState(0);
  const [form, setForm] = useState<Form>(() => initialForm(options));
  const [errors, setErrors] = useState<Errors>({});
  const [showAll, setShowAll] = useState(false);
  const [busy, setBusy] = useState('');
  const [alert, setAlert] = useState('');
  const [templates, setTemplates] = useState<Array<{ type: string; name: string; description: string }>>([]);
  const [jurisdictions, setJurisdictions] = useState<Array<{ id: string; name: string }>>([]);
  const [review, setReview] = useState<{
    warnings: Array<{ severity: string; message: string }>;
    findings: Array<{ severity: string; message: string }>;
    gas: Record<string, string> | null;
  } | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);
  const formRef = useRef(form);
  formRef.current = form;
  const step = steps[index]!;

  /** Tells the parent about an API problem it should know of (credentials, limits, failures), not field mistakes. */
  const report = (problem: ApiProblem) => {
    if (problem.code !== 'VALIDATION_ERROR')
      props.channel.post('svc:wizard:error', { code: problem.code, message: problem.message });
  };

  useEffect(() => {
    props.channel.post('svc:wizard:ready', { version: props.config.version });
    void api
      .tool<{ templates: typeof templates }>('list_templates', {})
      .then((r) => (r.ok ? setTemplates(r.data.templates) : report(r.error)));
    void (async () => {
      const all: Array<{ id: string; name: string }> = [];
      for (let page = 1; page <= 10; page++) {
        const r = await api.tool<{ items: Array<{ id: string; name: string }>; pagination: { hasNext: boolean } }>(
          'list_jurisdictions',
          { limit: 100, page },
        );
        if (!r.ok) return report(r.error);
        all.push(...r.data.items);
        if (!r.data.pagination.hasNext) break;
      }
      setJurisdictions(all);
    })();
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
    if (message.type === 'svc:wizard:setData') applyPrefill(message.payload);
    else if (message.type === 'svc:wizard:setTheme') {
      props.applyTheme(message.payload.theme);
      const vars = message.payload.variables ?? {};
      const names = {
        primary: '--svc-primary',
        background: '--svc-background',
        text: '--svc-text',
        borderRadius: '--svc-border-radius',
      } as const;
      for (const [k, v] of Object.entries(vars)) if (v) props.setVariable(names[k as keyof typeof names], v);
    } else {
      setForm(initialForm(options));
      setErrors({});
      setShowAll(false);
      setResult(null);
      setReview(null);
      setAlert('');
      setIndex(0);
    }
  }

  function applyPrefill(p: Prefill): void {
    setForm((f) => ({
      ...f,
      ...(p.blockchain !== undefined ? { blockchain: p.blockchain } : {}),
      ...(p.ownerAddress !== undefined ? { ownerAddress: p.ownerAddress } : {}),
      ...(p.beneficiaries !== undefined
        ? {
            beneficiaries: p.beneficiaries.length
              ? p.beneficiaries.map((b) => ({
                  name: b.name,
                  address: b.address,
                  percentage: String(b.percentage),
                  relationship: b.relationship ?? '',
                }))
              : [emptyRow()],
          }
        : {}),
    }));
  }

  /** Validates the whole plan; returns the field errors (also shown). */
  async function check(): Promise<Errors | undefined> {
    const r = await api.tool('validate_plan', planOf(formRef.current));
    if (r.ok) {
      setErrors({});
      return {};
    }
    if (r.error.code !== 'VALIDATION_ERROR') {
      report(r.error);
      setAlert(r.error.message);
      return undefined;
    }
    const found = errorsOf(r.error);
    setErrors(found);
    return found;
  }

  async function runReview(): Promise<void> {
    setReview(null);
    setBusy('Checking the plan and measuring gas…');
    const plan = planOf(formRef.current);
    const [valid, law, gas] = await Promise.all([
      api.tool<{ warnings: Array<{ severity: string; message: string }> }>('validate_plan', plan),
      formRef.current.jurisdiction
        ? api.tool<{ findings: Array<{ severity: string; message: string }> }>('check_plan', {
            jurisdiction: formRef.current.jurisdiction,
            template: formRef.current.template,
            beneficiaries: formRef.current.beneficiaries.map((b) => ({
              name: b.name,
              percentage: num(b.percentage),
              ...(b.relationship.trim() ? { relationship: b.relationship.trim() } : {}),
            })),
          })
        : Promise.resolve(undefined),
      api.tool<{ estimate: Record<string, string> }>('estimate_gas', {
        blockchain: formRef.current.blockchain,
        ...(formRef.current.blockchain === 'solana' ? { beneficiaries: formRef.current.beneficiaries.length } : {}),
      }),
    ]);
    setBusy('');
    if (!valid.ok) {
      setErrors(errorsOf(valid.error));
      report(valid.error);
      setAlert(`The plan needs changes: ${valid.error.message}`);
    }
    setReview({
      warnings: valid.ok ? valid.data.warnings : [],
      findings: law?.ok ? law.data.findings : [],
      gas: gas.ok ? gas.data.estimate : null,
    });
  }

  async function generate(): Promise<void> {
    setAlert('');
    setBusy('Generating, compiling and testing the contract…');
    const r = await api.tool<Result>('generate_contract', planOf(formRef.current));
    setBusy('');
    if (!r.ok) {
      if (r.error.code === 'VALIDATION_ERROR') setErrors(errorsOf(r.error));
      report(r.error);
      setAlert(r.error.message);
      return;
    }
    const out: Result = {
      contractCode: r.data.contractCode,
      compiled: r.data.compiled,
      contractInfo: r.data.contractInfo,
    };
    setResult(out);
    props.channel.post('svc:wizard:complete', out);
    setIndex(steps.indexOf('result'));
  }

  const stepFields = (id: StepId) => Object.keys(errors).filter((f) => stepOfField(f) === id);

  async function next(): Promise<void> {
    setAlert('');
    if (step === 'chain' && !form.blockchain) {
      setErrors({ blockchain: 'Choose a blockchain.' });
      document.getElementById('chain-evm')?.focus();
      return;
    }
    if (step === 'beneficiaries' || step === 'switch') {
      setShowAll(true);
      const found = await check();
      if (found === undefined) return;
      const mine = Object.keys(found).filter((f) => stepOfField(f) === step);
      if (mine.length) {
        setAlert(`Please correct ${mine.length === 1 ? 'the field' : `${mine.length} fields`} marked below.`);
        const el = document.getElementById(fieldId(mine[0]!)) ?? document.getElementById(`${fieldId(mine[0]!)}-group`);
        el?.focus();
        return;
      }
    }
    setIndex((i) => Math.min(i + 1, steps.length - 1));
  }

  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));
  const setRow = (i: number, patch: Partial<Row>) =>
    setForm((f) => ({ ...f, beneficiaries: f.beneficiaries.map((b, j) => (j === i ? { ...b, ...patch } : b)) }));
  // Before the user asks to go on, only errors of fields that hold something are shown.
  const visible: Errors = showAll
    ? errors
    : Object.fromEntries(Object.entries(errors).filter(([f]) => fieldHasValue(form, f)));

  let body: ComponentChildren;
  switch (step) {
    case 'chain':
      body = h(Radios, {
        legend: 'Which blockchain is the contract for?',
        name: 'chain',
        value: form.blockchain,
        options: CHAINS.map((c) => ({ id: c.id, label: c.label })),
        onChange: (v) => set({ blockchain: v }),
        field: 'blockchain',
        errors: visible,
      });
      break;
    case 'template':
      body = [
        h(Radios, {
          legend: 'Inheritance template',
          name: 'template',
          value: form.template,
          options: (templates.length ? templates : [{ type: form.template, name: form.template, description: '' }]).map(
            (t) => ({ id: t.type, label: t.name, hint: t.description }),
          ),
          onChange: (v) => set({ template: v }),
          field: 'inheritanceTemplate',
          errors: visible,
        }),
        h(
          'div',
          { class: 'svc-field' },
          h('label', { for: 'f-jurisdiction' }, 'Jurisdiction (optional)'),
          h(
            'p',
            { id: 'f-jurisdiction-hint', class: 'svc-hint' },
            "The plan is checked against this jurisdiction's inheritance law in the review.",
          ),
          h(
            'select',
            {
              id: 'f-jurisdiction',
              value: form.jurisdiction,
              'aria-describedby': 'f-jurisdiction-hint',
              onChange: (e: Event) => set({ jurisdiction: (e.currentTarget as HTMLSelectElement).value }),
            },
            h('option', { value: '' }, 'None'),
            jurisdictions.map((j) => h('option', { value: j.id, key: j.id }, j.name)),
          ),
          h(FieldError, { field: 'jurisdiction', errors: visible }),
        ),
      ];
      break;
    case 'beneficiaries': {
      const total = form.beneficiaries.reduce((s, b) => s + (Number(b.percentage) || 0), 0);
      body = [
        h(Input, {
          field: 'ownerAddress',
          label: 'Owner wallet address',
          value: form.ownerAddress,
          errors: visible,
          onInput: (v) => set({ ownerAddress: v }),
        }),
        form.beneficiaries.map((b, i) =>
          h(
            'fieldset',
            { class: 'svc-row', key: i, id: `${fieldId(`beneficiaries.${i}`)}-group`, tabIndex: -1 },
            h('legend', null, `Beneficiary ${i + 1}`),
            h(Input, {
              field: `beneficiaries.${i}.name`,
              label: 'Name',
              value: b.name,
              errors: visible,
              onInput: (v) => setRow(i, { name: v }),
            }),
            h(Input, {
              field: `beneficiaries.${i}.address`,
              label: 'Wallet address',
              value: b.address,
              errors: visible,
              onInput: (v) => setRow(i, { address: v }),
            }),
            h(Input, {
              field: `beneficiaries.${i}.percentage`,
              label: 'Share (%)',
              value: b.percentage,
              errors: visible,
              inputmode: 'decimal',
              onInput: (v) => setRow(i, { percentage: v }),
            }),
            h(Input, {
              field: `beneficiaries.${i}.relationship`,
              label: 'Relationship (optional)',
              hint: 'Needed for the Islamic templates, e.g. son, daughter, spouse.',
              value: b.relationship,
              errors: visible,
              onInput: (v) => setRow(i, { relationship: v }),
            }),
            h(FieldError, { field: `beneficiaries.${i}`, errors: visible }),
            form.beneficiaries.length > 1
              ? h(
                  'button',
                  {
                    type: 'button',
                    class: 'svc-secondary',
                    onClick: () => set({ beneficiaries: form.beneficiaries.filter((_, j) => j !== i) }),
                  },
                  `Remove beneficiary ${i + 1}`,
                )
              : null,
          ),
        ),
        form.beneficiaries.length < 50
          ? h(
              'button',
              {
                type: 'button',
                class: 'svc-secondary',
                onClick: () => set({ beneficiaries: [...form.beneficiaries, emptyRow()] }),
              },
              'Add a beneficiary',
            )
          : null,
        h('p', { class: 'svc-total', role: 'status' }, `Total: ${Math.round(total * 100) / 100}% of 100%`),
        h(FieldError, { field: 'beneficiaries', errors: errors.beneficiaries && total > 0 ? errors : visible }),
      ];
      break;
    }
    case 'switch':
      body = [
        h(
          'div',
          { class: 'svc-check' },
          h('input', {
            type: 'checkbox',
            id: 'f-deadMansSwitch-enabled',
            checked: form.switchEnabled,
            'aria-describedby': visible['deadMansSwitch.enabled'] ? errorId('deadMansSwitch.enabled') : undefined,
            onChange: (e: Event) => set({ switchEnabled: (e.currentTarget as HTMLInputElement).checked }),
          }),
          h('label', { for: 'f-deadMansSwitch-enabled' }, "Enable the dead man's switch"),
        ),
        h(FieldError, { field: 'deadMansSwitch.enabled', errors: visible }),
        h(Input, {
          field: 'deadMansSwitch.intervalDays',
          label: 'Check-in interval (days)',
          hint: 'If the owner does not check in for this long, the estate can be released.',
          value: form.intervalDays,
          inputmode: 'numeric',
          errors: visible,
          onInput: (v) => set({ intervalDays: v }),
        }),
        h(Input, {
          field: 'deadMansSwitch.gracePeriodDays',
          label: 'Grace period (days)',
          value: form.gracePeriodDays,
          inputmode: 'numeric',
          errors: visible,
          onInput: (v) => set({ gracePeriodDays: v }),
        }),
        h(
          'div',
          { class: 'svc-field' },
          h('label', { for: fieldId('guardians.addresses') }, 'Guardian addresses (optional, one per line)'),
          h('textarea', {
            id: fieldId('guardians.addresses'),
            rows: 3,
            value: form.guardians,
            spellcheck: false,
            'aria-invalid': visible['guardians.addresses'] ? 'true' : undefined,
            'aria-describedby': visible['guardians.addresses'] ? errorId('guardians.addresses') : undefined,
            onInput: (e: Event) => set({ guardians: (e.currentTarget as HTMLTextAreaElement).value }),
          }),
          h(FieldError, { field: 'guardians.addresses', errors: visible }),
        ),
        h(Input, {
          field: 'guardians.threshold',
          label: 'Guardians needed to confirm',
          value: form.threshold,
          inputmode: 'numeric',
          errors: visible,
          onInput: (v) => set({ threshold: v }),
        }),
      ];
      break;
    case 'review':
      body = review
        ? [
            h('h3', null, 'Findings'),
            review.findings.length + review.warnings.length
              ? h(
                  'ul',
                  { class: 'svc-findings' },
                  [...review.findings, ...review.warnings].map((f, i) =>
                    h(
                      'li',
                      { key: i, class: `svc-sev-${f.severity}` },
                      h('strong', null, `${f.severity}: `),
                      f.message,
                    ),
                  ),
                )
              : h('p', null, 'No findings.'),
            h('h3', null, 'Measured costs'),
            review.gas
              ? h(
                  'dl',
                  { class: 'svc-gas' },
                  ['deployment', 'claim', 'update'].map((k) => [
                    h('dt', { key: `t${k}` }, k),
                    h('dd', { key: `d${k}` }, review.gas![k] ?? ''),
                  ]),
                )
              : h('p', null, 'The cost estimate is not available.'),
          ]
        : null;
      break;
    case 'generate':
      body = [
        h(
          'p',
          null,
          `Generate the ${form.blockchain.toUpperCase()} contract for ${form.beneficiaries.length} beneficiar${form.beneficiaries.length === 1 ? 'y' : 'ies'}. It is compiled and tested before it is shown.`,
        ),
        Object.keys(errors).length
          ? h(
              'ul',
              { class: 'svc-problems' },
              Object.entries(errors).map(([f, reason]) =>
                h(
                  'li',
                  { key: f },
                  `${f || 'plan'}: ${reason} `,
                  steps.includes(stepOfField(f)) && stepOfField(f) !== 'generate'
                    ? h(
                        'button',
                        { type: 'button', class: 'svc-link', onClick: () => setIndex(steps.indexOf(stepOfField(f))) },
                        `Go to ${STEP_TITLES[stepOfField(f)]}`,
                      )
                    : null,
                ),
              ),
            )
          : null,
        h(
          'button',
          { type: 'button', class: 'svc-primary', disabled: Boolean(busy), onClick: () => void generate() },
          'Generate contract',
        ),
      ];
      break;
    case 'result':
      body = result
        ? [
            h(Copyable, {
              label: 'Source code',
              text: result.contractCode,
              filename:
                result.contractInfo.blockchain === 'evm'
                  ? 'Inheritance.sol'
                  : result.contractInfo.blockchain === 'ton'
                    ? 'inheritance.fc'
                    : 'lib.rs',
              type: 'text/plain',
            }),
            result.compiled.abi
              ? h(Copyable, {
                  label: 'ABI',
                  text: JSON.stringify(result.compiled.abi, null, 2),
                  filename: 'Inheritance.abi.json',
                  type: 'application/json',
                })
              : null,
            result.compiled.bytecode
              ? h(Copyable, {
                  label: 'Bytecode',
                  text: result.compiled.bytecode,
                  filename: 'Inheritance.bin',
                  type: 'text/plain',
                })
              : null,
            h(
              'button',
              { type: 'button', class: 'svc-secondary', onClick: () => onMessage({ type: 'svc:wizard:reset' }) },
              'Start over',
            ),
          ]
        : h('p', null, 'Generate the contract first.');
      break;
  }

  const hasNext = index < steps.length - 1 && step !== 'generate';
  return h(
    'div',
    { class: 'svc-shell' },
    options.hideHeader
      ? null
      : h(
          'header',
          { class: 'svc-header' },
          options.logo ? h('img', { src: options.logo, alt: '', class: 'svc-logo' }) : null,
          h('p', { class: 'svc-title' }, 'Inheritance contract wizard'),
        ),
    h(
      'nav',
      { 'aria-label': 'Wizard steps' },
      h(
        'ol',
        { class: 'svc-steps' },
        steps.map((s, i) =>
          h(
            'li',
            { key: s, 'aria-current': i === index ? 'step' : undefined, class: i < index ? 'svc-done' : undefined },
            STEP_TITLES[s],
          ),
        ),
      ),
    ),
    h(
      'section',
      { class: 'svc-step', 'aria-labelledby': 'svc-step-title' },
      h(
        'h2',
        { id: 'svc-step-title', tabIndex: -1, ref: heading },
        `Step ${index + 1} of ${steps.length}: ${STEP_TITLES[step]}`,
      ),
      alert ? h('p', { class: 'svc-alert', role: 'alert' }, alert) : null,
      h('p', { class: 'svc-status', role: 'status', 'aria-live': 'polite' }, busy),
      body,
      stepFields(step).length &&
        step !== 'beneficiaries' &&
        step !== 'switch' &&
        step !== 'generate' &&
        step !== 'template' &&
        step !== 'chain'
        ? h(
            'ul',
            { class: 'svc-problems' },
            stepFields(step).map((f) => h('li', { key: f }, `${f}: ${errors[f]}`)),
          )
        : null,
    ),
    h(
      'div',
      { class: 'svc-nav' },
      index > 0 && step !== 'result'
        ? h(
            'button',
            { type: 'button', class: 'svc-secondary', disabled: Boolean(busy), onClick: () => setIndex(index - 1) },
            'Back',
          )
        : null,
      hasNext
        ? h(
            'button',
            { type: 'button', class: 'svc-primary', disabled: Boolean(busy), onClick: () => void next() },
            'Next',
          )
        : null,
    ),
    options.hideFooter ? null : h('footer', { class: 'svc-footer' }, 'Powered by svc'),
  );
}

function fieldHasValue(form: Form, field: string): boolean {
  const m = /^beneficiaries\.(\d+)\.(name|address|percentage|relationship)$/.exec(field);
  if (m) return Boolean(form.beneficiaries[Number(m[1])]?.[m[2] as keyof Row]?.trim());
  if (field === 'ownerAddress') return form.ownerAddress.trim() !== '';
  if (field === 'guardians.addresses') return form.guardians.trim() !== '';
  return field !== 'beneficiaries';
}
