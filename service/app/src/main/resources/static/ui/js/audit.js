/*
 * /ui/audit (admins): the audit trail newest first, filtered like GET /api/v1/audit — who, when,
 * what, on which resource, the outcome, from which address. Other roles get the API's 403.
 */
'use strict';

(() => {
	const { api, el, time } = DQ;
	let page = 0;

	function filterForm() {
		const input = (name, label, type) => el('label', {}, label, el('input', { name, id: 'audit-' + name, type: type || 'text' }));
		return el('form', { class: 'filters card', id: 'audit-filters' },
			input('actor', 'Who'), input('action', 'Action'),
			el('label', {}, 'Outcome', el('select', { name: 'outcome', id: 'audit-outcome' },
				['', 'succeeded', 'refused', 'failed'].map((o) => el('option', { value: o }, o || 'any')))),
			input('target', 'Target (job, subscription)'), input('clientAddress', 'Client address or CIDR'),
			input('from', 'From', 'datetime-local'), input('to', 'to', 'datetime-local'),
			el('button', { type: 'submit' }, 'Filter'));
	}

	async function load() {
		const params = new URLSearchParams();
		for (const field of document.getElementById('audit-filters').elements) {
			if (field.name && field.value) {
				params.set(field.name, field.type === 'datetime-local' ? new Date(field.value).toISOString() : field.value);
			}
		}
		params.set('page', page);
		params.set('size', 50);
		const body = document.querySelector('#audit-table tbody');
		let result;
		try {
			result = await api.get('/api/v1/audit?' + params);
		}
		catch (e) {
			if (e instanceof DQ.ApiError && e.status === 403) {
				body.replaceChildren(el('tr', {}, el('td', { colspan: 8, class: 'error', id: 'audit-forbidden' }, 'Only admins may read the audit trail.')));
				return;
			}
			throw e;
		}
		body.replaceChildren(...result.items.map((entry) => el('tr', { 'data-entry': entry.entryId },
			el('td', { class: 'small' }, time(entry['@timestamp'])),
			el('td', {}, entry.actor || '—', el('div', { class: 'muted small' }, (entry.actorRoles || []).join(', '))),
			el('td', {}, entry.action, el('div', { class: 'muted small' }, `${entry.method || ''} ${entry.path || ''}`)),
			el('td', { class: 'small' }, entry.target || '—'),
			el('td', {}, el('span', { class: 'badge ' + entry.outcome }, entry.outcome), ' ', entry.status),
			el('td', { class: 'small' }, entry.clientAddress || '—'),
			el('td', { class: 'small' }, entry.details ? Object.entries(entry.details).map(([k, v]) => `${k}: ${v}`).join('; ') : ''))));
		const pages = Math.max(1, Math.ceil(result.total / result.size));
		document.getElementById('audit-count').textContent = `${result.total} entries; page ${page + 1} of ${pages}`;
		document.getElementById('audit-prev').disabled = page === 0;
		document.getElementById('audit-next').disabled = page + 1 >= pages;
		document.getElementById('audit-table').dataset.loaded = String(result.items.length);
	}

	DQ.start(async () => {
		const main = document.getElementById('main');
		const form = filterForm();
		form.addEventListener('submit', (event) => {
			event.preventDefault();
			page = 0;
			load().catch(DQ.fail);
		});
		main.replaceChildren(
			el('div', { class: 'toolbar' }, el('h1', {}, 'Audit trail')),
			form,
			el('table', { id: 'audit-table' },
				el('thead', {}, el('tr', {}, ['when', 'who', 'action', 'target', 'outcome', 'from', 'details'].map((h) => el('th', {}, h)))),
				el('tbody')),
			el('div', { class: 'toolbar' },
				el('button', { class: 'secondary', id: 'audit-prev', onclick: () => { page--; load().catch(DQ.fail); } }, '← newer'),
				el('span', { class: 'muted', id: 'audit-count' }),
				el('button', { class: 'secondary', id: 'audit-next', onclick: () => { page++; load().catch(DQ.fail); } }, 'older →')));
		await load();
	});
})();
