/*
 * /ui/campaigns: the campaigns (a drive model on several samples) with their state, counts,
 * progress and model verdict, filtered like GET /api/v1/campaigns; refreshes while one is active.
 * Filtered by model, it also shows the model's history: its judged campaigns oldest first, one
 * row each with the firmware, the model verdict and, per criterion, the worst sample's figure, so
 * firmware versions of the model read in the order they were qualified.
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

	/** "metric comparator limit" of a criterion row, with its profile when the campaign has several. */
	function criterionKey(row) {
		const comparator = row.comparator === 'atMost' ? '≤' : row.comparator === 'atLeast' ? '≥' : row.comparator;
		return `${row.profile} · ${row.metric} ${comparator} ${Number(row.limit).toLocaleString('en-US', { maximumFractionDigits: 6 })}`;
	}

	function worst(row) {
		const cell = (row.samples || []).find((s) => s.serial === row.worstSample);
		return cell && cell.measured !== undefined ? cell.measured : null;
	}

	/** The model's judged campaigns, oldest first, as rows of firmware x criteria. */
	async function history(model) {
		const section = document.getElementById('model-history');
		if (!model) {
			section.replaceChildren();
			return;
		}
		const result = await api.get('/api/v1/campaigns?' + new URLSearchParams({ model, size: 100 }));
		const judged = result.items.filter((c) => c.modelVerdict)
			.sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)));
		const keys = [...new Set(judged.flatMap((c) => (c.modelVerdict.criteria || []).map(criterionKey)))];
		const rows = judged.map((c) => {
			const byKey = new Map((c.modelVerdict.criteria || []).map((r) => [criterionKey(r), r]));
			return el('tr', { 'data-campaign': c.id, 'data-firmware': (c.model || {}).firmware || '' },
				el('td', { class: 'small' }, time(c.createdAt)),
				el('td', {}, (c.model || {}).firmware || '?'),
				el('td', {}, el('a', { href: '/ui/campaigns/' + encodeURIComponent(c.id) }, c.name || c.id)),
				el('td', { class: 'num' }, String((c.samples || []).length)),
				el('td', {}, el('span', { class: 'badge ' + c.modelVerdict.outcome }, c.modelVerdict.outcome)),
				...keys.map((key) => {
					const r = byKey.get(key);
					if (!r) {
						return el('td', { class: 'num muted' }, '—');
					}
					const value = worst(r);
					return el('td', { class: 'num', title: `worst sample ${r.worstSample || '?'}` },
						value === null ? '—' : num(value, 4), ' ', el('span', { class: 'badge ' + r.outcome }, r.outcome));
				}));
		});
		section.replaceChildren(
			el('h2', {}, `History of ${model}`),
			el('p', { class: 'muted small' }, judged.length
				? `${judged.length} judged campaign(s), oldest first; each criterion cell is the worst sample's figure and the model's outcome on it.`
				: 'No judged campaign of this model yet.'),
			judged.length ? el('div', { class: 'scroll' }, el('table', { id: 'history-table' },
				el('thead', {}, el('tr', {}, ['created', 'firmware', 'campaign', 'samples', 'model verdict', ...keys]
					.map((h) => el('th', {}, h)))),
				el('tbody', {}, ...rows))) : null);
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
		await history(params.get('model'));
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
			el('p', { class: 'muted', id: 'campaigns-count' }),
			el('section', { id: 'model-history' }));
		await load();
	});
})();
