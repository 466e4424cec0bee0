// The heirs' page (GET /heir): create an account or sign in, claim a share with its code, see the shares held.
// It talks only to the JSON API of this same origin, with the session cookie and its CSRF token. Everything it shows
// is written as text, never as HTML. The code is read from its field when claiming and the field is emptied after a
// claim: it is never logged, kept in storage or put in a web address.
(() => {
  const T = JSON.parse(document.getElementById('heir-texts').textContent);
  const E = T.errors;
  const lang = document.documentElement.lang;
  const MAIL_LOCALES = ['en', 'ar', 'es', 'fr'];
  const $ = (id) => document.getElementById(id);
  let csrf = null;

  const fill = (text, values) => text.replace(/\{(email|title|date)\}/g, (_, k) => values[k] ?? '');

  function say(id, text, isError) {
    const el = $(id);
    el.textContent = text;
    el.classList.toggle('error', Boolean(isError));
    el.setAttribute('role', isError ? 'alert' : 'status');
  }

  function when(iso) {
    const d = new Date(iso);
    if (Number.isNaN(d.getTime())) return '';
    try {
      return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'short' }).format(d);
    } catch {
      return d.toLocaleString();
    }
  }

  /** One call to the API: `{ok, status, data}` or `{ok: false, status, error}`; never throws. */
  async function api(method, path, body) {
    const headers = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && csrf) headers['x-csrf-token'] = csrf;
    let res;
    try {
      res = await fetch(path, {
        method,
        headers,
        credentials: 'same-origin',
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
    if (res.ok) return { ok: true, status: res.status, data: json ? json.data : null };
    const error = json && typeof json.error === 'object' && json.error ? json.error : { code: `HTTP_${res.status}` };
    return { ok: false, status: res.status, error };
  }

  /** An error of the API in words: ours for what we know, else the API's own message, else a general one. */
  function words(error, status, context) {
    const code = error.code;
    const details = Array.isArray(error.details) ? error.details : [];
    if (code === 'NETWORK') return E.network;
    if (code === 'RATE_LIMIT_EXCEEDED' || status === 429) return E.rate;
    if (code === 'SERVICE_UNAVAILABLE' || status === 503) return E.unavailable;
    if (code === 'EMAIL_NOT_VERIFIED') return E.notVerified;
    if (code === 'CSRF_FAILED') return E.session;
    if (status === 401) return context === 'login' ? E.login : E.session;
    if (context === 'claim') {
      if (code === 'VALIDATION_ERROR') return E.badCode;
      if (code === 'NOT_FOUND') return E.unknownCode;
      if (code === 'CONFLICT') return E.conflict;
      if (code === 'SHARE_NOT_AVAILABLE' && details.some((d) => d && d.reason === 'email')) return E.otherEmail;
    }
    if (code === 'VALIDATION_ERROR' && details.length) {
      const parts = details.map((d) => {
        const name = d && typeof d.field === 'string' ? E.fields[d.field.split('.')[0]] : undefined;
        const reason = d && typeof d.reason === 'string' ? d.reason : '';
        return name ? `${name}: ${reason}` : reason;
      });
      return `${E.check} ${parts.join('; ')}`;
    }
    if (typeof error.message === 'string' && error.message) return error.message;
    return E.unknown;
  }

  function busy(form, on) {
    for (const b of form.querySelectorAll('button')) b.disabled = on;
  }

  function showAccount() {
    csrf = null;
    $('signed-in').hidden = true;
    $('account').hidden = false;
  }

  function showSignedIn(session) {
    csrf = session.csrfToken;
    $('account').hidden = true;
    $('signed-in').hidden = false;
    const email = session.user && typeof session.user.email === 'string' ? session.user.email : '';
    $('who').textContent = fill(T.signedInAs, { email });
    const verified = Boolean(session.user?.emailVerified);
    $('verify').hidden = verified;
    $('verify-text').textContent = verified ? '' : fill(T.notVerified, { email });
    return listShares();
  }

  function link(href, text) {
    const a = document.createElement('a');
    a.href = href;
    a.textContent = text;
    a.rel = 'noreferrer';
    return a;
  }

  function stateWords(share) {
    const s = T.states;
    switch (share.state) {
      case 'waiting':
        return share.opensAt ? fill(s.waiting, { date: when(share.opensAt) }) : s.pending;
      case 'open':
        return share.expiresAt ? fill(s.openUntil, { date: when(share.expiresAt) }) : s.open;
      case 'expired':
        return s.expired;
      case 'revoked':
        return s.revoked;
      default:
        return s.pending;
    }
  }

  /** What an open share lets its heir read: the memoir as a book, and the vault items left for them. */
  async function openLinks(share, li) {
    const id = encodeURIComponent(share.shareId);
    const permissions = Array.isArray(share.permissions) ? share.permissions : [];
    if (!permissions.includes('read')) return;
    const book = document.createElement('ul');
    for (const [format, text] of [
      ['pdf', T.bookPdf],
      ['md', T.bookText],
    ]) {
      const item = document.createElement('li');
      item.append(link(`/api/v1/svcloom/shared/${id}/export?format=${format}`, text));
      book.append(item);
    }
    li.append(book);
    const items = await api('GET', `/api/v1/vaults/shared/${id}/items?limit=100`);
    if (!items.ok) {
      const p = document.createElement('p');
      p.className = 'message error';
      p.textContent = words(items.error, items.status, 'list');
      li.append(p);
      return;
    }
    const list = Array.isArray(items.data) ? items.data : [];
    if (!list.length) return;
    const title = document.createElement('p');
    title.textContent = T.itemsTitle;
    const ul = document.createElement('ul');
    for (const item of list) {
      const entry = document.createElement('li');
      entry.append(
        link(
          `/api/v1/vaults/shared/${id}/items/${encodeURIComponent(item.id)}/download`,
          String(item.title || item.fileName || ''),
        ),
      );
      ul.append(entry);
    }
    li.append(title, ul);
  }

  async function listShares() {
    const ul = $('shares');
    // Busy until every share and its links are in: what a screen reader waits for (and a test).
    ul.setAttribute('aria-busy', 'true');
    try {
      say('shares-message', T.working);
      const res = await api('GET', '/api/v1/svcloom/shared?limit=100');
      ul.replaceChildren();
      if (!res.ok) {
        if (res.status === 401) return showAccount();
        say('shares-message', words(res.error, res.status, 'list'), true);
        return;
      }
      const shares = Array.isArray(res.data) ? res.data : [];
      say('shares-message', shares.length ? '' : T.noShares);
      for (const share of shares) {
        const li = document.createElement('li');
        li.dataset.state = String(share.state);
        const title = document.createElement('span');
        title.className = 'title';
        title.textContent = String(share.title ?? '');
        const state = document.createElement('p');
        state.className = 'state';
        state.textContent = stateWords(share);
        li.append(title, state);
        ul.append(li);
        if (share.state === 'open') await openLinks(share, li);
      }
    } finally {
      ul.setAttribute('aria-busy', 'false');
    }
  }

  async function loadSession() {
    const res = await api('GET', '/api/auth/session');
    if (res.ok && res.data) return showSignedIn(res.data);
    return showAccount();
  }

  $('register-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const email = $('register-email').value.trim();
    const name = $('register-name').value.trim();
    const body = { email, password: $('register-password').value };
    if (name) body.name = name;
    if (MAIL_LOCALES.includes(lang)) body.locale = lang;
    busy(form, true);
    say('register-message', T.working);
    const res = await api('POST', '/api/auth/register', body);
    busy(form, false);
    if (!res.ok) return say('register-message', words(res.error, res.status, 'register'), true);
    $('register-password').value = '';
    $('login-email').value = email;
    say('register-message', fill(T.registered, { email }));
  });

  // A forgotten password: the service mails a reset link to the address (the same answer whether or not it has an
  // account), whose page sets a new one.
  $('forgot-button').addEventListener('click', async () => {
    const email = $('login-email').value.trim();
    if (!email) return say('login-message', T.forgotEmail, true);
    say('login-message', T.working);
    const res = await api('POST', '/api/auth/password/forgot', { email });
    if (!res.ok) return say('login-message', words(res.error ?? {}, res.status), true);
    say('login-message', T.forgotSent);
  });

  $('login-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    busy(form, true);
    say('login-message', T.working);
    const res = await api('POST', '/api/auth/login', {
      email: $('login-email').value.trim(),
      password: $('login-password').value,
    });
    busy(form, false);
    if (!res.ok || !res.data) return say('login-message', words(res.error ?? {}, res.status, 'login'), true);
    $('login-password').value = '';
    say('login-message', '');
    say('register-message', '');
    await showSignedIn(res.data);
  });

  $('sign-out').addEventListener('click', async () => {
    await api('POST', '/api/auth/logout', {});
    $('shares').replaceChildren();
    say('claim-message', '');
    showAccount();
  });

  $('check-again').addEventListener('click', async () => {
    const res = await api('GET', '/api/auth/session');
    if (!res.ok || !res.data) return showAccount();
    await showSignedIn(res.data);
    say('verify-message', res.data.user?.emailVerified ? '' : T.stillNotVerified);
  });

  $('refresh').addEventListener('click', () => listShares());

  $('claim-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const input = $('claim-code');
    // A code pasted from a message may come with spaces or line breaks inside: none belongs to it.
    const code = input.value.replace(/\s+/g, '');
    if (!code) return say('claim-message', E.emptyCode, true);
    busy(form, true);
    say('claim-message', T.working);
    const res = await api('POST', '/api/v1/svcloom/shared/claim', { code });
    busy(form, false);
    if (!res.ok) {
      if (res.status === 401) showAccount();
      return say('claim-message', words(res.error, res.status, 'claim'), true);
    }
    input.value = '';
    say('claim-message', fill(T.claimed, { title: String(res.data?.title ?? '') }));
    await listShares();
  });

  loadSession();
})();
