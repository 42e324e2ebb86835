/*
 * /ui/campaigns: the campaigns (a drive model on several samples) with their state, counts,
 * progress and model verdict, filtered like GET /api/v1/campaigns; refreshes while one is active.
 */
'use strict';

(() => {
	const { api, el, num, duration, time } = DQ;
	const STATES = ['', 'QUEUED', 'RUNNING', 'COMPLETED', 'CANCELLED'];
	const ACTIVE = ['QUEUED', 'RUNNING'];
	let timer = null;

	function modelName(m) {
		return m.vendor && !(m.model || '').startsWith(m.vendor) ? `${m.vendor} ${m.model}` : (m.model || '');
	}

	function counts(c) {
		return Object.entries(c.counts || {}).filter(([, n]) => n > 0)
			.map(([state, n]) => el('span', { class: 'badge ' + state }, `${n} ${state}`));
	}

	function row(c) {
		const m = c.model || {};
		return el('tr', { 'data-campaign': c.id, 'data-state': c.state },
			el('td', {}, el('a', { href: '/ui/campaigns/' + encodeURIComponent(c.id) }, c.name || c.id),
				c.name ? el('div', { class: 'muted small' }, c.id) : null),
			el('td', {}, modelName(m), el('div', { class: 'muted small' }, 'fw ' + (m.firmware || '?'))),
			el('td', { class: 'num' }, `${(c.samples || []).length} × ${(c.profiles || []).length}`),
			el('td', {}, el('span', { class: 'badge ' + c.state }, c.state)),
			el('td', {}, el('div', { class: 'counts' }, ...counts(c))),
			el('td', {}, el('div', { class: 'progress' }, el('div', { class: 'bar', style: `width:${Math.min(100, c.progressPercent || 0)}%` }),
				el('div', { class: 'label' }, `${num(c.progressPercent || 0, 1)} %`))),
			el('td', { class: 'num' }, ACTIVE.includes(c.state) ? duration(c.etaS) : '—'),
			el('td', {}, c.verdict ? el('span', { class: 'badge ' + c.verdict }, c.verdict) : '—'),
			el('td', { class: 'small' }, time(c.createdAt)),
			el('td', {}, c.submitter || ''));
	}

	async function load() {
		clearTimeout(timer);
		const params = new URLSearchParams({ size: 50 });
		for (const field of document.getElementById('filters').elements) {
			if (field.name && field.value) {
				params.set(field.name, field.value);
			}
		}
		const result = await api.get('/api/v1/campaigns?' + params);
		document.querySelector('#campaigns-table tbody').replaceChildren(...result.items.map(row));
		document.getElementById('campaigns-count').textContent = `${result.total} campaign(s)`;
		document.getElementById('campaigns-table').dataset.loaded = String(result.items.length);
		if (result.items.some((c) => ACTIVE.includes(c.state))) {
			timer = setTimeout(() => load().catch(DQ.fail), 3000);
		}
	}

	DQ.start(async () => {
		const query = new URLSearchParams(location.search);
		const input = (name, label) => el('label', {}, label, el('input', { name, id: 'filter-' + name, value: query.get(name) || '' }));
		const form = el('form', { class: 'filters card', id: 'filters' },
			el('label', {}, 'State', el('select', { name: 'state', id: 'filter-state' },
				STATES.map((s) => el('option', { value: s, selected: s === (query.get('state') || '') }, s || 'any')))),
			input('model', 'Model'), input('firmware', 'Firmware'), input('submitter', 'Submitter'),
			el('button', { type: 'submit' }, 'Filter'));
		form.addEventListener('submit', (event) => {
			event.preventDefault();
			load().catch(DQ.fail);
		});
		document.getElementById('main').replaceChildren(
			el('div', { class: 'toolbar' }, el('h1', {}, 'Campaigns'), el('span', { class: 'spacer' }),
				el('span', { class: 'muted small' }, 'Create one with POST /api/v1/campaigns (docs/user-guide.md, "Qualifying a model")')),
			form,
			el('table', { id: 'campaigns-table' },
				el('thead', {}, el('tr', {}, ['campaign', 'model', 'samples × profiles', 'state', 'jobs', 'progress', 'ETA', 'model verdict', 'created', 'by'].map((h) => el('th', {}, h)))),
				el('tbody')),
			el('p', { class: 'muted', id: 'campaigns-count' }));
		await load();
	});
})();
