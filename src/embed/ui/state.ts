// The wizard's state in one hook: the current step, the form, errors, progress
// messages and what the API answered, with the reset a host or "Start over" asks for.
import { useState } from 'preact/hooks';
import type { Jurisdiction, Template } from './calls.js';
import { type Errors, type Form, initialForm, type Result, type Review, type WizardConfig } from './form.js';

export function useWizardState(options: NonNullable<WizardConfig['options']>) {
  const [index, setIndex] = useState(0);
  const [form, setForm] = useState<Form>(() => initialForm(options));
  const [errors, setErrors] = useState<Errors>({});
  const [showAll, setShowAll] = useState(false);
  const [busy, setBusy] = useState('');
  const [alert, setAlert] = useState('');
  const [templates, setTemplates] = useState<Template[]>([]);
  const [jurisdictions, setJurisdictions] = useState<Jurisdiction[]>([]);
  const [review, setReview] = useState<Review | null>(null);
  const [result, setResult] = useState<Result | null>(null);

  /** Back to the first step with a fresh form; the loaded templates and jurisdictions stay. */
  const reset = () => {
    setForm(initialForm(options));
    setErrors({});
    setShowAll(false);
    setResult(null);
    setReview(null);
    setAlert('');
    setIndex(0);
  };

  return {
    index,
    setIndex,
    form,
    setForm,
    errors,
    setErrors,
    showAll,
    setShowAll,
    busy,
    setBusy,
    alert,
    setAlert,
    templates,
    setTemplates,
    jurisdictions,
    setJurisdictions,
    review,
    setReview,
    result,
    setResult,
    reset,
  };
}
