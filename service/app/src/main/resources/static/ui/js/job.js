/*
 * /ui/jobs/{id}: while the job runs, its progress and a per-second IOPS scatter fed by the
 * sample stream; once it is analysed (or ended without analysis), the report with its exports.
 */
'use strict';

(() => {
	const { api, el, num, duration } = DQ;
	const jobId = DQ.embedded ? DQ.embedded.job.id : decodeURIComponent(location.pathname.split('/').filter(Boolean).pop());

	async function loadReport(job, phaseIndex) {
		const profile = job.profile ? await api.get('/api/v1/profiles/' + encodeURIComponent(job.profile)).catch(() => null) : null;
		const phase = Report.chartPhase(job, profile, phaseIndex);
		const samples = {};
		// The charts' phase, and every workload phase for the SNIA pages (js/snia.js).
		const wanted = new Set([...(phase ? [phase.phaseIndex] : []), ...Snia.phasesNeeded(job)]);
		for (const index of wanted) {
			samples[index] = await DQ.phaseSamples(job.id, index);
		}
		const health = await api.get(`/api/v1/qualifications/${encodeURIComponent(job.id)}/health`).catch(() => []);
		const streams = (job.plan || []).some((p) => p.streams)
			? await api.get(`/api/v1/qualifications/${encodeURIComponent(job.id)}/streams`) : null;
		return { job, profile, samples, phaseIndex: phase ? phase.phaseIndex : null, health, streams };
	}

	function toolbar(data) {
		const id = encodeURIComponent(data.job.id);
		const base = `/api/v1/qualifications/${id}`;
		const phaseChoices = Report.phasesOf(data.job).filter((p) => p.samples > 0);
		const select = el('select', { id: 'phase-select', 'aria-label': 'phase' },
			phaseChoices.map((p) => el('option', { value: p.phaseIndex, selected: p.phaseIndex === data.phaseIndex }, `${p.phaseIndex}: ${p.phaseName}`)));
		select.addEventListener('change', () => showReport(data.job, Number(select.value)).catch(DQ.fail));
		const guard = (f) => () => f().catch(DQ.fail);
		return el('div', { class: 'toolbar no-print' },
			el('label', {}, 'Charts of phase', select),
			el('button', { id: 'print', onclick: () => window.print() }, 'Print / PDF'),
			el('button', { id: 'export-html', class: 'secondary', onclick: guard(() => Export.selfContained(data)) }, 'Download self-contained HTML'),
			el('button', { id: 'export-samples-csv', class: 'secondary', onclick: guard(() => DQ.download(`${base}/samples.csv`, `${data.job.id}-samples.csv`)) }, 'Samples CSV'),
			el('button', { id: 'export-samples-json', class: 'secondary', onclick: guard(() => DQ.download(`${base}/samples.json`, `${data.job.id}-samples.json`)) }, 'Samples JSON'),
			el('button', { id: 'export-results-json', class: 'secondary', onclick: guard(() => DQ.download(`${base}/results.json`, `${data.job.id}-results.json`)) }, 'Results JSON'),
			el('button', { id: 'export-results-csv', class: 'secondary', onclick: guard(() => DQ.download(`${base}/results.csv`, `${data.job.id}-results.csv`)) }, 'Results CSV'),
			el('a', { class: 'button secondary', href: `/ui/compare?jobs=${id}` }, 'Compare with…'));
	}

	async function showReport(job, phaseIndex) {
		const data = await loadReport(job, phaseIndex);
		render(data);
	}

	function render(data) {
		const main = document.getElementById('main');
		const report = el('div', { id: 'report' });
		main.replaceChildren(DQ.embedded ? el('div') : toolbar(data), report);
		document.title = `drivequal — report ${data.job.id}`;
		Report.render(report, data);
		report.dataset.ready = 'true';
	}

	/**
	 * The live view: progress, the ETA with how sure it is and each phase's part of it, and
	 * the current phase's seconds as they are indexed.
	 */
	function live(job) {
		const main = document.getElementById('main');
		const progress = el('div', { class: 'progress', id: 'live-progress' }, el('div', { class: 'bar' }), el('div', { class: 'label' }));
		const status = el('p', { id: 'live-status' });
		const chart = el('div', { id: 'chart-live' });
		const counter = el('p', { class: 'muted small', id: 'live-count' });
		const phases = el('table', { id: 'eta-phases', class: 'small' });
		main.replaceChildren(
			el('h1', {}, `Job ${job.id} — ${job.drive.model || job.drive.serial}`),
			el('div', { class: 'card' }, status, progress, counter, phases),
			chart);
		const byPhase = new Map();
		let phaseShown = null;
		let received = 0;
		let plot = null;
		let redraw = null;

		function draw() {
			redraw = null;
			const points = byPhase.get(phaseShown) || [];
			const name = points.length ? points[0].phaseName : '';
			const t = points.map((p) => p.t);
			const iops = points.map((p) => p.readIops + p.writeIops);
			if (plot) {
				plot.destroy();
			}
			plot = Charts.scatter(chart, {
				title: `Live: IOPS each second of phase ${phaseShown} ${name} (log scale)`, log: true,
				series: [{ label: job.drive.model || job.drive.serial, t, values: iops }],
				caption: 'Updates as the seconds are indexed.' });
			chart.dataset.phase = String(phaseShown);
			counter.textContent = `${received} seconds received over the stream; last: t = ${t.length ? t[t.length - 1] : '—'} s, ${iops.length ? num(iops[iops.length - 1]) : '—'} IOPS`;
		}

		function update(j) {
			const pct = j.progressPercent || 0;
			progress.querySelector('.bar').style.width = pct + '%';
			progress.querySelector('.label').textContent = `${num(pct, 1)} %`;
			status.replaceChildren(el('span', { class: 'badge ' + j.state, id: 'job-state' }, j.state), ' ',
				j.currentPhase ? `phase ${j.currentPhase.index} ${j.currentPhase.name}` : '',
				j.etaS != null ? ` — ETA ${duration(j.etaS)}` : '',
				j.eta ? el('span', { class: 'muted', id: 'eta-sureness', 'data-basis': j.eta.basis }, ` (${DQ.etaSureness(j.eta)})`) : '',
				j.queuePosition ? ` — position ${j.queuePosition} in the drive's queue` : '',
				j.state === 'COMPLETED' && !j.verdict ? ' — analysing…' : '');
			// Each phase not done yet: its time left and what that rests on.
			const rows = (j.eta && j.eta.phases) || [];
			phases.replaceChildren(...(rows.length ? [el('thead', {}, el('tr', {}, ['phase', 'time left', 'range', 'rests on', 'how'].map((h) => el('th', {}, h))))] : []),
				el('tbody', {}, rows.map((p) => el('tr', { 'data-phase': p.index, class: p.running ? 'running' : '' },
					el('td', {}, `${p.index} ${p.name}${p.running ? ' (running)' : ''}`),
					el('td', { class: 'num' }, duration(p.remainingS)),
					el('td', { class: 'num' }, p.lowS != null && p.highS != null ? `${duration(p.lowS)} – ${duration(p.highS)}` : '—'),
					el('td', {}, p.label),
					el('td', { class: 'muted' }, p.detail || '')))));
		}

		update(job);
		const stream = DQ.stream(`/api/v1/qualifications/${encodeURIComponent(job.id)}/samples/stream`, (name, data) => {
			if (name !== 'sample') {
				return;
			}
			const point = JSON.parse(data);
			received++;
			if (!byPhase.has(point.phaseIndex)) {
				byPhase.set(point.phaseIndex, []);
			}
			byPhase.get(point.phaseIndex).push(point);
			phaseShown = phaseShown == null || point.phaseIndex > phaseShown ? point.phaseIndex : phaseShown;
			if (!redraw) {
				redraw = setTimeout(draw, 250);
			}
		});
		const timer = setInterval(async () => {
			try {
				const j = await api.get('/api/v1/qualifications/' + encodeURIComponent(job.id));
				update(j);
				if (Report.FINAL.includes(j.state) && (j.verdict || j.state !== 'COMPLETED')) {
					clearInterval(timer);
					stream.abort();
					await showReport(j);
				}
			}
			catch (e) {
				DQ.fail(e);
			}
		}, 2000);
	}

	DQ.start(async () => {
		if (DQ.embedded) {
			render(DQ.embedded);
			return;
		}
		const job = await api.get('/api/v1/qualifications/' + encodeURIComponent(jobId));
		if (Report.FINAL.includes(job.state) && (job.verdict || job.state !== 'COMPLETED')) {
			await showReport(job);
		}
		else {
			live(job);
		}
	});
})();
