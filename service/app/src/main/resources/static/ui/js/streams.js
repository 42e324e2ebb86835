/*
 * The report's panels of a multi-stream phase, one per stream, from GET
 * /api/v1/qualifications/{id}/streams: what the stream was asked to do, offered vs achieved rate
 * per second, and per direction the service time (submission to completion) beside the response
 * time (intended issue to completion, open loops only) to P99.9999 and max
 * (docs/methodology.md); with several such phases (a sweep of offered rates), the latency-at-load
 * chart: read percentiles against the achieved rate, one point per phase, or, for a sweep the
 * analysis found (job.analysis.latencyAtLoad), against the offered rate with the knee marked.
 */
'use strict';

const Streams = (() => {
	const { el, num } = DQ;

	function us(ns) {
		return ns == null ? '—' : num(ns / 1000, 1);
	}

	/** Block sizes as fio writes them (powers of 1024). */
	function blockSize(b) {
		for (const [unit, size] of [['GiB', 1 << 30], ['MiB', 1 << 20], ['KiB', 1 << 10]]) {
			if (b >= size && b % size === 0) {
				return `${b / size} ${unit}`;
			}
		}
		return `${b} B`;
	}

	/** The stream's spec in fio's words. */
	function describe(spec) {
		const size = spec.blockSizeSplit
			? spec.blockSizeSplit.map((s) => `${blockSize(s.blockSizeBytes)}/${s.percent}%`).join(' + ')
			: blockSize(spec.blockSizeBytes);
		const mix = spec.readPercent != null ? ` ${spec.readPercent}% reads${spec.trimPercent ? ', ' + spec.trimPercent + '% trims' : ''}` : '';
		const random = spec.randomPercent != null ? `, ${spec.randomPercent}% random` : '';
		const loop = spec.rateIops != null ? `open loop at ${num(spec.rateIops, 0)} IOPS (${spec.arrivals || 'uniform'})`
			: spec.rateBytesPerS != null ? `open loop at ${num(spec.rateBytesPerS / 1048576, 1)} MiB/s (${spec.arrivals || 'uniform'})`
				: 'closed loop';
		const think = spec.thinkTimeUs != null ? `, think ${num(spec.thinkTimeUs, 0)} µs every ${spec.thinkTimeBlocks || 1} IOs` : '';
		return `${spec.rw}${mix}${random}, ${size}, QD ${spec.queueDepth}, ${loop}${think}`;
	}

	function percentileCells(p) {
		return p ? [us(p.meanNs), us(p.p50Ns), us(p.p99Ns), us(p.p99_9Ns), us(p.p99_99Ns), us(p.p99_9999Ns), us(p.maxNs)]
			: ['—', '—', '—', '—', '—', '—', '—'];
	}

	function latencyTable(stream, runtimeS) {
		const rows = [];
		for (const d of stream.directions) {
			const mbps = runtimeS ? num(d.bytes / runtimeS / 1e6, 1) : '—';
			rows.push({ attrs: { 'data-direction': d.direction, 'data-time': 'service', 'data-p9999-ns': d.service ? d.service.p99_99Ns : '' },
				cells: [d.direction, 'service', num(d.ios, 0), mbps, d.errors, ...percentileCells(d.service)] });
			if (d.response) {
				rows.push({ attrs: { 'data-direction': d.direction, 'data-time': 'response', 'data-p9999-ns': d.response.p99_99Ns },
					cells: [d.direction, 'response', num(d.ios, 0), mbps, d.errors, ...percentileCells(d.response)] });
			}
		}
		const head = ['direction', 'time', 'IOs', 'MB/s', 'errors', 'mean µs', 'P50 µs', 'P99 µs', 'P99.9 µs', 'P99.99 µs', 'P99.9999 µs', 'max µs'];
		return el('table', { id: `stream-${stream.index}-latency`, class: 'stream-latency' },
			el('thead', {}, el('tr', {}, head.map((h, i) => el('th', { class: i > 1 ? 'num' : null }, h)))),
			el('tbody', {}, rows.map((r) => el('tr', r.attrs, r.cells.map((c, i) => el('td', { class: i > 1 ? 'num' : null }, String(c)))))));
	}

	function panel(phase, stream) {
		const achieved = stream.directions.reduce((sum, d) => sum + d.ios, 0);
		const section = el('section', { class: 'stream-panel', id: `stream-${stream.index}`, 'data-stream': stream.name,
			'data-achieved-ios': achieved, 'data-offered-ios': stream.offeredIos == null ? '' : stream.offeredIos },
		el('h3', {}, `Stream ${stream.index}: ${stream.name}`),
		el('p', { class: 'muted' }, describe(stream.spec)),
		el('p', { id: `stream-${stream.index}-rate` }, stream.openLoop
			? `Offered ${num(stream.offeredIos, 0)} IOs, achieved ${num(achieved, 0)} (${num(100 * achieved / Math.max(1, stream.offeredIos), 2)} %); at most ${num(stream.maxBacklog, 0)} IOs waited for a queue slot.`
			: `Closed loop: ${num(achieved, 0)} IOs completed (${num(achieved / Math.max(1, phase.runtimeS), 0)} IOPS over ${phase.runtimeS} s).`),
		latencyTable(stream, phase.runtimeS));
		const rate = el('div', { id: `stream-${stream.index}-rate-chart` });
		const latency = el('div', { id: `stream-${stream.index}-latency-chart` });
		section.append(rate, latency);
		return { section, rate, latency };
	}

	/** Draws once the panels are in the document (charts need a width). */
	function charts(stream, rate, latency) {
		const t = stream.seconds.map((s) => s.t);
		const series = [{ label: 'achieved IOPS', t, values: stream.seconds.map((s) => s.achievedIops) }];
		if (stream.openLoop) {
			series.unshift({ label: 'offered IOPS', t, values: stream.seconds.map((s) => s.offeredIops), color: '#6b6b6b' });
		}
		Charts.scatter(rate, { title: `${stream.name}: ${stream.openLoop ? 'offered vs achieved' : 'achieved'} IOs per second`, yLabel: 'IOPS', log: false, series });
		const lines = [];
		for (const d of ['read', 'write', 'trim']) {
			if (!stream.seconds.some((s) => s[d] && s[d].iops > 0)) {
				continue;
			}
			lines.push({ label: `${d} P99 service (µs)`, values: stream.seconds.map((s) => (s[d] && s[d].latencyNs ? s[d].latencyNs.p99 / 1000 : null)) });
			if (stream.openLoop) {
				lines.push({ label: `${d} P99 response (µs)`, values: stream.seconds.map((s) => (s[d] && s[d].responseLatencyNs ? s[d].responseLatencyNs.p99 / 1000 : null)) });
			}
		}
		if (lines.length) {
			Charts.lines(latency, { title: `${stream.name}: per-second P99, service${stream.openLoop ? ' vs response' : ''} time`, yLabel: 'µs', t, series: lines });
		}
	}

	/**
	 * Latency at load: with several multi-stream phases (a sweep of offered rates, e.g. fio
	 * groups separated by stonewall), each phase's achieved IOPS of its open-loop streams
	 * against its read P99 and P99.99, service and response time; where the tail turns up
	 * is the knee.
	 */
	function knee(section, phases) {
		const points = phases.map((phase) => {
			const open = phase.streams.filter((s) => s.openLoop);
			const reads = open.flatMap((s) => s.directions.filter((d) => d.direction === 'read'));
			if (!open.length || !reads.length || !phase.runtimeS) {
				return null;
			}
			const worst = (key, time) => {
				const values = reads.filter((d) => d[time]).map((d) => d[time][key] / 1000);
				return values.length ? Math.max(...values) : null;
			};
			return {
				phase, x: Math.round(reads.reduce((n, d) => n + d.ios, 0) / phase.runtimeS),
				p99: worst('p99Ns', 'service'), p9999: worst('p99_99Ns', 'service'),
				p99r: worst('p99Ns', 'response'), p9999r: worst('p99_99Ns', 'response'),
			};
		}).filter(Boolean);
		if (points.length < 2) {
			return;
		}
		const chart = el('div', { id: 'streams-knee-chart' });
		section.append(el('h3', {}, 'Latency at load'), chart,
			table(points));
		const x = points.map((p) => p.x);
		Charts.xy(chart, {
			title: 'Read latency against the achieved read rate of the open-loop streams, one point per phase',
			xLabel: 'read IOPS achieved', yLabel: 'µs', yLog: true, xValues: (v) => num(v, 0),
			series: [
				{ label: 'P99 service', x, y: points.map((p) => p.p99) },
				{ label: 'P99.99 service', x, y: points.map((p) => p.p9999) },
				{ label: 'P99 response', x, y: points.map((p) => p.p99r), color: '#e08a00' },
				{ label: 'P99.99 response', x, y: points.map((p) => p.p9999r), color: '#d1495b' },
			],
		});
	}

	/**
	 * Latency at load of a sweep the analysis found (job.analysis.latencyAtLoad): per step
	 * the read percentiles against the offered rate (log axes), the knee marked, the 2,500 µs
	 * P99.99 bound drawn; beside it achieved against offered, where saturation shows. Steps
	 * the runner skipped after saturation are listed (skipped, and why), never plotted.
	 */
	function sweep(section, phases, job) {
		const found = job.analysis.latencyAtLoad;
		const metrics = job.analysis.metrics || {};
		const byIndex = new Map(phases.map((p) => [p.phaseIndex, p]));
		const rows = found.steps.map((step) => {
			const phase = byIndex.get(step.phaseIndex) || { phaseName: step.phaseName, streams: [] };
			const reads = phase.streams.filter((s) => s.openLoop).flatMap((s) => s.directions.filter((d) => d.direction === 'read'));
			const worst = (key, time) => {
				const values = reads.filter((d) => d[time]).map((d) => d[time][key] / 1000);
				return values.length ? Math.max(...values) : null;
			};
			return {
				phase, step, x: step.offeredIops, achieved: step.achievedIops,
				p99: worst('p99Ns', 'service'), p9999: worst('p99_99Ns', 'service'),
				p99r: worst('p99Ns', 'response'), p9999r: step.readResponseP9999Us,
			};
		});
		const points = rows.filter((p) => !p.step.skipped);
		const skipped = rows.filter((p) => p.step.skipped);
		const knee = points.find((p) => p.phase.phaseName === found.kneePhase);
		const held = points.find((p) => p.phase.phaseName === found.holdsP9999Of2500UsUpToPhase);
		const perTb = (name, phaseName) => {
			const v = metrics[name] && metrics[name][phaseName];
			return v == null ? '' : ` (${num(v, 0)} per TB)`;
		};
		const saturated = points.find((p) => p.phase.phaseName === found.saturatedPhase);
		const summary = el('p', { id: 'streams-sweep-summary' },
			knee ? `Knee at ${num(knee.x, 0)} read IOPS offered${perTb('kneeReadIopsPerTb', knee.phase.phaseName)}, by ${found.kneeBy}: `
				+ (found.kneeBy === 'latency' ? `response P99.99 ${num(knee.p9999r, 1)} µs, over ${num(found.kneeMultiple, 0)}× the lowest before it. ` : 'the drive fell behind the offer. ')
				: `No knee within the sweep: the drive kept up to ${num(points[points.length - 1].x, 0)} IOPS offered. `,
			saturated ? `First saturated step: ${saturated.phase.phaseName} (${num(saturated.achieved, 0)} of ${num(saturated.x, 0)} IOPS, under ${num(100 * (1 - found.saturationMargin), 0)} %). ` : 'No step saturated. ',
			held ? `Read P99.99 ≤ 2,500 µs held up to ${num(held.achieved, 0)} IOPS achieved${perTb('readIopsPerTbWithinP9999Of2500Us', '')}.`
				: 'Read P99.99 ≤ 2,500 µs did not hold at the first step.',
			skipped.length ? ` Skipped after saturation (the runner stopped the sweep): ${skipped.map((p) => `${p.phase.phaseName} (${num(p.x, 0)} IOPS)`).join(', ')}.` : '');
		const chart = el('div', { id: 'streams-knee-chart' });
		const rate = el('div', { id: 'streams-sweep-rate-chart' });
		section.append(el('h3', {}, 'Latency at load'), summary, chart, rate, table(rows, found));
		section.dataset.kneePhase = found.kneePhase || '';
		section.dataset.saturatedPhase = found.saturatedPhase || '';
		const x = points.map((p) => p.x);
		const ys = points.flatMap((p) => [p.p99, p.p9999, p.p99r, p.p9999r]).filter((v) => v != null && v > 0);
		Charts.xy(chart, {
			title: 'Read latency against the offered read rate, one point per step',
			xLabel: 'read IOPS offered', yLabel: 'µs', xLog: true, yLog: true, xValues: (v) => DQ.si(v),
			levels: [{ value: 2500, label: 'P99.99 bound 2,500 µs', color: '#8a5a00' }],
			segments: knee ? [{ x0: knee.x, x1: knee.x, y0: Math.min(...ys), y1: Math.max(...ys), label: `knee (${found.kneeBy})`, color: '#d1495b' }] : [],
			series: [
				{ label: 'P99 service', x, y: points.map((p) => p.p99), color: '#1f5fbf' },
				{ label: 'P99.99 service', x, y: points.map((p) => p.p9999), color: '#3a9d5d' },
				{ label: 'P99 response', x, y: points.map((p) => p.p99r), color: '#e08a00' },
				{ label: 'P99.99 response', x, y: points.map((p) => p.p9999r), color: '#d1495b' },
			],
		});
		Charts.xy(rate, {
			title: 'Achieved against offered read rate, one point per step (on the diagonal: the drive kept up)',
			xLabel: 'read IOPS offered', yLabel: 'IOPS', xLog: true, yLog: true, xValues: (v) => DQ.si(v),
			series: [
				{ label: 'offered', x, y: x, color: '#6b6b6b' },
				{ label: 'achieved', x, y: points.map((p) => p.achieved) },
			],
		});
	}

	function table(points, found) {
		if (found) {
			const head = ['step', 'offered IOPS', 'achieved IOPS', 'achieved %', 'P99 service µs', 'P99.99 service µs', 'P99 response µs', 'P99.99 response µs', ''];
			return el('table', { id: 'streams-knee-table' },
				el('thead', {}, el('tr', {}, head.map((h, i) => el('th', { class: i ? 'num' : null }, h)))),
				el('tbody', {}, points.map((p) => el('tr', { 'data-phase': p.phase.phaseName, 'data-saturated': String(p.step.saturated), 'data-skipped': String(!!p.step.skipped) },
					(p.step.skipped
						? [p.phase.phaseName, num(p.x, 0), '—', '—', '—', '—', '—', '—', `skipped: saturated at ${found.saturatedPhase}`]
						: [p.phase.phaseName, num(p.x, 0), num(p.achieved, 0), num(100 * p.achieved / p.x, 1),
							...[p.p99, p.p9999, p.p99r, p.p9999r].map((v) => (v == null ? '—' : num(v, 1))),
							[p.phase.phaseName === found.kneePhase ? 'knee' : null, p.step.saturated ? 'saturated' : null].filter(Boolean).join(', ')])
						.map((c, i) => el('td', { class: i ? 'num' : null, title: (i === 8 && p.step.skipped) ? p.step.skipped : null }, String(c)))))));
		}
		const head = ['phase', 'read IOPS achieved', 'P99 service µs', 'P99.99 service µs', 'P99 response µs', 'P99.99 response µs'];
		return el('table', { id: 'streams-knee-table' },
			el('thead', {}, el('tr', {}, head.map((h, i) => el('th', { class: i ? 'num' : null }, h)))),
			el('tbody', {}, points.map((p) => el('tr', { 'data-phase': p.phase.phaseName },
				[p.phase.phaseName, num(p.x, 0), ...[p.p99, p.p9999, p.p99r, p.p9999r].map((v) => (v == null ? '—' : num(v, 1)))]
					.map((c, i) => el('td', { class: i ? 'num' : null }, String(c)))))));
	}

	function render(container, data) {
		const phases = (data.streams && data.streams.phases) || [];
		if (!phases.length) {
			return;
		}
		const section = el('section', { id: 'streams-section' }, el('h2', {}, 'Streams'),
			el('p', { class: 'muted small' }, 'Service time runs from an IO\'s submission to its completion (fio\'s lat); '
				+ 'response time from its intended issue time, so it includes any wait behind a stalled drive (open loops only). '
				+ 'Percentiles are nearest-rank from each phase\'s histogram.'));
		container.append(section);
		const drawn = [];
		// a step the runner skipped (its sweep saturated before it) has nothing to draw: say why
		const skipped = new Map(((data.job && data.job.analysis && data.job.analysis.phases) || [])
			.filter((p) => p.skipped).map((p) => [p.phaseIndex, p.skipped]));
		for (const phase of phases) {
			if (skipped.has(phase.phaseIndex)) {
				section.append(el('h3', { 'data-skipped-phase': phase.phaseName },
					`Phase ${phase.phaseIndex}: ${phase.phaseName} — ${skipped.get(phase.phaseIndex).message}`));
				continue;
			}
			section.append(el('h3', {}, `Phase ${phase.phaseIndex}: ${phase.phaseName} (${phase.runtimeS} s)`));
			for (const stream of phase.streams) {
				const p = panel(phase, stream);
				section.append(p.section);
				drawn.push([stream, p.rate, p.latency]);
			}
		}
		for (const [stream, rate, latency] of drawn) {
			charts(stream, rate, latency);
		}
		if (data.job && data.job.analysis && data.job.analysis.latencyAtLoad) {
			sweep(section, phases, data.job);
		}
		else {
			knee(section, phases);
		}
		section.dataset.streams = String(drawn.length);
	}

	return { render, describe };
})();
