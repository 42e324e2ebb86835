/*
 * /ui/: the jobs list with state, priority, position in its drive's queue, progress and ETA (with
 * how sure it is: measured, from history, or a constant; its interval; a queued job's wait),
 * filtered like GET /api/v1/qualifications;
 * refreshes while a listed job is active; ticks jobs to open them side by side in the compare view.
 */
'use strict';

(() => {
	const { api, el, num, duration, etaSureness, time } = DQ;
	const STATES = ['', 'QUEUED', 'DISPATCHED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'INTERRUPTED'];
	const ACTIVE = ['QUEUED', 'DISPATCHED', 'RUNNING'];
	const picked = new Set();
	let page = 0;
	let timer = null;

	function filterForm() {
		const query = new URLSearchParams(location.search);
		const input = (name, label, type) => el('label', {}, label, el('input', { name, id: 'filter-' + name, type: type || 'text', value: query.get(name) || '' }));
		return el('form', { class: 'filters card', id: 'filters' },
			el('label', {}, 'State', el('select', { name: 'state', id: 'filter-state' },
				STATES.map((s) => el('option', { value: s, selected: s === (query.get('state') || '') }, s || 'any')))),
			input('driveModel', 'Drive model'),
			input('serial', 'Serial'),
			input('submitter', 'Submitter'),
			input('from', 'Submitted from', 'datetime-local'),
			input('to', 'to', 'datetime-local'),
			el('button', { type: 'submit' }, 'Filter'),
			el('button', { type: 'button', class: 'secondary', id: 'compare-picked', disabled: true,
				onclick: () => { location.href = '/ui/compare?jobs=' + [...picked].map(encodeURIComponent).join(','); } }, 'Compare selected'));
	}

	function progress(job) {
		const pct = job.progressPercent || 0;
		return el('div', { class: 'progress', title: `${num(pct, 1)} %` },
			el('div', { class: 'bar', style: `width:${Math.min(100, pct)}%` }),
			el('div', { class: 'label' }, `${num(pct, 1)} %`));
	}

	function row(job) {
		const d = job.drive || {};
		const box = el('input', { type: 'checkbox', class: 'pick', value: job.id, checked: picked.has(job.id), 'aria-label': 'compare ' + job.id });
		box.addEventListener('change', () => {
			box.checked ? picked.add(job.id) : picked.delete(job.id);
			document.getElementById('compare-picked').disabled = picked.size < 2;
		});
		return el('tr', { 'data-job': job.id, 'data-state': job.state },
			el('td', {}, box),
			el('td', {}, el('a', { href: '/ui/jobs/' + encodeURIComponent(job.id) }, job.id)),
			el('td', {}, d.model || '—', el('div', { class: 'muted small' }, `${d.serial || ''} · fw ${d.firmware || '?'}`)),
			el('td', {}, job.profile || 'explicit phases'),
			el('td', {}, el('span', { class: 'badge ' + job.state }, job.state),
				job.currentPhase && ACTIVE.includes(job.state) ? el('div', { class: 'muted small' }, job.currentPhase.name) : null),
			el('td', { class: 'priority' }, job.priority || 'normal',
				job.notBefore && job.state === 'QUEUED' ? el('div', { class: 'muted small' }, 'not before ' + time(job.notBefore)) : null),
			el('td', { class: 'num queue-position' }, job.queuePosition != null ? '#' + job.queuePosition : '—'),
			el('td', {}, progress(job)),
			el('td', { class: 'num eta', 'data-basis': (job.eta && job.eta.basis) || '' },
				ACTIVE.includes(job.state) && job.etaS != null ? duration(job.etaS) : '—',
				ACTIVE.includes(job.state) && job.eta ? el('div', { class: 'muted small eta-sureness' }, etaSureness(job.eta)) : null),
			el('td', {}, job.verdict ? el('span', { class: 'badge ' + job.verdict }, job.verdict) : '—'),
			el('td', { class: 'small' }, time(job.queuedAt)),
			el('td', {}, job.submitter || ''));
	}

	async function load() {
		clearTimeout(timer);
		const params = new URLSearchParams();
		for (const field of document.getElementById('filters').elements) {
			if (field.name && field.value) {
				params.set(field.name, field.type === 'datetime-local' ? new Date(field.value).toISOString() : field.value);
			}
		}
		params.set('page', page);
		params.set('size', 25);
		const result = await api.get('/api/v1/qualifications?' + params);
		const body = document.querySelector('#jobs-table tbody');
		body.replaceChildren(...result.items.map(row));
		const pages = Math.max(1, Math.ceil(result.total / result.size));
		document.getElementById('jobs-count').textContent = `${result.total} job(s); page ${page + 1} of ${pages}`;
		document.getElementById('prev').disabled = page === 0;
		document.getElementById('next').disabled = page + 1 >= pages;
		document.getElementById('jobs-table').dataset.loaded = String(result.items.length);
		if (result.items.some((j) => ACTIVE.includes(j.state) || (j.state === 'COMPLETED' && !j.verdict))) {
			timer = setTimeout(() => load().catch(DQ.fail), 3000);
		}
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
			el('div', { class: 'toolbar' }, el('h1', {}, 'Qualification jobs'), el('span', { class: 'spacer' }),
				el('a', { class: 'button', href: '/ui/submit', id: 'new-job' }, 'Submit a qualification')),
			form,
			el('table', { id: 'jobs-table' },
				el('thead', {}, el('tr', {}, ['', 'job', 'drive', 'profile', 'state', 'priority', 'queue', 'progress', 'ETA', 'verdict', 'submitted', 'by'].map((h) => el('th', {}, h)))),
				el('tbody')),
			el('div', { class: 'toolbar' },
				el('button', { class: 'secondary', id: 'prev', onclick: () => { page--; load().catch(DQ.fail); } }, '← newer'),
				el('span', { class: 'muted', id: 'jobs-count' }),
				el('button', { class: 'secondary', id: 'next', onclick: () => { page++; load().catch(DQ.fail); } }, 'older →')));
		await load();
	});
})();
