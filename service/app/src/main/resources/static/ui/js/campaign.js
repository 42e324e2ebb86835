/*
 * /ui/campaigns/{id}: one campaign — its samples x profiles grid with each job's state, progress
 * and verdict (live while it runs: the page re-reads the campaign every few seconds), the jobs per
 * state, the model verdict with its reasons, per criterion every sample, the worst sample and the
 * spread (min, max, CV), the sample-to-sample consistency criteria, and exports (JSON, CSV).
 */
'use strict';

(() => {
	const { api, el, num, duration, time } = DQ;
	const ACTIVE_JOB = ['QUEUED', 'DISPATCHED', 'RUNNING'];
	let timer = null;

	function campaignId() {
		return decodeURIComponent(location.pathname.split('/').filter(Boolean).pop());
	}

	/** The vendor and the model number, without the vendor twice (many model numbers start with it). */
	function modelName(m) {
		return m.vendor && !(m.model || '').startsWith(m.vendor) ? `${m.vendor} ${m.model}` : (m.model || '');
	}

	function value(v) {
		if (v == null) {
			return '—';
		}
		return num(v, Math.abs(v) < 10 ? 4 : 1);
	}

	function header(c) {
		const m = c.model || {};
		return el('section', { id: 'campaign-head' },
			el('div', { class: 'toolbar' },
				el('h1', {}, c.name || c.id), el('span', { class: 'spacer' }),
				el('button', { class: 'secondary', id: 'export-json', onclick: () => DQ.download(`/api/v1/campaigns/${encodeURIComponent(c.id)}/results.json`, c.id + '-results.json') }, 'Export JSON'),
				el('button', { class: 'secondary', id: 'export-csv', onclick: () => DQ.download(`/api/v1/campaigns/${encodeURIComponent(c.id)}/results.csv`, c.id + '-results.csv') }, 'Export CSV'),
				el('button', { class: 'secondary', onclick: () => window.print() }, 'Print / PDF'),
				!c.state.match(/COMPLETED|CANCELLED/) && !c.cancelRequested
					? el('button', { id: 'cancel-campaign', onclick: () => cancel(c) }, 'Cancel campaign') : null),
			el('table', { class: 'kv card' },
				el('tr', {}, el('th', {}, 'model'), el('td', { id: 'campaign-model' }, `${modelName(m)} · firmware ${m.firmware}`)),
				el('tr', {}, el('th', {}, 'state'), el('td', {}, el('span', { class: 'badge ' + c.state, id: 'campaign-state' }, c.state),
					c.cancelRequested && c.state !== 'CANCELLED' ? el('span', { class: 'muted small' }, ' cancel requested') : null)),
				el('tr', {}, el('th', {}, 'jobs per state'), el('td', { id: 'campaign-counts' }, el('div', { class: 'counts' },
					...Object.entries(c.counts || {}).filter(([, n]) => n > 0).map(([s, n]) => el('span', { class: 'badge ' + s, 'data-state': s }, `${n} ${s}`))))),
				el('tr', {}, el('th', {}, 'progress'), el('td', {}, el('div', { class: 'progress', id: 'campaign-progress' },
					el('div', { class: 'bar', style: `width:${Math.min(100, c.progressPercent || 0)}%` }),
					el('div', { class: 'label' }, `${num(c.progressPercent || 0, 1)} % of ${c.jobs} jobs`)),
					!c.state.match(/COMPLETED|CANCELLED/) ? el('div', { class: 'muted small' }, 'ETA ' + duration(c.etaS) + ' (the plans\' real time; simulated drives run faster)') : null)),
				el('tr', {}, el('th', {}, 'criteria'), el('td', { class: 'small' },
					[c.criteriaSet ? `set ${c.criteriaSet}` : null,
						...(c.criteria || []).map((k) => `${k.metric} ${k.comparator === 'atMost' ? '≤' : '≥'} ${k.limit}${k.phase ? ' in ' + k.phase : ''}`),
						...(c.spreadCriteria || []).map((s) => `${s.metric} CV across samples ≤ ${s.maxCvPercent} %${s.profile ? ' (' + s.profile + ')' : ''}`)]
						.filter(Boolean).join(' · ') || 'none')),
				el('tr', {}, el('th', {}, 'created'), el('td', {}, `${time(c.createdAt)} by ${c.submitter}`,
					c.endedAt ? ` · ended ${time(c.endedAt)}` : ''))));
	}

	function grid(c) {
		const bySample = new Map();
		for (const cell of c.grid) {
			if (!bySample.has(cell.serial)) {
				bySample.set(cell.serial, {});
			}
			bySample.get(cell.serial)[cell.profile] = cell;
		}
		const sampleOutcome = new Map(((c.modelVerdict && c.modelVerdict.samples) || []).map((s) => [s.serial, s.outcome]));
		const rerunnable = new Set((c.needsRerun || []).map((cell) => cell.serial + '\u0000' + cell.profile));
		return el('section', { id: 'grid-section' }, el('h2', {}, 'Samples × profiles'),
			el('table', { id: 'campaign-grid' },
				el('thead', {}, el('tr', {}, el('th', {}, 'sample'), ...c.profiles.map((p) => el('th', {}, p)), el('th', {}, 'sample verdict'))),
				el('tbody', {}, ...[...bySample.entries()].map(([serial, cells]) => el('tr', { 'data-serial': serial },
					el('th', {}, serial),
					...c.profiles.map((profile) => {
						const cell = cells[profile] || {};
						const active = ACTIVE_JOB.includes(cell.state);
						return el('td', { class: 'cell', 'data-profile': profile, 'data-state': cell.state || '' },
							el('span', { class: 'badge ' + (cell.verdict || cell.state) }, cell.verdict || cell.state || '—'),
							cell.verdict ? el('span', { class: 'muted small' }, ' ' + cell.state) : null,
							el('div', { class: 'small' }, el('a', { href: '/ui/jobs/' + encodeURIComponent(cell.jobId) }, cell.jobId)),
							active ? el('div', { class: 'progress' }, el('div', { class: 'bar', style: `width:${Math.min(100, cell.progressPercent || 0)}%` }),
								el('div', { class: 'label' }, `${num(cell.progressPercent || 0, 1)} %`)) : null,
							cell.failureReason ? el('div', { class: 'error small' }, cell.failureReason) : null,
							cell.previousJobIds ? el('div', { class: 'muted small' }, 'rerun of ' + cell.previousJobIds.join(', ')) : null,
							rerunnable.has(serial + '\u0000' + profile) && !c.cancelRequested
								? el('button', { class: 'secondary rerun', onclick: () => rerun(c, serial, profile) }, 'Rerun') : null);
					}),
					el('td', {}, sampleOutcome.has(serial) ? el('span', { class: 'badge ' + sampleOutcome.get(serial) }, sampleOutcome.get(serial)) : '—'))))));
	}

	function verdict(c) {
		const v = c.modelVerdict;
		const section = el('section', { id: 'model-verdict-section' }, el('h2', {}, 'Model verdict'));
		if (!v) {
			section.append(el('p', { class: 'muted', id: 'model-verdict' }, c.state === 'CANCELLED' ? 'No verdict: the campaign was cancelled.'
				: 'No verdict yet: the model is judged once every job has ended and been analysed.'));
			return section;
		}
		section.append(el('p', { class: 'verdict ' + v.outcome, id: 'model-verdict' }, v.outcome,
			el('span', { class: 'muted small' }, ` · ${c.model.model} firmware ${c.model.firmware}, ${c.samples.length} samples, judged ${time(v.judgedAt)}`)));
		if (v.reasons && v.reasons.length) {
			section.append(el('ul', { class: 'reasons', id: 'model-reasons' }, ...v.reasons.map((r) => el('li', {}, r))));
		}
		const serials = c.samples.map((s) => s.serial);
		section.append(el('h3', {}, 'Per criterion: every sample, the worst, the spread'),
			el('div', { class: 'scroll' }, el('table', { id: 'model-criteria' },
				el('thead', {}, el('tr', {}, el('th', {}, 'profile'), el('th', {}, 'criterion'), el('th', {}, 'outcome'),
					el('th', {}, 'worst'), el('th', { class: 'num' }, 'min'), el('th', { class: 'num' }, 'max'), el('th', { class: 'num' }, 'CV %'),
					...serials.map((s) => el('th', { class: 'num' }, s)))),
				el('tbody', {}, ...v.criteria.map((row) => el('tr', { 'data-metric': row.metric, 'data-profile': row.profile },
					el('td', {}, row.profile),
					el('td', {}, `${row.metric} ${row.comparator === 'atMost' ? '≤' : '≥'} ${num(row.limit, 4)}${row.phase ? ' in ' + row.phase : ''}`),
					el('td', {}, el('span', { class: 'badge ' + row.outcome }, row.outcome)),
					el('td', {}, row.worstSample || '—'),
					el('td', { class: 'num' }, row.spread ? value(row.spread.min) : '—'),
					el('td', { class: 'num' }, row.spread ? value(row.spread.max) : '—'),
					el('td', { class: 'num' }, row.spread && row.spread.cvPercent != null ? num(row.spread.cvPercent, 2) : '—'),
					...serials.map((serial) => {
						const cell = row.samples.find((s) => s.serial === serial) || {};
						return el('td', { class: `num ${cell.outcome || ''}${row.worstSample === serial ? ' worst' : ''}`, title: cell.explanation || '' },
							cell.measured != null ? value(cell.measured) : (cell.outcome || '—'));
					})))))));
		if (v.spreads && v.spreads.length) {
			section.append(el('h3', {}, 'Sample-to-sample consistency'),
				el('div', { class: 'scroll' }, el('table', { id: 'model-spreads' },
					el('thead', {}, el('tr', {}, ['profile', 'metric', ...serials, 'CV %', 'limit', 'outcome'].map((h) => el('th', {}, h)))),
					el('tbody', {}, ...v.spreads.map((s) => el('tr', { 'data-metric': s.metric },
						el('td', {}, s.profile || '—'),
						el('td', {}, s.metric + (s.phase ? ' in ' + s.phase : '')),
						...serials.map((serial) => {
							const found = (s.values || []).find((x) => x.serial === serial);
							return el('td', { class: 'num' }, found && found.value != null ? value(found.value) : '—');
						}),
						el('td', { class: 'num' }, s.spread && s.spread.cvPercent != null ? num(s.spread.cvPercent, 2) : '—'),
						el('td', { class: 'num' }, '≤ ' + num(s.maxCvPercent, 2)),
						el('td', { title: s.explanation }, el('span', { class: 'badge ' + s.outcome }, s.outcome))))))));
		}
		return section;
	}

	/** This campaign against a baseline campaign on one profile: the difference with its interval. */
	function comparison(c) {
		const out = el('div', { id: 'comparison-result' });
		const baseline = el('input', { id: 'compare-baseline', placeholder: 'c-… (e.g. the previous firmware\'s campaign)', size: 36 });
		const profile = el('select', { id: 'compare-profile' }, ...c.profiles.map((p) => el('option', { value: p }, p)));
		const margin = el('input', { id: 'compare-margin', type: 'number', value: 5, min: 0, max: 100, step: 0.5, style: 'width:5rem' });
		const form = el('form', { class: 'filters card no-print', id: 'compare-form' },
			el('label', {}, 'Baseline campaign', baseline), el('label', {}, 'Profile', profile),
			el('label', {}, 'No regression beyond (%)', margin), el('button', { type: 'submit' }, 'Compare'));
		form.addEventListener('submit', async (event) => {
			event.preventDefault();
			out.replaceChildren();
			try {
				const params = new URLSearchParams({ baseline: baseline.value.trim(), profile: profile.value, marginPercent: margin.value });
				const r = await api.get(`/api/v1/campaigns/${encodeURIComponent(c.id)}/compare?${params}`);
				const d = r.difference;
				out.append(el('table', { class: 'kv card', id: 'comparison-table' },
					el('tr', {}, el('th', {}, r.figure), el('td', {}, `${num(d.baselineMean, 1)} (baseline ${r.baseline}) → ${num(d.candidateMean, 1)} (this campaign)`)),
					el('tr', {}, el('th', {}, 'difference'), el('td', { id: 'comparison-difference' },
						`${d.differencePercent >= 0 ? '+' : ''}${num(d.differencePercent, 2)} %, ${num(100 * d.confidence, 0)} % interval ${num(d.lowerPercent, 2)} to ${num(d.upperPercent, 2)} %`)),
					el('tr', {}, el('th', {}, `no regression beyond ${r.marginPercent} %`), el('td', {}, el('span', { class: 'badge ' + r.outcome }, r.outcome))),
					el('tr', {}, el('th', {}, 'samples'), el('td', { class: 'small' }, `baseline ${r.samplesUsed.baseline.length}, this campaign ${r.samplesUsed.candidate.length}`
						+ (d.roundsOnly ? ' · a campaign with one sample: its rounds alone set the interval, which understates a model\'s uncertainty' : '')
						+ (r.left.length ? ` · left out: ${r.left.join('; ')}` : ''))),
					el('tr', {}, el('th', {}, 'method'), el('td', { class: 'small muted' }, r.method))));
			}
			catch (e) {
				out.append(el('p', { class: 'error' }, String(e.message || e)));
			}
		});
		return el('section', { id: 'comparison-section' }, el('h2', {}, 'Regression against another campaign'), form, out);
	}

	async function cancel(c) {
		if (!confirm(`Cancel campaign ${c.name || c.id} and its ${c.jobs} jobs?`)) {
			return;
		}
		await api.post(`/api/v1/campaigns/${encodeURIComponent(c.id)}/cancel`);
		await load();
	}

	async function rerun(c, serial, profile) {
		await api.post(`/api/v1/campaigns/${encodeURIComponent(c.id)}/rerun`, { serial, profile });
		await load();
	}

	async function load() {
		clearTimeout(timer);
		const c = await api.get('/api/v1/campaigns/' + encodeURIComponent(campaignId()));
		document.title = `drivequal — campaign ${c.name || c.id}`;
		const main = document.getElementById('main');
		const keep = document.getElementById('comparison-section');
		main.replaceChildren(header(c), grid(c), verdict(c), keep || comparison(c));
		main.dataset.state = c.state;
		if (!['COMPLETED', 'CANCELLED'].includes(c.state)) {
			timer = setTimeout(() => load().catch(DQ.fail), 3000);
		}
	}

	DQ.start(load);
})();
