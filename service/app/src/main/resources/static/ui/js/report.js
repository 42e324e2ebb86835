/*
 * The report of one finished job, built from what the API returns (job with analysis, profile,
 * samples, health readings): the seeds' three IOPS charts, per-second latency, the drive's health
 * (js/health.js), and the tables of
 * docs/methodology.md — steady state, consistency, latency QoS, effective queue depth, throughput,
 * WAF and endurance, TRIM and idle recovery, purge proofs and data verify — with the verdict and
 * each criterion's measured value against its limit.
 * Also used by the self-contained HTML export, which embeds the same data.
 */
'use strict';

const Report = (() => {
	const { el, num, duration, bytes, time, measure } = DQ;
	const FINAL = ['COMPLETED', 'FAILED', 'CANCELLED', 'INTERRUPTED'];

	/** STEADY_STATE_IOPS -> steadyStateIops */
	function wireName(metric) {
		return metric.toLowerCase().replace(/_([a-z0-9])/g, (m, c) => c.toUpperCase());
	}

	function us(ns) {
		return ns == null ? '—' : num(ns / 1000, 1);
	}

	function phasesOf(job) {
		return (job.analysis && job.analysis.phases) || [];
	}

	/** The phase the charts show: the profile's primary phase, else the longest random workload. */
	function chartPhase(job, profile, wanted) {
		const phases = phasesOf(job);
		if (wanted != null) {
			return phases.find((p) => p.phaseIndex === wanted) || null;
		}
		const primary = profile && profile.primaryPhase;
		const named = phases.find((p) => p.phaseName === primary && p.iops);
		if (named) {
			return named;
		}
		const random = phases.filter((p) => p.iops).sort((a, b) => b.samples - a.samples);
		if (random.length) {
			return random[0];
		}
		return phases.filter((p) => p.samples > 0).sort((a, b) => b.samples - a.samples)[0] || null;
	}

	function kv(rows, id) {
		return el('table', { class: 'kv', id }, rows.filter(Boolean).map(([k, v]) => el('tr', {}, el('th', {}, k), el('td', {}, v))));
	}

	function table(id, head, rows, numeric) {
		return el('table', { id },
			el('thead', {}, el('tr', {}, head.map((h, i) => el('th', { class: numeric && numeric(i) ? 'num' : null }, h)))),
			el('tbody', {}, rows.map((r) => el('tr', r.attrs || {}, (r.cells || r).map((c, i) => el('td', { class: numeric && numeric(i) ? 'num' : null }, c))))));
	}

	function summary(job, profile) {
		const d = job.drive || {};
		const span = job.startedAt && job.endedAt ? (Date.parse(job.endedAt) - Date.parse(job.startedAt)) / 1000 : null;
		return kv([
			['Job', job.id],
			['State', el('span', { class: 'badge ' + job.state, id: 'job-state' }, job.state)],
			['Drive', `${d.model || '?'} — serial ${d.serial}, firmware ${d.firmware || '?'}`],
			['Capacity', d.capacityBytes ? `${bytes(d.capacityBytes)} (LBA ${d.lbaSizeBytes} B)` : '—'],
			['Runner / engine', `${d.runnerId || '?'} / ${d.engine || '?'} ${d.transportAddress ? '(' + d.transportAddress + ')' : ''}`],
			['Profile', profile ? `${job.profile} — ${profile.title}` : (job.profile || 'explicit phases')],
			job.criteriaSet ? ['Criteria set', el('span', { id: 'criteria-set' }, job.criteriaSet)] : null,
			job.analysisSettings && job.analysisSettings.rangeWritesRequired != null ? ['W (this job)', `${num(job.analysisSettings.rangeWritesRequired, 2)} × the tested range of random writes: the steady-state rule's last resort, when neither the drive's media writes nor a cliff in the IOPS shows where the fresh state ended`] : null,
			['Submitted by', job.submitter],
			['Ran', `${time(job.startedAt)} → ${time(job.endedAt)}${span != null ? ' (' + duration(span) + ' wall clock)' : ''}`],
			job.failureReason ? ['Failure', job.failureReason] : null,
			job.message ? ['Message', job.message] : null,
		], 'summary-table');
	}

	function verdict(job) {
		const v = job.analysis && job.analysis.verdict;
		const section = el('section', { id: 'verdict-section' }, el('h2', {}, 'Verdict'));
		if (!v) {
			section.append(el('p', { class: 'muted', id: 'verdict' }, FINAL.includes(job.state) && job.state !== 'COMPLETED'
				? `No verdict: the job ended ${job.state}.` : 'No verdict yet: the analysis runs once every sample is indexed.'));
			return section;
		}
		section.append(el('p', { class: 'verdict ' + v.outcome, id: 'verdict' }, v.outcome));
		const criteria = job.criteria || [];
		section.append(table('criteria-table', ['criterion', 'phase', 'measured', 'limit', 'outcome', 'explanation'],
			v.criteria.map((c, i) => {
				const metric = (criteria[i] && criteria[i].metric) || wireName(c.criterion.metric);
				const comparator = c.criterion.comparison === 'AT_MOST' ? '≤' : '≥';
				return {
					attrs: { 'data-metric': metric },
					cells: [metric, c.measuredInPhase || c.criterion.phaseName || '—',
						c.measured != null ? num(c.measured, Math.abs(c.measured) < 10 ? 4 : 1) : (c.reason || 'unknown'),
						`${comparator} ${num(c.criterion.limit, 4)}`, el('span', { class: 'badge ' + c.outcome }, c.outcome),
						c.explanation || ''],
				};
			}), (i) => i === 2 || i === 3));
		if (!v.criteria.length) {
			section.append(el('p', { class: 'muted' }, 'No criteria were given, so nothing was checked (INCONCLUSIVE).'));
		}
		return section;
	}

	/** The seeds' three charts and per-second latency of one phase. */
	function charts(section, job, phase, samples, options) {
		const t = samples.map((s) => s.t);
		const iops = samples.map((s) => s.readIops + s.writeIops);
		const ss = phase && phase.iops && phase.iops.steadyState;
		const win = steadyWindow(ss);
		const bands = win ? [{ from: win.windowStartS, to: win.windowEndS, label: `steady state (last five rounds, ${win.firstRoundIndex}–${win.lastRoundIndex})` }] : [];
		const fixed = phase && phase.iops && phase.iops.fixedWindowConsistency;
		const marks = fixed ? [{ at: fixed.firstT, label: `t ≥ ${fixed.firstT} s window` }] : [];
		const firstEligible = ss && ss.firstEligibleRound != null && ss.eligibility && ss.eligibility.applies ? ss.rounds[ss.firstEligibleRound] : null;
		if (firstEligible && firstEligible.index > 0) {
			marks.push({ at: firstEligible.startExclusiveS, label: `first eligible round (${firstEligible.index})` });
		}
		const zoomFrom = fixed ? fixed.firstT : (win ? win.windowStartS : (t.length ? t[Math.floor(t.length * 2 / 3)] : 0));
		const zoomWhy = fixed ? `from t = ${fixed.firstT} s, the seeds' zoom of a 2000 s run` : (win ? `from the start of the steady-state window (t = ${win.windowStartS} s)` : 'the last third of the phase (not steady at its end)');
		const label = `${job.drive.model || job.drive.serial} (${phase ? phase.phaseName : 'phase'})`;
		const series = [{ label, t, values: iops }];
		const what = phase ? phase.phaseName : 'phase';
		const ids = options || {};
		section.append(el('div', { id: ids.whole || 'chart-whole' }), el('div', { id: ids.steadyLog || 'chart-steady-log' }),
			el('div', { id: ids.steadyLinear || 'chart-steady-linear' }), el('div', { id: ids.latency || 'chart-latency' }));
		Charts.scatter(section.querySelector('#' + (ids.whole || 'chart-whole')), {
			title: `1. The whole run: IOPS each second of ${what} (log scale)`, log: true, series, bands, marks,
			caption: 'One point per second. Shaded: the steady-state window (the last five rounds, when they hold). Dashed: the first round eligible for steady state.' });
		Charts.scatter(section.querySelector('#' + (ids.steadyLog || 'chart-steady-log')), {
			title: `2. Steady state, ${zoomWhy} (log scale)`, log: true, from: zoomFrom, series, bands });
		Charts.scatter(section.querySelector('#' + (ids.steadyLinear || 'chart-steady-linear')), {
			title: '3. The same on a linear scale', log: false, from: zoomFrom, series, bands });
		const hasWrites = samples.some((s) => s.writeIops > 0);
		const hasReads = samples.some((s) => s.readIops > 0);
		const lat = [];
		const add = (dir, key, name, color, dash) => lat.push({ label: `${dir} ${name}`, color, dash,
			values: samples.map((s) => (s[key] ? s[key][name === 'p99.9' ? 'p999' : name] / 1e6 : null)) });
		for (const [dir, key, on, dash] of [['write', 'writeLatencyNs', hasWrites, null], ['read', 'readLatencyNs', hasReads, [6, 3]]]) {
			if (on) {
				add(dir, key, 'p50', '#2a9d5c', dash);
				add(dir, key, 'p99', '#1f5fbf', dash);
				add(dir, key, 'p99.9', '#e08a00', dash);
				add(dir, key, 'max', '#d1495b', dash);
			}
		}
		Charts.lines(section.querySelector('#' + (ids.latency || 'chart-latency')), {
			title: `4. Per-second latency percentiles of ${what}`, yLabel: 'latency (ms)', t, series: lat, bands,
			caption: 'Percentiles of each second\'s IOs, measured from submission to completion.' });
	}

	/** The window the steady-state figures come from: the last five rounds, when they hold. */
	function steadyWindow(ss) {
		return ss && ss.end && ss.end.holds ? ss.end.window : null;
	}

	function rangeWrites(value) {
		return value == null ? '—' : `${num(value, 2)} ×`;
	}

	function windowText(w) {
		return `rounds ${w.firstRoundIndex}–${w.lastRoundIndex}: ${w.windowStartS} s < t ≤ ${w.windowEndS} s, avg ${num(w.avgIops, 1)} IOPS, range ${num(w.rangePercent, 2)} % ${w.rangeWithinBound ? '✓' : '✗'}, slope excursion ${num(w.slopeExcursionPercent, 2)} % ${w.slopeWithinBound ? '✓' : '✗'}`;
	}

	const EVIDENCE = {
		'media-writes': 'the drive\'s media writes (OCP C0h)',
		'iops-cliff': 'the cliff in the IOPS record',
		'written-bytes': 'the written-bytes fallback',
		'no-reset': 'SNIA\'s published rules (no purge or fill known)',
		'read-only': 'nothing (the phase only reads)',
	};

	function horizonText(h) {
		return `rounds ${h.firstRoundIndex}–${h.lastRoundIndex}: drift ${h.slopePercentPerRound >= 0 ? '+' : ''}${num(h.slopePercentPerRound, 2)} % per round, excursion ${num(h.slopeExcursionPercent, 2)} % (bound ${h.crossed ? 10 : 5} %), range ${num(h.rangePercent, 2)} % (bound 20 %) ${h.holds ? '✓' : '✗'}`;
	}

	function steadyState(phase) {
		const ss = phase.iops && phase.iops.steadyState;
		const section = el('section', { id: 'steady-state-section' }, el('h2', {}, `Steady state (SNIA PTS) — ${phase.phaseName}`));
		if (!ss) {
			section.append(el('p', { class: 'muted' }, 'Not a random workload: no rounds.'));
			return section;
		}
		const e = ss.eligibility || {};
		const end = ss.end || {};
		const w = ss.window;
		const steady = steadyWindow(ss);
		const fresh = ss.freshState || {};
		const trend = ss.trend || {};
		const horizon = end.horizon;
		section.append(kv([
			['Answer', el('strong', { id: 'ss-answer' }, ss.answer || '')],
			['Steady at end (the steady-state figures)', el('strong', { id: 'ss-end' }, end.holds ? 'yes' : 'no')],
			end.window ? ['End window', el('span', { id: 'ss-end-window' }, windowText(end.window))] : ['End window', 'fewer than five counted rounds at the end of the phase'],
			horizon ? ['Horizon (the level must also hold here)', el('span', { id: 'ss-horizon' }, horizonText(horizon))] : null,
			steady ? ['Steady-state IOPS', el('span', { id: 'ss-avg' }, num(steady.avgIops, 1))] : ['Steady-state IOPS', el('span', { id: 'ss-avg' }, 'none (INCONCLUSIVE for criteria on it)')],
			!end.holds && end.failures ? ['Why not', el('ul', { id: 'ss-end-failures' }, end.failures.map((f) => el('li', {}, f.message)))] : null,
			trend.driftPercentPerRound != null ? ['Drift at the end', el('span', { id: 'ss-drift' }, `${trend.driftPercentPerRound >= 0 ? '+' : ''}${num(trend.driftPercentPerRound, 2)} % per round (last ten eligible rounds)`)] : null,
			trend.projection ? ['Projected level (not measured)', el('span', { id: 'ss-projection', class: 'projection' }, `~${num(trend.projection.levelIops, 0)} ± ${num(trend.projection.uncertaintyIops, 0)} IOPS, fitted to rounds ${trend.projection.firstRoundIndex}–${trend.projection.lastRoundIndex}; a projection never satisfies a criterion`)] : null,
			!end.holds && trend.cannotProject ? ['Projected level', el('span', { id: 'ss-projection' }, trend.cannotProject)] : null,
			['Reached', el('strong', { id: 'ss-reached' }, ss.reached ? `yes, at round ${w.lastRoundIndex}` : 'no')],
			w ? [ss.reached ? 'Reached window' : 'Last eligible window evaluated', el('span', { id: 'ss-window' }, windowText(w))] : ['Reached window', 'no five consecutive counted, eligible rounds'],
			['Fresh state decided by', el('span', { id: 'ss-evidence', 'data-evidence': fresh.evidence || '' }, `${EVIDENCE[fresh.evidence] || fresh.evidence || '—'}: ${fresh.statement || ''}`)],
			['First eligible round', ss.firstEligibleRound != null ? String(ss.firstEligibleRound) : 'none'],
			['Round length', `${ss.roundLengthS} s${ss.maxRounds ? ', at most ' + ss.maxRounds + ' rounds' : ''}`],
			['Eligible windows evaluated', ss.windowsEvaluated],
		], 'steady-state-table'));
		const rounds = ss.rounds || [];
		const inWindow = (r, x) => x && r.index >= x.firstRoundIndex && r.index <= x.lastRoundIndex;
		const reference = steady || end.window;
		section.append(el('h3', {}, 'Rounds'), table('rounds-table',
			['round', 't (s)', 'seconds', 'counted', 'eligible', 'random writes at start (× range)', 'mean IOPS', 'WAF (drive)', 'window', reference ? 'vs end-window avg' : ''],
			rounds.map((r) => ({
				attrs: { class: [r.eligible ? null : 'ineligible', inWindow(r, end.window) ? 'end-window' : null, ss.reached && inWindow(r, w) ? 'reached-window' : null].filter(Boolean).join(' ') || null, 'data-round': r.index, 'data-eligible': String(r.eligible) },
				cells: [r.index, `${r.startExclusiveS}–${r.endInclusiveS}`, r.secondsPresent, r.counted ? 'yes' : 'no',
					r.eligible ? 'yes' : 'no', e.applies ? rangeWrites(r.rangeWritesAtStart) : '—',
					r.meanIops != null ? num(r.meanIops, 1) : '—',
					r.waf != null ? num(r.waf, 2) : '—',
					[ss.reached && inWindow(r, w) ? 'reached' : null, inWindow(r, end.window) ? 'end' : null].filter(Boolean).join(', '),
					reference && r.meanIops != null ? (r.meanIops >= reference.avgIops ? '+' : '') + num(100 * (r.meanIops - reference.avgIops) / reference.avgIops, 1) + ' %' : ''],
			})), (i) => i !== 1 && i !== 3 && i !== 4 && i !== 8),
			el('p', { class: 'muted small' }, 'Grey rows are not eligible: they are in the drive\'s fresh state, which ends where the drive\'s own media writes show garbage collection (WAF ≥ 1.10), else at the cliff after the plateau, else after W × the tested range of random writes. "reached": the first eligible window that meets SNIA\'s bounds and whose level also holds over its horizon (ten rounds, or as many as write 5 % of the tested range); "end": the last five rounds, whose figures are the steady-state figures when they hold. WAF (drive): the round\'s media bytes over its host bytes, from the drive\'s OCP C0h and SMART counters.'));
		return section;
	}

	const CONSISTENCY_ROWS = [
		['ratio (P0.1 / mean)', (c) => num(c.ratio, 4), 'ratio'],
		['seconds (N)', (c) => c.sampleCount],
		['t range (s)', (c) => `${c.firstT}–${c.lastT}`],
		['mean IOPS', (c) => num(c.meanIops, 1), 'meanIops'],
		['min IOPS', (c) => num(c.minIops)],
		['max IOPS', (c) => num(c.maxIops)],
		['std dev', (c) => num(c.stddevIops, 1)],
		['CV', (c) => num(c.cv, 4)],
		['P0.1', (c) => num(c.p0_1Iops)],
		['P1', (c) => num(c.p1Iops)],
		['P5', (c) => num(c.p5Iops)],
		['P50', (c) => num(c.p50Iops)],
		['P99', (c) => num(c.p99Iops)],
		['within ±10 % of mean', (c) => `${c.within10PercentCount} (${num(100 * c.within10PercentCount / c.sampleCount, 1)} %)`],
		['within ±20 % of mean', (c) => `${c.within20PercentCount} (${num(100 * c.within20PercentCount / c.sampleCount, 1)} %)`],
	];

	/** Rows of figures, one column per window (or per job in the compare view). */
	function consistencyTable(id, columns) {
		return table(id, ['figure', ...columns.map((c) => c.label)],
			CONSISTENCY_ROWS.map(([name, f, key]) => ({
				attrs: key ? { 'data-figure': key } : {},
				cells: [name, ...columns.map((c) => (c.value ? f(c.value) : '—'))],
			})), (i) => i > 0);
	}

	function consistency(phase) {
		const iops = phase.iops || {};
		return el('section', { id: 'consistency-section' }, el('h2', {}, `Consistency — ${phase.phaseName}`),
			consistencyTable('consistency-table', [
				{ label: 'steady-state window (last five rounds)', value: iops.steadyStateConsistency },
				{ label: 'fixed window', value: iops.fixedWindowConsistency },
			]),
			el('p', { class: 'muted small' }, 'P0.1 / mean over the per-second IOPS of the window; percentiles are nearest-rank, so with N ≤ 1000 P0.1 is the slowest second.'));
	}

	const QOS = [['count', 'count'], ['min', 'minNs'], ['mean', 'meanNs'], ['P50', 'p50Ns'], ['P90', 'p90Ns'], ['P99', 'p99Ns'], ['P99.9', 'p99_9Ns'], ['P99.99', 'p99_99Ns'], ['P99.999', 'p99_999Ns'], ['P99.9999', 'p99_9999Ns'], ['max', 'maxNs']];

	function qosRows(phases) {
		const rows = [];
		for (const p of phases) {
			for (const [dir, q] of [['write', p.writeLatency], ['read', p.readLatency]]) {
				if (q) {
					rows.push({ attrs: { 'data-phase': p.phaseName, 'data-direction': dir },
						cells: [p.phaseName, dir, ...QOS.map(([, key]) => (key === 'count' ? num(q.count) : us(q[key])))] });
				}
			}
		}
		return rows;
	}

	function qos(job) {
		const rows = qosRows(phasesOf(job));
		return el('section', { id: 'qos-section' }, el('h2', {}, 'Latency QoS (µs, from the merged per-phase histogram)'),
			rows.length ? table('qos-table', ['phase', 'direction', ...QOS.map(([n]) => n)], rows, (i) => i > 1)
				: el('p', { class: 'muted' }, 'No latency histograms.'));
	}

	/**
	 * What ended a phase: the limit a workload reached, or how its adaptive rounds stopped; a
	 * phase the runner skipped (a sweep stopped at saturation) says so and why.
	 */
	function endedBy(p) {
		if (p.skipped) {
			return p.skipped.message;
		}
		if (p.limitReached) {
			return p.limitReached === 'runtimeS' ? 'its time (runtimeS)' : 'its size (sizeBytes)';
		}
		if (p.rounds) {
			return p.rounds.stoppedBecause === 'steady' ? `steady state at round ${p.rounds.reachedAtRound}` : `${p.rounds.roundsRun} rounds (the maximum)`;
		}
		return '—';
	}

	function throughput(job) {
		const rows = phasesOf(job).filter((p) => p.throughput).map((p) => [p.phaseName, p.kind, p.throughput.seconds, bytes(p.throughput.totalBytes), num(p.throughput.meanMBps, 1)]);
		const qd = (p) => (p.queueDepth ? [num(p.queueDepth.effective, 3), num(p.queueDepth.meanLatencyTimesIops, 3), num(p.queueDepth.ratio, 4)] : ['—', '—', '—']);
		const phases = phasesOf(job).map((p) => [p.phaseIndex, p.phaseName, p.kind, endedBy(p), p.samples, p.expectedSamples == null ? '—' : p.expectedSamples, ...qd(p)]);
		return el('section', { id: 'phases-section' }, el('h2', {}, 'Phases'),
			table('phases-table', ['#', 'phase', 'kind', 'ended by', 'samples indexed', 'samples reported', 'effective QD', 'mean latency × IOPS', 'ratio (Little)'], phases, (i) => i === 0 || i > 3),
			rows.length ? el('h3', {}, 'Sequential throughput') : null,
			rows.length ? table('throughput-table', ['phase', 'kind', 'seconds', 'bytes', 'mean MB/s'], rows, (i) => i > 1) : null);
	}

	// Where a TBW comes from, in words: a vendor's rating is shown beside the measurement, never as one.
	function tbwSource(endurance) {
		switch (endurance.source) {
			case 'PROJECTED_FROM_PE_CYCLES': return 'projected from the measured WAF';
			case 'RATED_TBW': return 'vendor\'s rating, not measured (' + endurance.projectionGap + ')';
			default: return 'unknown';
		}
	}

	function waf(job) {
		const rows = phasesOf(job).filter((p) => p.waf).map((p) => ({
			attrs: { 'data-phase': p.phaseName },
			cells: [p.phaseName, measure(p.waf.waf, (v) => num(v, 3)), bytes(p.waf.hostBytesWritten), bytes(p.waf.mediaBytesWritten),
				p.endurance ? measure(p.endurance.tbwBytes, bytes) : '—', p.endurance ? measure(p.endurance.dwpd, (v) => num(v, 2)) : '—',
				p.endurance && p.endurance.source ? tbwSource(p.endurance) : '—'],
		}));
		return el('section', { id: 'waf-section' }, el('h2', {}, 'Write amplification and endurance'),
			rows.length ? table('waf-table', ['phase', 'WAF', 'host bytes', 'media bytes', 'TBW', 'DWPD', 'TBW source'], rows, (i) => i > 0 && i < 6)
				: el('p', { class: 'muted' }, 'No phase took SMART snapshots.'));
	}

	/** The erase a purge phase ran, and whether SNIA's PTS counts it as a purge. */
	function purgeMethod(method) {
		if (!method) {
			return 'not reported by the runner';
		}
		return method === 'deallocate' ? 'deallocate (a TRIM: not a purge under SNIA PTS)' : method;
	}

		/** What a purge's read-back and a verify phase found (docs/methodology.md). */
	function readBack(job) {
		const purges = phasesOf(job).filter((p) => p.purgeVerification).map((p) => {
			const v = p.purgeVerification;
			return { attrs: { 'data-phase': p.phaseName, 'data-status': v.status, 'data-method': v.method || '' },
				cells: [p.phaseName, purgeMethod(v.method), v.status, v.coverage, v.canaryBlocks, v.blocksRead, v.lbasRead, bytes(v.bytesRead), v.blocksFound,
					v.reason || (v.firstFoundLbas || []).join(', ') || '—'] };
		});
		const verifies = phasesOf(job).filter((p) => p.verify).map((p) => {
			const v = p.verify;
			return { attrs: { 'data-phase': p.phaseName, 'data-mismatches': v.mismatches },
				cells: [p.phaseName, v.blocksChecked, v.unwrittenBlocks, bytes(v.bytesRead), v.mismatches,
					v.firstMismatches.map((m) => `LBA ${m.lba}: expected ${m.expected}; found ${m.found}`).join(' | ') || '—'] };
		});
		if (!purges.length && !verifies.length) {
			return null;
		}
		return el('section', { id: 'readback-section' }, el('h2', {}, 'Purge proof and data verify'),
			purges.length ? table('purge-table', ['phase', 'method that ran', 'status', 'coverage', 'canary blocks', 'blocks read', 'LBAs read', 'bytes read', 'blocks found', 'reason / first found LBAs'], purges, (i) => i > 3 && i < 9) : null,
			verifies.length ? table('verify-table', ['phase', 'blocks checked', 'not written by the job', 'bytes read', 'mismatches', 'first mismatches'], verifies, (i) => i > 0 && i < 5) : null);
	}

	/** One line per test: where the run departs from SNIA PTS (the analysis's sniaConformance). */
	function conformance(job) {
		const lines = (job.analysis && job.analysis.sniaConformance) || [];
		if (!lines.length) {
			return null;
		}
		const rows = lines.map((c) => ({ attrs: { 'data-phase': c.phaseName, 'data-conformant': String(c.conformant) },
			cells: [c.phaseName, c.line, c.purge, c.wipc, c.writeCache, c.activeRange, c.rounds] }));
		return el('section', { id: 'conformance-section' }, el('h2', {}, 'SNIA PTS conformance'),
			el('p', { class: 'muted small' }, 'Per test: the purge that ran (a deallocate is a TRIM, which PTS does not accept), the workload-independent preconditioning, the volatile write cache, the active range and the rounds; "not conformant" names every departure (docs/methodology.md).'),
			table('conformance-table', ['test', 'conformance', 'purge that ran', 'WIPC', 'write cache', 'active range', 'rounds'], rows, () => false));
	}

	function recovery(job) {
		const a = job.analysis || {};
		return el('section', { id: 'recovery-section' }, el('h2', {}, 'TRIM and idle recovery'),
			kv([
				['TRIM recovery (after − dirty) / (clean − dirty)', measure(a.trimRecovery, (v) => num(v, 3))],
				['Idle recovery (first 60 s after idle / steady state)', measure(a.idleRecovery, (v) => num(v, 3))],
			], 'recovery-table'));
	}

	function notes(job) {
		const list = (job.analysis && job.analysis.notes) || [];
		return list.length ? el('section', {}, el('h2', {}, 'Notes'), el('ul', {}, list.map((n) => el('li', {}, n)))) : null;
	}

	/**
	 * data: { job, profile, samples: { [phaseIndex]: [...] }, phaseIndex, health: [...] }
	 * Returns the element; charts render once it is in the document (they need a width).
	 */
	function render(container, data) {
		const { job, profile } = data;
		const phase = chartPhase(job, profile, data.phaseIndex);
		const samples = phase ? (data.samples[phase.phaseIndex] || []) : [];
		container.append(
			el('h1', { id: 'report-title' }, `Qualification report — ${job.drive.model || job.drive.serial}`),
			summary(job, profile),
			verdict(job));
		const chartSection = el('section', { id: 'charts-section' }, el('h2', {}, 'Charts' + (phase ? ` — ${phase.phaseName}` : '')));
		container.append(chartSection);
		if (phase && samples.length) {
			charts(chartSection, job, phase, samples);
		}
		else {
			chartSection.append(el('p', { class: 'muted' }, 'No per-second samples to chart.'));
		}
		if (typeof Health !== 'undefined') {
			Health.render(container, data, phase, samples);
		}
		if (phase && phase.iops) {
			container.append(steadyState(phase), consistency(phase));
		}
		if (typeof Snia !== 'undefined') {
			Snia.render(container, data);
		}
		if (typeof Streams !== 'undefined') {
			Streams.render(container, data);
		}
		container.append(qos(job), throughput(job), waf(job), recovery(job));
		const proofs = readBack(job);
		if (proofs) {
			container.append(proofs);
		}
		const pts = conformance(job);
		if (pts) {
			container.append(pts);
		}
		const n = notes(job);
		if (n) {
			container.append(n);
		}
		container.append(el('p', { class: 'muted small' }, 'Definitions: docs/methodology.md. Generated by drivequal from the job\'s indexed samples and analysis.'));
		return phase;
	}

	return { render, chartPhase, charts, consistencyTable, qosRows, QOS, wireName, FINAL, us, phasesOf, steadyWindow };
})();
