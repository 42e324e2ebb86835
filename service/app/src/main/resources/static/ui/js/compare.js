/*
 * /ui/compare?jobs=a,b[,...]: several jobs (drives, firmware, spare area) overlaid on the report's
 * three IOPS charts and per-second p99 latency, with their tables side by side; a button per job
 * shows or hides it everywhere, like the reviews' buttons that switch between drives.
 */
'use strict';

(() => {
	const { api, el, num, bytes, measure } = DQ;

	function label(entry) {
		const j = entry.job;
		const range = j.plan && j.plan.find((p) => p.name === (entry.phase && entry.phase.phaseName));
		return `${j.drive.model || j.drive.serial} fw ${j.drive.firmware || '?'} · ${j.profile || 'phases'}${range && range.rangePercent && range.rangePercent < 100 ? ` (${range.rangePercent} % of LBAs)` : ''}`;
	}

	async function load(id) {
		const job = await api.get('/api/v1/qualifications/' + encodeURIComponent(id));
		const profile = job.profile ? await api.get('/api/v1/profiles/' + encodeURIComponent(job.profile)).catch(() => null) : null;
		const phase = Report.chartPhase(job, profile);
		const samples = phase ? await DQ.phaseSamples(job.id, phase.phaseIndex) : [];
		return { job, profile, phase, samples };
	}

	async function picker(main) {
		const result = await api.get('/api/v1/qualifications?state=COMPLETED&size=50');
		const form = el('form', { class: 'card', id: 'compare-picker' }, el('h1', {}, 'Compare jobs'),
			el('p', { class: 'muted' }, 'Tick two or more finished jobs.'),
			el('table', {}, el('tbody', {}, result.items.map((j) => el('tr', {},
				el('td', {}, el('input', { type: 'checkbox', name: 'job', value: j.id })),
				el('td', {}, j.id), el('td', {}, `${j.drive.model} (${j.drive.serial})`), el('td', {}, j.profile || ''),
				el('td', {}, j.verdict ? el('span', { class: 'badge ' + j.verdict }, j.verdict) : '—'))))),
			el('p'), el('button', { type: 'submit' }, 'Compare'));
		form.addEventListener('submit', (event) => {
			event.preventDefault();
			const ids = [...form.querySelectorAll('input[name=job]:checked')].map((b) => encodeURIComponent(b.value));
			location.href = '/ui/compare?jobs=' + ids.join(',');
		});
		main.replaceChildren(form);
	}

	function row(name, entries, f, attrs) {
		return { attrs: attrs || {}, cells: [name, ...entries.map((e) => {
			try {
				return f(e);
			}
			catch (x) {
				return '—';
			}
		})] };
	}

	function tables(entries) {
		const head = ['', ...entries.map((e, i) => el('span', { style: `color:${Charts.PALETTE[i % Charts.PALETTE.length]}` }, label(e)))];
		const iops = (e) => (e.phase && e.phase.iops) || {};
		const win = (e) => Report.steadyWindow(iops(e).steadyState);
		const ss = (e) => iops(e).steadyState;
		const q = (e) => (e.phase && e.phase.writeLatency) || (e.phase && e.phase.readLatency);
		const rows = [
			row('job', entries, (e) => el('a', { href: '/ui/jobs/' + encodeURIComponent(e.job.id) }, e.job.id)),
			row('verdict', entries, (e) => (e.job.verdict ? el('span', { class: 'badge ' + e.job.verdict }, e.job.verdict) : '—'), { 'data-figure': 'verdict' }),
			row('phase charted', entries, (e) => (e.phase ? e.phase.phaseName : '—')),
			row('steady state reached', entries, (e) => (ss(e) ? (ss(e).reached ? `at round ${ss(e).window.lastRoundIndex}` : 'no') : '—')),
			row('steady at end', entries, (e) => (ss(e) && ss(e).end ? (ss(e).end.holds ? 'yes' : 'no') : '—')),
			row('steady-state window', entries, (e) => (win(e) ? `rounds ${win(e).firstRoundIndex}–${win(e).lastRoundIndex} (${win(e).windowStartS}–${win(e).windowEndS} s)` : '—')),
			row('steady-state IOPS', entries, (e) => (win(e) ? num(win(e).avgIops, 1) : '—'), { 'data-figure': 'steadyStateIops' }),
			row('range / slope excursion', entries, (e) => (win(e) ? `${num(win(e).rangePercent, 2)} % / ${num(win(e).slopeExcursionPercent, 2)} %` : '—')),
			row('consistency (steady-state window)', entries, (e) => (iops(e).steadyStateConsistency ? num(iops(e).steadyStateConsistency.ratio, 4) : '—'), { 'data-figure': 'consistencyRatio' }),
			row('consistency (fixed window)', entries, (e) => (iops(e).fixedWindowConsistency ? num(iops(e).fixedWindowConsistency.ratio, 4) : '—')),
			...Report.QOS.filter(([n]) => ['P50', 'P99', 'P99.9', 'P99.99', 'P99.9999', 'max'].includes(n))
				.map(([n, key]) => row(`latency ${n} (µs)`, entries, (e) => (q(e) ? Report.us(q(e)[key]) : '—'))),
			row('WAF', entries, (e) => (e.phase && e.phase.waf ? measure(e.phase.waf.waf, (v) => num(v, 3)) : '—'), { 'data-figure': 'waf' }),
			row('TBW', entries, (e) => (e.phase && e.phase.endurance ? measure(e.phase.endurance.tbwBytes, bytes) : '—')),
			row('DWPD', entries, (e) => (e.phase && e.phase.endurance ? measure(e.phase.endurance.dwpd, (v) => num(v, 2)) : '—')),
		];
		const table = el('table', { id: 'compare-table' },
			el('thead', {}, el('tr', {}, head.map((h) => el('th', {}, h)))),
			el('tbody', {}, rows.map((r) => el('tr', r.attrs, r.cells.map((c, i) => el('td', { class: i ? 'num' : null }, c))))));
		return table;
	}

	DQ.start(async () => {
		const main = document.getElementById('main');
		const ids = (DQ.param('jobs') || '').split(',').map((s) => s.trim()).filter(Boolean);
		if (ids.length === 0) {
			await picker(main);
			return;
		}
		main.replaceChildren(el('p', { class: 'muted' }, `Loading ${ids.length} job(s)…`));
		const entries = await Promise.all(ids.map(load));
		const series = entries.map((e, i) => ({
			label: label(e), color: Charts.PALETTE[i % Charts.PALETTE.length],
			t: e.samples.map((s) => s.t), values: e.samples.map((s) => s.readIops + s.writeIops),
		}));
		const fixed = entries.map((e) => e.phase && e.phase.iops && e.phase.iops.fixedWindowConsistency).filter(Boolean);
		const starts = entries.map((e) => e.phase && e.phase.iops && Report.steadyWindow(e.phase.iops.steadyState)).filter(Boolean).map((w) => w.windowStartS);
		const zoomFrom = fixed.length === entries.length ? Math.min(...fixed.map((f) => f.firstT)) : (starts.length ? Math.min(...starts) : null);
		const toggles = el('div', { class: 'toolbar no-print', id: 'compare-toggles' });
		const chartIds = ['chart-whole', 'chart-steady-log', 'chart-steady-linear', 'chart-latency'];
		main.replaceChildren(
			el('h1', {}, `Compare ${entries.length} jobs`), toggles,
			...chartIds.map((id) => el('div', { id })),
			el('h2', {}, 'Figures'), tables(entries),
			el('h2', {}, 'Consistency, steady-state window'),
			Report.consistencyTable('compare-consistency-table', entries.map((e) => ({ label: label(e), value: e.phase && e.phase.iops && e.phase.iops.steadyStateConsistency }))));
		const plots = [
			Charts.scatter(document.getElementById('chart-whole'), { title: '1. The whole run: IOPS each second (log scale)', log: true, series }),
			Charts.scatter(document.getElementById('chart-steady-log'), { title: `2. Steady state${zoomFrom != null ? ' from t = ' + zoomFrom + ' s' : ''} (log scale)`, log: true, from: zoomFrom, series }),
			Charts.scatter(document.getElementById('chart-steady-linear'), { title: '3. The same on a linear scale', log: false, from: zoomFrom, series }),
			Charts.lines(document.getElementById('chart-latency'), {
				title: '4. Per-second p99 latency', yLabel: 'latency (ms)',
				...(() => {
					const joined = uPlot.join(entries.map((e) => [e.samples.map((s) => s.t), e.samples.map((s) => {
						const l = s.writeIops > 0 ? s.writeLatencyNs : s.readLatencyNs;
						return l ? l.p99 / 1e6 : null;
					})]));
					return { t: joined[0], series: entries.map((e, i) => ({ label: label(e), color: Charts.PALETTE[i % Charts.PALETTE.length], values: Array.from(joined[i + 1]) })) };
				})(),
			}),
		];
		entries.forEach((e, i) => {
			const button = el('button', { class: 'toggle', 'data-index': i, style: `border-color:${Charts.PALETTE[i % Charts.PALETTE.length]}` }, label(e));
			button.addEventListener('click', () => {
				const show = button.classList.toggle('off') === false;
				plots.forEach((u) => u.setSeries(i + 1, { show }));
			});
			toggles.append(button);
		});
		main.dataset.ready = 'true';
	});
})();
