/*
 * The pages' one way to the API: the user's credentials (HTTP Basic in local mode, a bearer token
 * in jwt mode) kept in sessionStorage for this tab only, problem details turned into errors, the
 * sample stream read with fetch (EventSource cannot send an Authorization header), and the number
 * formats every page shares.
 */
'use strict';

const DQ = (() => {
	const AUTH_KEY = 'drivequal.auth';
	const USER_KEY = 'drivequal.user';
	// Set by a self-contained HTML export: the report renders from it and never calls the API.
	const embedded = window.DRIVEQUAL_EMBEDDED || null;

	class ApiError extends Error {
		constructor(status, problem) {
			super((problem && (problem.detail || problem.title)) || ('HTTP ' + status));
			this.status = status;
			this.problem = problem;
		}
	}

	function authHeader() {
		return sessionStorage.getItem(AUTH_KEY);
	}

	function signOut() {
		sessionStorage.removeItem(AUTH_KEY);
		sessionStorage.removeItem(USER_KEY);
		location.reload();
	}

	async function request(method, path, body, accept, extraHeaders) {
		const headers = { 'X-Requested-With': 'XMLHttpRequest', 'Accept': accept || 'application/json', ...(extraHeaders || {}) };
		const auth = authHeader();
		if (auth) {
			headers.Authorization = auth;
		}
		if (body !== undefined) {
			headers['Content-Type'] = 'application/json';
		}
		const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
		if (response.status === 401) {
			sessionStorage.removeItem(AUTH_KEY);
			showSignIn('Your credentials were refused; sign in again.');
		}
		return response;
	}

	async function json(method, path, body) {
		const response = await request(method, path, body);
		const text = await response.text();
		let parsed = null;
		try {
			parsed = text ? JSON.parse(text) : null;
		}
		catch (e) {
			parsed = null;
		}
		if (!response.ok) {
			throw new ApiError(response.status, parsed);
		}
		return parsed;
	}

	const api = {
		get: (path) => json('GET', path),
		post: (path, body) => json('POST', path, body),
		del: (path) => json('DELETE', path),
		raw: request,
	};

	/** Every sample of one phase, a page of 10000 at a time. */
	async function phaseSamples(jobId, phaseIndex) {
		const all = [];
		let after = '';
		for (;;) {
			const page = await api.get(`/api/v1/qualifications/${encodeURIComponent(jobId)}/samples?phase=${phaseIndex}&limit=10000${after}`);
			all.push(...page.items);
			if (page.nextAfterPhase == null) {
				return all;
			}
			after = `&afterPhase=${page.nextAfterPhase}&afterT=${page.nextAfterT}`;
		}
	}

	/**
	 * Server-Sent Events over fetch: calls onEvent(name, data) per event until the stream ends
	 * or the returned controller is aborted.
	 */
	function stream(path, onEvent, onClose) {
		const controller = new AbortController();
		(async () => {
			try {
				const headers = { 'Accept': 'text/event-stream', 'X-Requested-With': 'XMLHttpRequest' };
				if (authHeader()) {
					headers.Authorization = authHeader();
				}
				const response = await fetch(path, { headers, signal: controller.signal });
				if (!response.ok) {
					throw new ApiError(response.status, null);
				}
				const reader = response.body.getReader();
				const decoder = new TextDecoder();
				let buffer = '';
				for (;;) {
					const { value, done } = await reader.read();
					if (done) {
						break;
					}
					buffer += decoder.decode(value, { stream: true });
					let boundary;
					while ((boundary = buffer.search(/\r?\n\r?\n/)) >= 0) {
						const block = buffer.slice(0, boundary);
						buffer = buffer.slice(boundary).replace(/^\r?\n\r?\n/, '');
						let name = 'message';
						const data = [];
						for (const line of block.split(/\r?\n/)) {
							if (line.startsWith('event:')) {
								name = line.slice(6).trim();
							}
							else if (line.startsWith('data:')) {
								data.push(line.slice(5).replace(/^ /, ''));
							}
						}
						if (data.length) {
							onEvent(name, data.join('\n'));
						}
					}
				}
				onClose && onClose(null);
			}
			catch (e) {
				if (e.name !== 'AbortError') {
					onClose && onClose(e);
				}
			}
		})();
		return controller;
	}

	// ---- page frame and sign-in ----

	function el(tag, attrs, ...children) {
		const node = document.createElement(tag);
		for (const [key, value] of Object.entries(attrs || {})) {
			if (value == null || value === false) {
				continue;
			}
			if (key === 'class') {
				node.className = value;
			}
			else if (key.startsWith('on')) {
				node.addEventListener(key.slice(2), value);
			}
			else {
				node.setAttribute(key, value === true ? '' : value);
			}
		}
		for (const child of children.flat()) {
			if (child != null && child !== false) {
				node.append(child instanceof Node ? child : document.createTextNode(String(child)));
			}
		}
		return node;
	}

	function frame() {
		const header = document.querySelector('header.top');
		if (!header || embedded) {
			return;
		}
		const user = sessionStorage.getItem(USER_KEY);
		header.replaceChildren(...[
			el('a', { class: 'brand', href: '/ui/' }, 'drivequal'),
			el('a', { href: '/ui/' }, 'Jobs'),
			el('a', { href: '/ui/submit' }, 'Submit'),
			el('a', { href: '/ui/drives' }, 'Drives'),
			el('a', { href: '/ui/compare' }, 'Compare'),
			el('a', { href: '/ui/runners' }, 'Runners'),
			el('a', { href: '/ui/campaigns' }, 'Campaigns'),
			el('a', { href: '/ui/webhooks' }, 'Notifications'),
			el('a', { href: '/ui/audit' }, 'Audit'),
			el('span', { class: 'spacer' }),
			user ? el('span', { class: 'who' }, 'signed in as ' + user) : null,
			user ? el('button', { onclick: signOut, id: 'sign-out' }, 'Sign out') : null].filter(Boolean));
	}

	let signInShown = false;

	/** Replaces the page's main content by the sign-in form; resolves when signed in. */
	function showSignIn(message) {
		if (signInShown) {
			return;
		}
		signInShown = true;
		const main = document.querySelector('main');
		const error = el('p', { class: 'error', id: 'signin-error' }, message || '');
		const user = el('input', { name: 'username', id: 'signin-user', autocomplete: 'username' });
		const password = el('input', { name: 'password', id: 'signin-password', type: 'password', autocomplete: 'current-password' });
		const token = el('input', { name: 'token', id: 'signin-token', placeholder: 'eyJ...' });
		const form = el('form', { class: 'card signin', id: 'signin' },
			el('h1', {}, 'Sign in to drivequal'),
			el('p', { class: 'muted small' }, 'The pages call the API with your credentials; they are kept in this browser tab only.'),
			el('label', {}, 'User (local mode)', user),
			el('label', {}, 'Password', password),
			el('label', {}, 'or a bearer token (jwt mode)', token),
			el('button', { type: 'submit', id: 'signin-submit' }, 'Sign in'),
			error);
		form.addEventListener('submit', async (event) => {
			event.preventDefault();
			const auth = token.value.trim()
				? 'Bearer ' + token.value.trim()
				: 'Basic ' + btoa(unescape(encodeURIComponent(user.value + ':' + password.value)));
			const response = await fetch('/api/v1/profiles', { headers: { Authorization: auth, 'X-Requested-With': 'XMLHttpRequest' } });
			if (response.ok) {
				sessionStorage.setItem(AUTH_KEY, auth);
				sessionStorage.setItem(USER_KEY, token.value.trim() ? 'token' : user.value);
				location.reload();
			}
			else {
				error.textContent = response.status === 401 ? 'Unknown user or wrong password (or an invalid token).'
					: 'The API answered ' + response.status + '.';
			}
		});
		main.replaceChildren(form);
		user.focus();
	}

	/** Runs a page once credentials are present, else shows the sign-in form. */
	function start(page) {
		frame();
		if (embedded) {
			page();
			return;
		}
		if (!authHeader()) {
			showSignIn();
			return;
		}
		Promise.resolve().then(page).catch((e) => {
			if (!(e instanceof ApiError && e.status === 401)) {
				fail(e);
			}
		});
	}

	function fail(e) {
		console.error(e);
		const main = document.querySelector('main');
		main.append(el('p', { class: 'error', id: 'page-error' }, String(e.message || e)));
	}

	// ---- formats ----

	function num(value, digits) {
		if (value == null || Number.isNaN(value)) {
			return '—';
		}
		return Number(value).toLocaleString('en-US', { maximumFractionDigits: digits == null ? 0 : digits, minimumFractionDigits: digits == null ? 0 : Math.min(digits, 2) });
	}

	function si(value) {
		if (value == null) {
			return '';
		}
		const abs = Math.abs(value);
		if (abs >= 1e6) {
			return +(value / 1e6).toPrecision(3) + 'M';
		}
		if (abs >= 1e3) {
			return +(value / 1e3).toPrecision(3) + 'k';
		}
		return String(+Number(value).toPrecision(3));
	}

	function duration(seconds) {
		if (seconds == null) {
			return '—';
		}
		const s = Math.round(seconds);
		const h = Math.floor(s / 3600);
		const m = Math.floor((s % 3600) / 60);
		return (h ? h + ' h ' : '') + (h || m ? m + ' min ' : '') + (s % 60) + ' s';
	}

	/**
	 * How sure a job's ETA is, in words: its basis ("measured", "from history (3 jobs)",
	 * "estimate: constant"), its interval where it has one (an 80 % interval: the end
	 * falls inside it about 8 times in 10, docs/api.md), and a queued job's wait.
	 */
	function etaSureness(eta) {
		if (!eta) {
			return '';
		}
		const parts = [eta.label];
		if (eta.lowS != null && eta.highS != null && eta.lowS !== eta.highS) {
			parts.push(`80 % interval ${duration(eta.lowS)} – ${duration(eta.highS)}`);
		}
		if (eta.waitS) {
			parts.push(`incl. ${duration(eta.waitS)} wait`);
		}
		return parts.join('; ');
	}

	function bytes(value) {
		if (value == null) {
			return '—';
		}
		const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
		let v = Number(value);
		let i = 0;
		while (Math.abs(v) >= 1000 && i < units.length - 1) {
			v /= 1000;
			i++;
		}
		return (+v.toPrecision(4)).toLocaleString('en-US') + ' ' + units[i];
	}

	function time(iso) {
		return iso ? new Date(iso).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '—';
	}

	/** A Measure of the analysis: {known, number} or {known: false, reason}. */
	function measure(m, format) {
		if (!m) {
			return '—';
		}
		return m.known ? format(m.number) : 'unknown: ' + m.reason;
	}

	/** Downloads a Blob under a file name (exports that need the Authorization header). */
	function save(blob, name) {
		const url = URL.createObjectURL(blob);
		const link = el('a', { href: url, download: name });
		document.body.append(link);
		link.click();
		link.remove();
		setTimeout(() => URL.revokeObjectURL(url), 10000);
	}

	async function download(path, name) {
		const response = await request('GET', path, undefined, '*/*');
		if (!response.ok) {
			throw new ApiError(response.status, null);
		}
		save(await response.blob(), name);
	}

	function param(name) {
		return new URLSearchParams(location.search).get(name);
	}

	return { api, ApiError, phaseSamples, stream, el, start, fail, num, si, duration, etaSureness, bytes, time, measure, save, download, param, embedded };
})();
