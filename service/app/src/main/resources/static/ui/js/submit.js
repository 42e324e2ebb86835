/*
 * /ui/submit: a qualification from the catalog (GET /api/v1/profiles) on a drive from the
 * inventory (GET /api/v1/drives), with the datasheet inputs and the buyer's criteria on the metrics
 * the service judges (GET /api/v1/metrics); the API's 400 answers are shown next to the field they
 * name.
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
		const [drives, profiles, known] = await Promise.all([api.get('/api/v1/drives'), api.get('/api/v1/profiles'),
			api.get('/api/v1/metrics')]);
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
		profileSelect.addEventListener('change', describe);
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
				el('label', {}, 'Idempotency key (optional)', el('input', { name: 'idempotencyKey', id: 'submit-idempotency' }))),
			el('h3', {}, 'Datasheet (for endurance)'),
			el('div', { class: 'filters' }, number('rawNandBytes', 'Raw NAND bytes'), number('ratedPeCycles', 'Rated P/E cycles'),
				number('warrantyYears', 'Warranty years'), number('ratedTbwBytes', 'Rated TBW bytes')),
			el('h3', {}, 'Criteria'), criteria,
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
				plan: { profile: profileSelect.value, rangePercent: numeric('rangePercent') },
				spec: Object.values(spec).some((v) => v !== undefined) ? spec : undefined,
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
			error.textContent = `${response.status} ${(answer && (answer.detail || answer.title)) || ''}` + fields.map((f) => `\n${f.field}: ${f.message}`).join('');
		});
		main.replaceChildren(form);
		describe();
	});
})();
