/*
 * /ui/submit: a qualification from the catalog (GET /api/v1/profiles) on a drive from the
 * inventory (GET /api/v1/drives), with the datasheet inputs, a named criteria set
 * (GET /api/v1/criteria-sets) and the buyer's own criteria on the metrics the service judges
 * (GET /api/v1/metrics); the API's 400 answers are shown next to the field they name.
 */
'use strict';

(() => {
	const { api, el, duration } = DQ;
	// The wire names of docs/methodology.md, section 5, with their units: GET /api/v1/metrics.
	let metrics = [];

	function criterionRow(metric, comparator, limit) {
		const row = el('div', { class: 'criteria-row' },
			el('label', {}, 'Metric', el('select', { name: 'metric' }, metrics.map((m) => el('option', { value: m.name, selected: m.name === metric }, `${m.name} (${m.unit})`)))),
			el('label', {}, 'Comparator', el('select', { name: 'comparator' },
				['atLeast', 'atMost'].map((c) => el('option', { value: c, selected: c === comparator }, c === 'atLeast' ? '≥ at least' : '≤ at most')))),
			el('label', {}, 'Limit', el('input', { name: 'limit', type: 'number', step: 'any', value: limit == null ? '' : limit, required: true })),
			el('label', {}, 'Phase (optional)', el('input', { name: 'phase' })),
			el('button', { type: 'button', class: 'secondary', onclick: () => row.remove() }, 'Remove'));
		return row;
	}

	DQ.start(async () => {
		const [drives, profiles, sets, known] = await Promise.all([api.get('/api/v1/drives'),
			api.get('/api/v1/profiles'), api.get('/api/v1/criteria-sets'), api.get('/api/v1/metrics')]);
		metrics = known;
		const main = document.getElementById('main');
		const profileList = Array.isArray(profiles) ? profiles : (profiles.items || profiles.profiles || []);
		const driveSelect = el('select', { name: 'serial', id: 'submit-drive', required: true },
			drives.map((d) => el('option', { value: d.drive.serial, disabled: !d.runnerAlive },
				`${d.drive.model} — ${d.drive.serial} (${d.drive.runnerId}, ${d.drive.transportAddress}${d.drive.allowlisted ? '' : ', NOT allowlisted'}${d.runnerAlive ? '' : ', runner down'})`)));
		const profileSelect = el('select', { name: 'profile', id: 'submit-profile' },
			profileList.map((p) => el('option', { value: p.name }, `${p.name} — ${p.title}`)));
		const about = el('div', { class: 'muted small', id: 'profile-about' });
		const describe = () => {
			const p = profileList.find((x) => x.name === profileSelect.value);
			about.replaceChildren(...(p ? [p.description || '', el('br'),
				`Phases: ${(p.phases || []).map((x) => x.name).join(' → ')}`,
				p.expectedDurationS ? ` · about ${duration(p.expectedDurationS)} on a real drive` : '',
				p.reference ? el('div', {}, 'Reference: ' + p.reference) : ''] : []));
		};
		const setSelect = el('select', { name: 'criteriaSet', id: 'submit-criteriaSet' },
			el('option', { value: '' }, 'none — only the criteria below'),
			sets.map((set) => el('option', { value: set.name }, `${set.name} — ${set.title}`)));
		const setAbout = el('div', { class: 'muted small', id: 'criteria-set-about' });
		const describeSet = () => {
			const set = sets.find((x) => x.name === setSelect.value);
			setAbout.replaceChildren(...(set ? [set.description, el('br'),
				`Criteria: ${set.criteria.map((c) => `${c.metric} ${c.comparator === 'atMost' ? '≤' : '≥'} ${c.limit}${c.phase ? ' in ' + c.phase : ''}`).join('; ')}`,
				set.profiles ? ` · profiles: ${set.profiles.join(', ')}` : '', el('br'),
				`Source: ${set.source.document}, ${set.source.version}, ${set.source.section}`] : []));
		};
		setSelect.addEventListener('change', describeSet);
		const w = el('input', { name: 'rangeWritesRequired', id: 'submit-rangeWritesRequired', type: 'number', step: 'any', placeholder: '1.0' });
		const describeW = () => {
			const p = profileList.find((x) => x.name === profileSelect.value);
			w.placeholder = p && p.analysis && p.analysis.rangeWritesRequired != null ? String(p.analysis.rangeWritesRequired) : '1.0';
		};
		profileSelect.addEventListener('change', describe);
		profileSelect.addEventListener('change', describeW);
		const number = (name, label, placeholder) => el('label', {}, label, el('input', { name, id: 'submit-' + name, type: 'number', step: 'any', min: 0, placeholder: placeholder || '' }));
		const criteria = el('div', { id: 'criteria' },
			criterionRow('steadyStateIops', 'atLeast', 20000), criterionRow('consistencyRatio', 'atLeast', 0.9));
		const error = el('div', { class: 'error', id: 'submit-error' });
		const form = el('form', { class: 'card', id: 'submit-form' },
			el('h1', {}, 'Submit a qualification'),
			el('div', { class: 'grid2' }, el('label', {}, 'Drive (from the runners\' inventory)', driveSelect),
				el('label', {}, 'Test profile (catalog)', profileSelect)),
			about,
			el('h3', {}, 'Plan'),
			el('div', { class: 'filters' }, number('rangePercent', 'Range % of the LBAs (optional)', '100'),
				el('label', {}, 'W: range writes before steady state is judged (optional)', w),
				el('label', {}, 'Idempotency key (optional)', el('input', { name: 'idempotencyKey', id: 'submit-idempotency' })),
				el('label', {}, 'Priority', el('select', { name: 'priority', id: 'submit-priority' },
					el('option', { value: 'normal' }, 'normal'), el('option', { value: 'high' }, 'high'),
					el('option', { value: 'urgent' }, 'urgent (admins)'))),
				el('label', {}, 'Not before (optional)', el('input', { name: 'notBefore', id: 'submit-notBefore', type: 'datetime-local' })),
				el('label', {}, el('input', { type: 'checkbox', name: 'purgeFallback', id: 'submit-purgeFallback' }),
					' accept a TRIM (deallocate) where the drive cannot Format or Sanitize: not a SNIA PTS purge')),
			el('h3', {}, 'Datasheet (for endurance)'),
			el('div', { class: 'filters' }, number('rawNandBytes', 'Raw NAND bytes'), number('ratedPeCycles', 'Rated P/E cycles'),
				number('warrantyYears', 'Warranty years'), number('ratedTbwBytes', 'Rated TBW bytes')),
			el('h3', {}, 'Criteria'),
			el('div', { class: 'filters' }, el('label', {}, 'Criteria set (catalog)', setSelect)), setAbout,
			criteria,
			el('button', { type: 'button', class: 'secondary', id: 'add-criterion', onclick: () => criteria.append(criterionRow('waf', 'atMost', 3.5)) }, 'Add a criterion'),
			el('p'), el('button', { type: 'submit', id: 'submit-button' }, 'Submit'), error);
		form.addEventListener('submit', async (event) => {
			event.preventDefault();
			error.textContent = '';
			const value = (name) => form.elements[name].value;
			const numeric = (name) => (value(name) === '' ? undefined : Number(value(name)));
			const spec = { rawNandBytes: numeric('rawNandBytes'), ratedPeCycles: numeric('ratedPeCycles'), warrantyYears: numeric('warrantyYears'), ratedTbwBytes: numeric('ratedTbwBytes') };
			const body = {
				drive: { serial: driveSelect.value },
				plan: { profile: profileSelect.value, rangePercent: numeric('rangePercent'),
					purgeFallback: form.elements.purgeFallback.checked ? 'deallocate' : undefined,
					analysis: numeric('rangeWritesRequired') === undefined ? undefined : { rangeWritesRequired: numeric('rangeWritesRequired') } },
				criteriaSet: setSelect.value || undefined,
				spec: Object.values(spec).some((v) => v !== undefined) ? spec : undefined,
				priority: value('priority'),
				notBefore: value('notBefore') ? new Date(value('notBefore')).toISOString() : undefined,
				criteria: [...criteria.querySelectorAll('.criteria-row')].map((r) => ({
					metric: r.querySelector('[name=metric]').value, comparator: r.querySelector('[name=comparator]').value,
					limit: Number(r.querySelector('[name=limit]').value), phase: r.querySelector('[name=phase]').value || undefined,
				})),
			};
			const headers = value('idempotencyKey') ? { 'Idempotency-Key': value('idempotencyKey') } : {};
			const response = await DQ.api.raw('POST', '/api/v1/qualifications', body, undefined, headers);
			const answer = await response.json().catch(() => null);
			if (response.ok) {
				location.href = '/ui/jobs/' + encodeURIComponent(answer.id);
				return;
			}
			const fields = (answer && answer.errors) || [];
			const missing = (answer && answer.missingCapabilities) || [];
			error.textContent = `${response.status} ${(answer && (answer.detail || answer.title)) || ''}` + fields.map((f) => `\n${f.field}: ${f.message}`).join('')
				+ missing.map((m) => `\n${m.capability} (${m.neededBy}): ${m.missing}; ${m.remedy}`).join('');
		});
		main.replaceChildren(form);
		describe();
		describeW();
		describeSet();
	});
})();
