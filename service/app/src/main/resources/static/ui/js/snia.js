/*
 * The report's SNIA PTS pages, laid out as the SNIA Solid State Storage Performance Test
 * Specification's report format lays out a test: a setup header (device, purge, WIPC/WDPC, outstanding
 * IO, rounds), the steady-state convergence plot (the tracking variable per round), the
 * measurement-window plot (the window's rounds against their average, ±10 % and ±20 % of it, and the
 * least-squares slope), then the tabular results: the IOPS matrix (read/write mix × block size) with
 * its 2D plot, sequential throughput and QD1 latency (average, maximum and five nines per element;
 * a step's from the runner's merge of its histograms over the window); a write saturation test
 * (random writes to a size or a time, no rounds) adds IOPS against time and against the data
 * written. One test element is a (read/write mix, block size, queue depth): a step of a phase with
 * adaptive rounds (its samples name round and step; the value is the mean over the measurement
 * window's rounds), or a whole workload phase (its steady-state window when the phase is steady at
 * its end, else all its seconds). When a plan runs adaptive rounds, its tests are the phases with
 * rounds, and its other workload phases prepare the drive for them (setup, not test elements). The
 * definitions are docs/methodology.md's.
 */
'use strict';

const Snia = (() => {
	const { el, num, bytes } = DQ;
	const MIXES = [100, 95, 65, 50, 35, 5, 0];

	function blockLabel(sizeBytes) {
		return sizeBytes % 1024 === 0 ? `${sizeBytes / 1024} KiB` : `${num(sizeBytes / 1024, 1)} KiB`;
	}

	/** Percent of IOs that are reads, as SNIA names a mix ("65/35" is 65 % read). */
	function readPercentOf(spec) {
		if (spec.rw === 'read' || spec.rw === 'randread') {
			return 100;
		}
		if (spec.rw === 'write' || spec.rw === 'randwrite') {
			return 0;
		}
		return spec.readPercent == null ? 50 : spec.readPercent;
	}

	function mixLabel(readPercent) {
		return `${readPercent}/${100 - readPercent}`;
	}

	/**
	 * How the pages show a tracking metric: the figure they compare, its unit, and its name.
	 * meanLatencyNs (SNIA's Latency test: the average response time) is plotted in µs.
	 */
	const METRICS = {
		iops: { figure: 'iops', unit: 'IOPS', name: 'IOPS' },
		bytesPerS: { figure: 'mbps', unit: 'MB/s', name: 'throughput' },
		meanLatencyNs: { figure: 'latencyUs', unit: 'µs', name: 'mean latency' },
	};

	function metricOf(rounds) {
		return METRICS[rounds && rounds.tracking ? rounds.tracking.metric : 'iops'] || METRICS.iops;
	}

	/** A round's value as the runner reported it (x 1000 in the metric's own unit), in the plot's unit. */
	function reportedValue(metric, milli) {
		if (milli == null || milli < 0) {
			return null;
		}
		const value = milli / 1000;
		return metric.figure === 'mbps' ? value / 1e6 : metric.figure === 'latencyUs' ? value / 1000 : value;
	}

	function sequential(spec) {
		return spec.rw === 'read' || spec.rw === 'write' || spec.rw === 'rw';
	}

	function mean(values) {
		return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
	}

	/** Per-second figures of a set of samples, averaged; latency max over the seconds. */
	function figures(samples, phase) {
		const iops = samples.map((s) => s.readIops + s.writeIops);
		const mbps = samples.map((s) => s.readMBps + s.writeMBps);
		const maxNs = Math.max(0, ...samples.flatMap((s) => [s.readLatencyNs, s.writeLatencyNs].filter(Boolean).map((l) => l.max)));
		const qd = samples.filter((s) => s.effectiveQueueDepth != null);
		const f = { seconds: samples.length, iops: mean(iops), mbps: mean(mbps), maxLatencyNs: maxNs || null };
		// Little's law: mean latency = time-averaged IOs outstanding / IOs per second.
		if (qd.length && f.iops) {
			f.meanLatencyNs = 1e9 * mean(qd.map((s) => s.effectiveQueueDepth)) / f.iops;
			f.latencyUs = f.meanLatencyNs / 1000;
		}
		f.latencySource = 'per-second samples (average by Little\'s law, maximum of the seconds\' maxima)';
		if (phase) {
			const dirs = [phase.readLatency, phase.writeLatency].filter(Boolean);
			const count = dirs.reduce((n, q) => n + q.count, 0);
			if (count) {
				f.ios = count;
				f.meanLatencyNs = dirs.reduce((sum, q) => sum + q.meanNs * q.count, 0) / count;
				f.maxLatencyNs = Math.max(...dirs.map((q) => q.maxNs));
				// percentiles are per direction: one of all the IOs only when there is one direction
				f.p99999Ns = dirs.length === 1 ? dirs[0].p99_999Ns : null;
				f.latencySource = 'the phase\'s merged histogram';
			}
			f.readP99999Ns = phase.readLatency ? phase.readLatency.p99_999Ns : null;
			f.writeP99999Ns = phase.writeLatency ? phase.writeLatency.p99_999Ns : null;
		}
		return f;
	}

	/**
	 * A step's latency over the measurement window as the runner reported it (phase-completed's
	 * rounds.windowLatency: the step's histograms of the window's rounds merged): all its IOs, and
	 * reads and writes apart. Without it (older runners) the per-second figures stay.
	 */
	function withWindowLatency(f, windowLatency, step) {
		const e = windowLatency && windowLatency.steps.find((s) => s.step === step);
		if (!e) {
			return f;
		}
		return {
			...f, ios: e.total.ios, meanLatencyNs: e.total.meanNs, maxLatencyNs: e.total.maxNs, p99999Ns: e.total.p99999Ns,
			readP99999Ns: e.read ? e.read.p99999Ns : null, writeP99999Ns: e.write ? e.write.p99999Ns : null,
			latencySource: `merged histograms of rounds ${windowLatency.firstRound}–${windowLatency.lastRound}`,
		};
	}

	/**
	 * Rounds of the measurement window: the last five when they hold (the steady-state figures),
	 * else the first eligible window that held, else the last five, marked not steady.
	 */
	function windowOf(ss, roundCount) {
		const end = ss && ss.end && ss.end.window;
		if (end && ss.end.holds) {
			return { first: end.firstRoundIndex, last: end.lastRoundIndex, why: 'the last five rounds, steady at the end (the steady-state figures)' };
		}
		if (ss && ss.reached && ss.window) {
			return { first: ss.window.firstRoundIndex, last: ss.window.lastRoundIndex, why: 'the first eligible window that held; NOT steady at the end' };
		}
		if (end) {
			return { first: end.firstRoundIndex, last: end.lastRoundIndex, why: 'the last five rounds, NOT steady' };
		}
		const last = roundCount - 1;
		return { first: Math.max(0, last - 4), last, why: 'the last rounds run (no steady-state window)' };
	}

	/** One PTS test: a phase of the job with its elements, tracking rounds and window. */
	function testOf(spec, phase, samples) {
		const ss = phase && phase.iops && phase.iops.steadyState;
		if (spec.rounds) {
			const r = spec.rounds;
			const byRound = new Map();
			for (const s of samples) {
				if (s.round == null) {
					continue;
				}
				const key = `${s.round}:${s.step}`;
				if (!byRound.has(key)) {
					byRound.set(key, []);
				}
				byRound.get(key).push(s);
			}
			// How the runner stopped the phase (phase-completed's rounds): rounds run, the
			// tracking value of each, the first eligible round and where steady state was reached.
			const stopped = phase && phase.rounds ? phase.rounds : null;
			const roundCount = Math.max(stopped ? stopped.roundsRun : 0, samples.reduce((n, s) => Math.max(n, s.round == null ? 0 : s.round + 1), 0));
			// Fixed rounds (no tracking variable, e.g. host idle recovery) plot their first IO step.
			const trackedStep = r.tracking ? r.tracking.step : r.steps.findIndex((step) => !step.idleS);
			const metric = metricOf(r);
			const tracking = [];
			for (let round = 0; round < roundCount; round++) {
				// The runner's value is the one its stop was decided on (a mean latency is exact
				// there, from every IO's latency); the samples' own figure where it reported none.
				const reported = stopped ? reportedValue(metric, stopped.trackingMilli[round]) : null;
				const value = reported != null ? reported : figures(byRound.get(`${round}:${trackedStep}`) || [])[metric.figure];
				// Fixed rounds are not judged, so none is "still fresh": eligibility is the tracking's.
				const eligible = !r.tracking || (stopped ? stopped.firstEligibleRound != null && round >= stopped.firstEligibleRound : true);
				tracking.push({ round, value, eligible });
			}
			// The analysis' own rounds are 60 s spans of t, not these rounds: the runner's account
			// says which rounds were eligible and where steady state was reached.
			const win = stopped && stopped.stoppedBecause === 'steady'
				? { first: stopped.reachedAtRound - 4, last: stopped.reachedAtRound, why: `steady state reached at round ${stopped.reachedAtRound}, where the runner stopped` }
				: { first: Math.max(0, roundCount - 5), last: roundCount - 1, why: r.tracking ? 'the last five rounds, steady state NOT reached' : 'the last five rounds (fixed rounds, not judged)' };
			const elements = r.steps.map((step, i) => ({ step, i })).filter(({ step }) => !step.idleS).map(({ step, i }) => {
				const inWindow = [];
				for (let round = win.first; round <= win.last; round++) {
					inWindow.push(...(byRound.get(`${round}:${i}`) || []));
				}
				const measured = withWindowLatency(figures(inWindow), stopped && stopped.windowLatency, i);
				return { step: i, spec: step, phaseName: spec.name, readPercent: readPercentOf(step), figures: measured };
			});
			return { spec, phase, ss: null, tracking, trackedStep, metric, window: win, elements, rounds: r, fixed: !r.tracking };
		}
		const rounds = ss ? ss.rounds : [];
		const tracking = rounds.map((x) => ({ round: x.index, value: x.meanIops, eligible: x.eligible, counted: x.counted }));
		const win = windowOf(ss, rounds.length);
		const steady = ss && ss.end && ss.end.holds ? ss.end.window : null;
		const measured = steady ? samples.filter((s) => s.t > steady.windowStartS && s.t <= steady.windowEndS) : samples;
		// Random writes to a size (or a time) from the drive's state, no rounds: SNIA's write
		// saturation, whose results are its IOPS over time and over the data written, not an element.
		const saturation = spec.sizeBytes != null && !sequential(spec) && readPercentOf(spec) < 100;
		return {
			spec, phase, ss, tracking, metric: METRICS.iops, window: win, saturation, samples,
			elements: saturation ? [] : [{ spec, phaseName: spec.name, readPercent: readPercentOf(spec), figures: figures(measured, phase), basis: steady ? 'steady-state window' : 'whole phase' }],
		};
	}

	/**
	 * The job's tests and their setup: every workload phase is a test, unless the plan runs
	 * adaptive rounds, whose phases are then its tests; a workload phase without rounds in such
	 * a plan prepares the drive for the next test (pts-latency's random write of the capacity,
	 * pts-hir's returns to the baseline) and is shown in that test's setup. Purges and WIPC are
	 * setup always.
	 */
	function model(job, samplesByPhase) {
		const plan = job.plan || [];
		const phases = (job.analysis && job.analysis.phases) || [];
		const withRounds = plan.some((spec) => spec.kind === 'workload' && spec.rounds);
		const tests = [];
		let preparing = [];
		// Each test's own setup: the last purge before it and the WIPC since then.
		let purge = [];
		let wipc = [];
		for (const spec of plan) {
			if (spec.kind === 'purge') {
				purge = [spec];
				wipc = [];
				continue;
			}
			if (spec.kind === 'precondition') {
				wipc.push(spec);
				continue;
			}
			if (spec.kind !== 'workload') {
				continue;
			}
			const phase = phases.find((p) => p.phaseIndex === spec.index) || null;
			if (withRounds && !spec.rounds) {
				preparing.push({ spec, phase });
				continue;
			}
			tests.push({ ...testOf(spec, phase, samplesByPhase[spec.index] || []), preparedBy: preparing, purge, wipc: [...wipc] });
			preparing = [];
		}
		// Fixed rounds (host idle recovery's wait states) are a sequence, not matrix elements.
		const elements = tests.filter((t) => !t.fixed).flatMap((t) => t.elements);
		return {
			tests,
			iops: elements.filter((e) => !sequential(e.spec) && e.spec.queueDepth > 1 && e.figures.iops != null),
			throughput: elements.filter((e) => sequential(e.spec) && e.figures.mbps != null),
			latency: elements.filter((e) => !sequential(e.spec) && e.spec.queueDepth === 1 && e.figures.iops != null),
		};
	}

	function stimulus(spec) {
		return `${blockLabel(spec.blockSizeBytes)} ${sequential(spec) ? 'sequential' : 'random'} ${mixLabel(readPercentOf(spec))} (R/W), QD ${spec.queueDepth}`;
	}

	/** A workload's limits (a time, a size, or both: the first reached ends it) and which ended it. */
	function limits(job, test) {
		const spec = test.spec;
		const capacity = job.drive && job.drive.capacityBytes;
		const size = spec.sizeBytes ? `${bytes(spec.sizeBytes)}${capacity ? ` (${num(spec.sizeBytes / capacity, 2)} × user capacity)` : ''}` : null;
		const time = spec.runtimeS ? `${spec.runtimeS} s` : null;
		const given = size && time ? `until ${size} written or ${time}, whichever comes first` : (time || (size ? `until ${size} transferred` : 'to its end'));
		const reached = test.phase && test.phase.limitReached;
		return reached ? `${given}; ended by its ${reached === 'runtimeS' ? 'time' : 'size'}` : given;
	}

	/** "auto, ran format-user-data": what was asked and what the runner reports it ran. */
	function purgeRan(job, spec) {
		const phase = ((job.analysis && job.analysis.phases) || []).find((p) => p.phaseIndex === spec.index);
		const ran = phase && phase.purgeVerification && phase.purgeVerification.method;
		const asked = spec.purgeMethod || 'auto';
		if (!ran) {
			return `${asked} (the method that ran was not reported)`;
		}
		return `${asked}, ran ${ran === 'deallocate' ? 'deallocate (a TRIM: not a purge under SNIA PTS)' : ran}`;
	}

	/** The analysis's conformance line for this test. */
	function conformanceOf(job, spec) {
		const line = ((job.analysis && job.analysis.sniaConformance) || []).find((c) => c.phaseIndex === spec.index);
		return line ? line.line : 'not judged (analysed before the conformance line existed)';
	}

	function setupHeader(job, m, test) {
		const d = job.drive || {};
		const wipc = test.wipc.map((s) => `${s.passes || 1} × ${s.rangePercent == null ? 100 : s.rangePercent} % of the LBAs, ${blockLabel(s.blockSizeBytes)} ${s.rw === 'write' ? 'sequential' : s.rw} write (${num((s.passes || 1) * (s.rangePercent == null ? 100 : s.rangePercent) / 100, 2)} × user capacity)`);
		const r = test.rounds;
		const ss = test.ss;
		const e = ss && ss.eligibility;
		const steps = r ? r.steps.map((s) => (s.idleS ? `idle ${s.idleS} s` : `${stimulus(s)} for ${s.runtimeS || r.stepRuntimeS} s`)) : [];
		const prepared = (test.preparedBy || []).map((p) => `${p.spec.name}: ${stimulus(p.spec)}, ${limits(job, p)}`);
		const wdpc = r
			? `rounds of ${r.steps.length} step(s): ${steps.length > 4 ? steps.slice(0, 3).join('; ') + `; … (${steps.length - 3} more)` : steps.join('; ')}; `
				+ (r.tracking ? `tracking the ${test.metric.name} (${r.tracking.metric}) of step ${r.tracking.step} (${stimulus(r.steps[r.tracking.step])}), at most ${r.maxRounds} rounds` : `${r.maxRounds} fixed rounds, no tracking variable (plotted: step ${test.trackedStep})`)
				+ `, W = ${num(r.rangeWritesRequired, 2)}`
			: `${stimulus(test.spec)}, ${limits(job, test)}${ss ? `, rounds of ${ss.roundLengthS} s` : ''}${e && e.applies ? `, W = ${num(e.rangeWritesRequired, 2)}` : ''}`;
		const stopped = test.phase && test.phase.rounds;
		const reached = ss && ss.reached ? `reached at round ${ss.window.lastRoundIndex}`
			: (r && !r.tracking ? `not judged: ${test.tracking.length} fixed rounds` : stopped ? (stopped.stoppedBecause === 'steady' ? `reached at round ${stopped.reachedAtRound}` : `not reached in ${stopped.roundsRun} rounds (the maximum)`) : (ss ? 'not reached' : '—'));
		const rounds = test.fixed ? `${test.tracking.length} fixed rounds run (a sequence, not judged for steady state)`
			: `${test.tracking.length} run, ${test.tracking.filter((x) => x.eligible).length} eligible; steady state ${reached}`;
		return el('table', { class: 'kv snia-setup', 'data-phase': test.spec.name }, [
			['Device', `${d.model || '?'}, serial ${d.serial}, firmware ${d.firmware || '?'}, ${d.capacityBytes ? bytes(d.capacityBytes) : 'capacity ?'}`],
			['Purge', test.purge.length ? test.purge.map((s) => purgeRan(job, s)).join(', ') : 'none'],
			['WIPC', wipc.length ? wipc.join('; ') : 'none'],
			...(prepared.length ? [['Preconditioning before the test', prepared.join('; ')]] : []),
			['WDPC / test stimulus', wdpc],
			['Active range', `${test.spec.rangePercent == null ? 100 : test.spec.rangePercent} % of the LBAs`],
			['Outstanding IO', r ? [...new Set(r.steps.filter((s) => !s.idleS).map((s) => s.queueDepth))].map((q) => `QD ${q}`).join(', ') + ', 1 thread' : `QD ${test.spec.queueDepth}, 1 thread`],
			['Data pattern', test.spec.dataPattern || 'random'],
			['Rounds', rounds],
			['Measurement window', `rounds ${test.window.first}–${test.window.last}: ${test.window.why}`],
			['SNIA PTS conformance', conformanceOf(job, test.spec)],
		].map(([k, v]) => el('tr', {}, el('th', {}, k), el('td', {}, v))));
	}

	/** Least-squares line y = a + b x over the points. */
	function fit(points) {
		const n = points.length;
		const mx = mean(points.map((p) => p.round));
		const my = mean(points.map((p) => p.value));
		let sxy = 0;
		let sxx = 0;
		for (const p of points) {
			sxy += (p.round - mx) * (p.value - my);
			sxx += (p.round - mx) * (p.round - mx);
		}
		const b = n > 1 && sxx > 0 ? sxy / sxx : 0;
		return { a: my - b * mx, b, avg: my };
	}

	/** "IOPS", "mean latency, µs": a metric's name with its unit, once when they are the same. */
	function metricLabel(metric) {
		return metric.name === metric.unit ? metric.unit : `${metric.name}, ${metric.unit}`;
	}

	function convergence(container, test, id) {
		const unit = test.metric.unit;
		const eligible = test.tracking.filter((x) => x.eligible && x.value != null);
		const fresh = test.tracking.filter((x) => !x.eligible && x.value != null);
		const node = el('div', { id });
		container.append(node);
		Charts.xy(node, {
			title: test.fixed ? `Rounds: step ${test.trackedStep} per round (${metricLabel(test.metric)}), fixed rounds without a tracking variable`
				: `Steady-state convergence: tracking variable per round (${metricLabel(test.metric)})`,
			xLabel: 'round', yLabel: unit,
			series: [
				{ label: test.fixed ? 'rounds' : 'eligible rounds', x: eligible.map((x) => x.round), y: eligible.map((x) => x.value), color: Charts.PALETTE[0] },
				{ label: 'rounds still in the fresh state (not eligible)', x: fresh.map((x) => x.round), y: fresh.map((x) => x.value), color: '#9aa3b2' },
			].filter((s) => s.x.length),
			caption: test.fixed ? `One point per round: the mean ${metricLabel(test.metric)} of step ${test.trackedStep}'s seconds in the round.`
				: `One point per round: ${test.metric.figure === 'latencyUs' ? 'the mean latency of the tracking step\'s IOs in the round' : 'the mean of the tracking variable over the round'}. Grey: rounds before the drive left its fresh state, never part of a steady-state window.` });
	}

	function measurementWindow(container, test, id) {
		const unit = test.metric.unit;
		const points = test.tracking.filter((x) => x.round >= test.window.first && x.round <= test.window.last && x.value != null);
		const node = el('div', { id });
		container.append(node);
		if (!points.length) {
			node.append(el('p', { class: 'muted' }, 'No round in the measurement window.'));
			return null;
		}
		const f = fit(points);
		const x0 = test.window.first;
		const x1 = test.window.last;
		Charts.xy(node, {
			title: `Steady-state measurement window: rounds ${x0}–${x1} (${metricLabel(test.metric)})`, xLabel: 'round', yLabel: unit,
			series: [{ label: unit, x: points.map((p) => p.round), y: points.map((p) => p.value), color: Charts.PALETTE[0] }],
			levels: [
				{ value: f.avg, label: `average ${num(f.avg, 1)}`, color: '#1b7f3b', dash: [1, 0] },
				{ value: 1.1 * f.avg, label: '110 % of average', color: '#e08a00' },
				{ value: 0.9 * f.avg, label: '90 % of average', color: '#e08a00' },
				{ value: 1.2 * f.avg, label: '120 % of average', color: '#d1495b', dash: [2, 3] },
				{ value: 0.8 * f.avg, label: '80 % of average', color: '#d1495b', dash: [2, 3] },
			],
			segments: [{ x0, y0: f.a + f.b * x0, x1, y1: f.a + f.b * x1, label: `slope ${num(f.b, 1)} per round`, color: '#111' }],
			caption: `Steady state holds when max − min ≤ 20 % of the average (range ${num(100 * (Math.max(...points.map((p) => p.value)) - Math.min(...points.map((p) => p.value))) / f.avg, 2)} %) and the slope line moves by ≤ 10 % of the average across the window (${num(100 * Math.abs(f.b) * (x1 - x0) / f.avg, 2)} %).` });
		node.dataset.avg = String(f.avg);
		node.dataset.slope = String(f.b);
		return f;
	}

	/** Write saturation: IOPS per second against time and against the data written so far. */
	function saturation(container, job, test) {
		const samples = [...test.samples].sort((a, b) => a.t - b.t);
		const iops = samples.map((s) => s.readIops + s.writeIops);
		let written = 0;
		const gb = samples.map((s) => {
			written += s.writeMBps / 1000;
			return written;
		});
		const capacity = job.drive && job.drive.capacityBytes;
		const byTime = el('div', { id: `snia-saturation-time-${test.spec.index}` });
		const byWritten = el('div', { id: `snia-saturation-written-${test.spec.index}` });
		container.append(byTime, byWritten);
		Charts.scatter(byTime, {
			title: 'Write saturation: IOPS per second against time', yLabel: 'IOPS',
			series: [{ label: 'IOPS', t: samples.map((s) => s.t), values: iops, color: Charts.PALETTE[0] }],
			caption: `Every second of the phase, ${limits(job, test)}.` });
		Charts.scatter(byWritten, {
			title: 'Write saturation: IOPS per second against the total data written', xLabel: 'total data written (GB)', yLabel: 'IOPS',
			series: [{ label: 'IOPS', t: gb, values: iops, color: Charts.PALETTE[0] }],
			caption: `${num(written, 1)} GB written in all${capacity ? `, ${num(written * 1e9 / capacity, 2)} × the user capacity` : ''} (the seconds' write MB added up).` });
	}

	function iopsMatrix(section, m) {
		const blocks = [...new Set(m.iops.map((e) => e.spec.blockSizeBytes))].sort((a, b) => b - a);
		const mixes = [...new Set(m.iops.map((e) => e.readPercent))].sort((a, b) => MIXES.indexOf(a) - MIXES.indexOf(b) || b - a);
		const cell = (mix, block) => m.iops.find((e) => e.readPercent === mix && e.spec.blockSizeBytes === block);
		section.append(el('h3', {}, 'IOPS: read/write mix × block size (mean over the measurement window)'),
			el('table', { id: 'snia-iops-table' },
				el('thead', {}, el('tr', {}, el('th', {}, 'R/W mix'), blocks.map((b) => el('th', { class: 'num' }, blockLabel(b))))),
				el('tbody', {}, mixes.map((mix) => el('tr', { 'data-mix': mixLabel(mix) }, el('th', {}, mixLabel(mix)),
					blocks.map((b) => {
						const e = cell(mix, b);
						return el('td', { class: 'num', 'data-block': b }, e ? num(e.figures.iops, 1) : '—');
					}))))));
		if (blocks.length < 2) {
			return;
		}
		const plot = el('div', { id: 'snia-iops-plot' });
		section.append(plot);
		Charts.xy(plot, {
			title: 'IOPS vs block size, one line per read/write mix', xLabel: 'block size', yLabel: 'IOPS', xLog: true, yLog: true,
			xValues: (v) => blockLabel(v),
			series: mixes.map((mix, i) => {
				const row = blocks.map((b) => cell(mix, b)).filter(Boolean);
				return { label: mixLabel(mix), x: row.map((e) => e.spec.blockSizeBytes), y: row.map((e) => e.figures.iops), color: Charts.PALETTE[i % Charts.PALETTE.length] };
			}) });
	}

	function throughputTable(section, m) {
		// One row per block size; where a block size and direction come back in several phases
		// (cross-stimulus recovery's two sequential segments), one row per phase, named.
		const rows = [];
		for (const b of [...new Set(m.throughput.map((e) => e.spec.blockSizeBytes))].sort((x, y) => x - y)) {
			const of = m.throughput.filter((e) => e.spec.blockSizeBytes === b);
			const repeated = [100, 0].some((r) => of.filter((e) => e.readPercent === r).length > 1);
			for (const name of repeated ? [...new Set(of.map((e) => e.phaseName))] : [null]) {
				const cell = (read) => of.find((e) => e.readPercent === read && (name == null || e.phaseName === name));
				rows.push(el('tr', { 'data-block': b, 'data-phase': name }, el('th', {}, name ? `${blockLabel(b)} (${name})` : blockLabel(b)),
					[100, 0].map((r) => el('td', { class: 'num' }, cell(r) ? num(cell(r).figures.mbps, 1) : '—'))));
			}
		}
		section.append(el('h3', {}, 'Throughput: sequential, MB/s (mean over the measurement window)'),
			el('table', { id: 'snia-throughput-table' },
				el('thead', {}, el('tr', {}, el('th', {}, 'block size'), el('th', { class: 'num' }, '100 % read'), el('th', { class: 'num' }, '100 % write'))),
				el('tbody', {}, rows)));
	}

	/**
	 * QD 1 latency, one row per element: SNIA's average and maximum response time and the five
	 * nines, of all the element's IOs and of its reads and writes apart (a 65/35 mix has both).
	 */
	function latencyTable(section, m) {
		const us = (ns) => (ns == null ? '—' : num(ns / 1000, 1));
		const rows = [...m.latency].sort((a, b) => a.spec.blockSizeBytes - b.spec.blockSizeBytes || b.readPercent - a.readPercent);
		const columns = [['ios', 'IOs'], ['meanLatencyNs', 'average'], ['maxLatencyNs', 'maximum'], ['p99999Ns', 'P99.999'],
			['readP99999Ns', 'P99.999 read'], ['writeP99999Ns', 'P99.999 write']];
		const cell = (f, [key]) => el('td', { class: 'num', 'data-figure': key, 'data-value': f[key] == null ? null : String(f[key]) },
			key === 'ios' ? (f.ios == null ? '—' : num(f.ios, 0)) : us(f[key]));
		section.append(el('h3', {}, 'Latency at QD 1: average, maximum and five nines (µs)'),
			el('table', { id: 'snia-latency-table' },
				el('thead', {}, el('tr', {}, el('th', {}, 'block size'), el('th', {}, 'R/W mix'), el('th', { class: 'num' }, 'IOPS'),
					columns.map(([, label]) => el('th', { class: 'num' }, label)), el('th', {}, 'source'))),
				el('tbody', {}, rows.map((e) => el('tr', { 'data-block': e.spec.blockSizeBytes, 'data-mix': mixLabel(e.readPercent), 'data-step': e.step == null ? null : String(e.step) },
					el('td', {}, blockLabel(e.spec.blockSizeBytes)), el('td', {}, mixLabel(e.readPercent)), el('td', { class: 'num' }, num(e.figures.iops, 1)),
					columns.map((c) => cell(e.figures, c)), el('td', {}, e.figures.latencySource))))),
			el('p', { class: 'muted' }, 'A step of a phase with rounds: its IOs in the measurement window\'s rounds, from the runner\'s '
				+ 'merge of the step\'s histograms of those rounds; a whole phase: all its IOs, from its merged histogram. Average and maximum are exact; '
				+ 'P99.999 is the latency 99.999 % of the IOs did not exceed (log-linear histogram, ≤ 1 % value error), of all the '
				+ 'element\'s IOs and of its reads and writes apart. —: not measured (no IO in that direction, percentiles of a whole '
				+ 'phase\'s mix, or a runner that reported per-second figures only).'));
	}

	/** Appends the SNIA pages to the report; data as Report.render takes it. */
	function render(container, data) {
		const m = model(data.job, data.samples);
		const section = el('section', { id: 'snia-section', class: 'snia' }, el('h2', {}, 'SNIA PTS report pages'));
		container.append(section);
		// A steady-state page needs a window: five rounds at least, or adaptive rounds; a write
		// saturation test has its page whatever its length.
		const tracked = m.tests.filter((t) => t.rounds || t.saturation || t.tracking.length >= 5);
		for (const test of tracked) {
			const page = el('div', { class: 'snia-page', id: `snia-page-${test.spec.index}`, 'data-phase': test.spec.name });
			section.append(page);
			page.append(el('h3', {}, `Test: ${test.spec.name}`), setupHeader(data.job, m, test));
			convergence(page, test, `snia-convergence-${test.spec.index}`);
			measurementWindow(page, test, `snia-window-${test.spec.index}`);
			if (test.saturation) {
				saturation(page, data.job, test);
			}
		}
		if (m.iops.length) {
			iopsMatrix(section, m);
		}
		if (m.throughput.length) {
			throughputTable(section, m);
		}
		if (m.latency.length) {
			latencyTable(section, m);
		}
		if (!tracked.length && !m.iops.length && !m.throughput.length && !m.latency.length) {
			section.append(el('p', { class: 'muted' }, 'No workload phase with rounds or results.'));
		}
		return m;
	}

	/** The phases whose samples the pages need: every workload phase of the plan. */
	function phasesNeeded(job) {
		return (job.plan || []).filter((s) => s.kind === 'workload').map((s) => s.index);
	}

	return { render, model, phasesNeeded, fit };
})();
