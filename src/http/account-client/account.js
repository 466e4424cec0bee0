// The account pages (GET /account/verify, /account/reset, /account/confirm): one button (for a new password, a form)
// that calls the JSON API of this same origin with the token of the mailed link. The token is read from the page's own
// address when the button is pressed and sent only in that call: it is never logged, kept in storage or shown. Nothing
// happens on load, so a mail scanner that opens the link does not spend it. Everything shown is written as text.
(() => {
  const $ = (id) => document.getElementById(id);
  const T = JSON.parse($('account-texts').textContent);
  const E = T.errors;
  const kind = $('account-page').dataset.page;
  const form = $('account-form');

  function say(text, isError) {
    const el = $('account-message');
    el.textContent = text;
    el.classList.toggle('error', Boolean(isError));
    el.setAttribute('role', isError ? 'alert' : 'status');
  }

  /** The link's token, from the page's own address. */
  const token = () => new URLSearchParams(window.location.search).get('token') || '';

  /** One call to the API without cookies (the token is the credential): `{ok, status, error}`; never throws. */
  async function api(method, path, body) {
    const headers = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res;
    try {
      res = await fetch(path, {
        method,
        headers,
        credentials: 'omit',
        cache: 'no-store',
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch {
      return { ok: false, status: 0, error: { code: 'NETWORK' } };
    }
    let json = null;
    try {
      json = await res.json();
    } catch {
      json = null;
    }
    if (res.ok) return { ok: true, status: res.status };
    const error = json && typeof json.error === 'object' && json.error ? json.error : { code: `HTTP_${res.status}` };
    return { ok: false, status: res.status, error };
  }

  /** An error of the API in words: ours for what we know, else the API's own message, else a general one. */
  function words(error, status) {
    const code = error.code;
    const details = Array.isArray(error.details) ? error.details : [];
    if (code === 'NETWORK') return E.network;
    if (code === 'GONE' || status === 410) return T.gone[kind];
    if (code === 'CONFLICT' || status === 409) return T.taken;
    if (code === 'RATE_LIMIT_EXCEEDED' || status === 429) return E.rate;
    if (code === 'SERVICE_UNAVAILABLE' || status === 503) return E.unavailable;
    if (code === 'VALIDATION_ERROR' && details.some((d) => d && d.field === 'newPassword')) {
      const reasons = details.filter((d) => d && d.field === 'newPassword' && typeof d.reason === 'string');
      return `${E.check} ${E.fields.newPassword}: ${reasons.map((d) => d.reason).join('; ')}`;
    }
    if (typeof error.message === 'string' && error.message) return error.message;
    return E.unknown;
  }

  /** The link is spent or done with: the form goes, only the words stay. */
  function finish(text, isError) {
    for (const input of form.querySelectorAll('input')) input.value = '';
    form.hidden = true;
    say(text, isError);
  }

  function call(t) {
    const q = `token=${encodeURIComponent(t)}`;
    if (kind === 'reset') {
      return api('POST', '/api/v1/auth/password/reset', { token: t, newPassword: $('new-password').value });
    }
    if (kind === 'confirm') return api('GET', `/api/v1/auth/email/confirm?${q}`);
    return api('GET', `/api/v1/auth/email/verify?${q}`);
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const t = token();
    if (!t) return say(T.noToken, true);
    if (kind === 'reset') {
      const password = $('new-password').value;
      if (!password || !$('repeat-password').value) return say(T.emptyPassword, true);
      if (password !== $('repeat-password').value) return say(T.mismatch, true);
    }
    const button = form.querySelector('button');
    button.disabled = true;
    say(T.working);
    const res = await call(t);
    button.disabled = false;
    if (res.ok) return finish(T.done[kind]);
    if (res.status === 410 || res.status === 409) return finish(words(res.error, res.status), true);
    say(words(res.error, res.status), true);
  });

  form.hidden = false;
  if (!token()) {
    form.hidden = true;
    say(T.noToken, true);
  }
})();
