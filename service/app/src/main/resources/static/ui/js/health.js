/*
 * The report's "Drive health" section: the drive's temperature beside the IOPS of the charted
 * phase (readings on the phase's own time axis, its throttle and warning temperatures as levels,
 * the seconds the detector found throttled shaded), the job's health figures (hottest reading,
 * critical warnings decoded, media errors, spare, wear, throttling counted by the drive and found
 * by the detector), one row per phase, and the OCP logs (js/ocp.js). docs/methodology.md "Drive
 * health" defines them.
 */
'use strict';

const Health = (() => {
	const { el, num } = DQ;
	// NVMe SMART / Health log byte 0
	const WARNING_BITS = ['available spare below its threshold', 'temperature beyond a threshold',
		'reliability degraded (media or internal errors)', 'media placed in read-only mode',
		'volatile memory backup failed', 'persistent memory region read-only'];

	function celsius(kelvin) {
		return kelvin == null ? null : kelvin - 273.15;
	}

	function degrees(kelvin) {
		return kelvin == null ? '—' : `${num(celsius(kelvin), 1)} °C (${kelvin} K)`;
	}

	/** "0 — none" or the set bits, named. */
	function warningText(bits) {
		if (bits == null) {
			return '—';
		}
		if (bits === 0) {
			return '0 — none';
		}
		const names = WARNING_BITS.map((name, i) => ((bits >> i) & 1 ? `bit ${i}: ${name}` : null)).filter(Boolean);
		return `${bits} — ${names.join('; ')}`;
	}

	function where(extreme, phases) {
		if (!extreme) {
			return '';
		}
		const phase = phases.find((p) => p.phaseIndex === extreme.phaseIndex);
		return ` at ${num(extreme.elapsedMs / 1000, 0)} s into phase ${phase ? phase.phaseName : extreme.phaseIndex}`;
	}

	function latest(readings, field) {
		for (let i = readings.length - 1; i >= 0; i--) {
			if (readings[i][field] != null) {
				return readings[i][field];
			}
		}
		return null;
	}

	function summary(health, readings) {
		const s = health.summary;
		const phases = health.phases || [];
		const used = s.firstPercentageUsed != null ? `${s.firstPercentageUsed} % → ${s.lastPercentageUsed} %` : '—';
		const errors = s.firstMediaErrors != null ? `${num(s.lastMediaErrors - s.firstMediaErrors)} (${num(s.firstMediaErrors)} → ${num(s.lastMediaErrors)} over the drive's life)` : '—';
		const detected = health.thermalThrottleSeconds;
		return el('table', { class: 'kv', id: 'health-table' }, [
			['Readings', `${s.readings} (${s.availableReadings} with a health log)${s.unavailableReason ? ' — ' + s.unavailableReason : ''}`],
			['Hottest reading', el('span', { id: 'health-max-temperature' }, s.maxTemperature ? degrees(s.maxTemperature.value) + where(s.maxTemperature, phases) : '—')],
			['Critical warning bits seen', el('span', { id: 'health-critical-warning' }, s.availableReadings ? warningText(s.criticalWarningBits) + where(s.firstCriticalWarning, phases) : '—')],
			['New media errors', el('span', { id: 'health-media-errors' }, errors)],
			['Lowest available spare', s.minAvailableSparePercent != null ? `${s.minAvailableSparePercent} %` : '—'],
			['Endurance used', used],
			['Drive\'s limits', `throttle (TMT1) ${degrees(latest(readings, 'thermalManagementTemp1K'))}, warning (WCTEMP) ${degrees(latest(readings, 'warningTemperatureThresholdK'))}, critical (CCTEMP) ${degrees(latest(readings, 'criticalTemperatureThresholdK'))}`],
			['Throttled, as the drive counted it', s.driveThrottledS != null ? `${num(s.driveThrottledS)} s` : 'not reported'],
			['Throttled, as the detector found it', el('span', { id: 'health-throttled' }, detected && detected.known ? `${num(detected.number)} s` : (detected ? `unknown: ${detected.reason}` : '—'))],
		].map(([k, v]) => el('tr', {}, el('th', {}, k), el('td', {}, v))));
	}

	function phaseTable(health) {
		const rows = (health.phases || []).map((p) => {
			const t = p.throttle;
			let found = '—';
			if (t) {
				found = t.unknownReason ? `unknown: ${t.unknownReason}` : `${num(t.throttledSeconds)} s of ${num(t.hotSeconds)} hot s`
					+ (t.intervals.length ? ` (${t.intervals.slice(0, 4).map((i) => (i.firstT === i.lastT ? `${i.firstT}` : `${i.firstT}–${i.lastT}`)).join(', ')}${t.intervals.length > 4 ? ', …' : ''})` : '');
			}
			return { attrs: { 'data-phase': p.phaseName },
				cells: [p.phaseIndex, p.phaseName, p.kind, p.readings, p.maxTemperatureK != null ? num(celsius(p.maxTemperatureK), 1) : '—',
					t && t.thresholdK != null ? `${t.thresholdSource} ${num(celsius(t.thresholdK), 1)} °C` : '—', found,
					t && t.driveThrottledS != null ? `${num(t.driveThrottledS)} s` : '—'] };
		});
		return el('table', { id: 'health-phases-table' },
			el('thead', {}, el('tr', {}, ['#', 'phase', 'kind', 'readings', 'max °C', 'limit used', 'throttled (detector)', 'throttled (drive)'].map((h) => el('th', {}, h)))),
			el('tbody', {}, rows.map((r) => el('tr', r.attrs, r.cells.map((c) => el('td', {}, c))))));
	}

	/** The temperature of the charted phase beside its IOPS. */
	function chart(section, health, readings, phase, samples) {
		const mine = readings.filter((r) => r.phaseIndex === phase.phaseIndex && r.available && r.temperatureK != null);
		if (!mine.length) {
			section.append(el('p', { class: 'muted' }, `No temperature reading during phase ${phase.phaseName}.`));
			return;
		}
		const levels = [];
		const tmt1 = latest(mine, 'thermalManagementTemp1K');
		const wctemp = latest(mine, 'warningTemperatureThresholdK');
		const cctemp = latest(mine, 'criticalTemperatureThresholdK');
		if (tmt1 != null) {
			levels.push({ value: celsius(tmt1), label: `throttle (TMT1) ${num(celsius(tmt1), 1)} °C`, color: '#e08a00' });
		}
		if (wctemp != null) {
			levels.push({ value: celsius(wctemp), label: `warning (WCTEMP) ${num(celsius(wctemp), 1)} °C`, color: '#d1495b' });
		}
		if (cctemp != null) {
			levels.push({ value: celsius(cctemp), label: `critical (CCTEMP) ${num(celsius(cctemp), 1)} °C`, color: '#7b0d1e' });
		}
		const analysed = (health && health.phases || []).find((p) => p.phaseIndex === phase.phaseIndex);
		const intervals = analysed && analysed.throttle ? analysed.throttle.intervals : [];
		const bands = intervals.map((i, n) => ({ from: i.firstT - 1, to: i.lastT, color: 'rgba(224, 138, 0, 0.16)', labelColor: '#8a5200', label: n === 0 ? 'throttled (detector)' : '' }));
		const container = el('div', { id: 'chart-health' });
		section.append(container);
		Charts.dual(container, {
			title: `5. Temperature beside IOPS, ${phase.phaseName}`,
			caption: `IOPS each second (points, left axis) and the drive's composite temperature at each health reading (right axis), on the phase's own time axis. Shaded: seconds the detector found throttled (IOPS ≥ 20 % below the recent cool seconds while at the limit).`,
			left: { label: 'IOPS', t: samples.map((s) => s.t), values: samples.map((s) => s.readIops + s.writeIops), color: '#1f5fbf' },
			right: { label: 'temperature (°C)', t: mine.map((r) => r.elapsedMs / 1000), values: mine.map((r) => celsius(r.temperatureK)), color: '#d1495b', levels },
			bands,
		});
	}

	/**
	 * data.health: the job's readings (GET .../health); data.job.analysis.health: their analysis.
	 * phase, samples: the phase the report charts and its samples.
	 */
	function render(container, data, phase, samples) {
		const readings = data.health || [];
		const health = data.job.analysis && data.job.analysis.health;
		const section = el('section', { id: 'health-section' }, el('h2', {}, 'Drive health'));
		container.append(section);
		if (!readings.length && !health) {
			section.append(el('p', { class: 'muted' }, 'No health readings: the runner polled none during this job.'));
			return;
		}
		if (phase && samples.length) {
			chart(section, health, readings, phase, samples);
		}
		if (health) {
			section.append(summary(health, readings), el('h3', {}, 'Per phase'), phaseTable(health));
		}
		else {
			section.append(el('p', { class: 'muted' }, 'Health figures come with the analysis.'));
		}
		if (typeof Ocp !== 'undefined' && readings.length) {
			Ocp.render(section, readings, health ? health.phases : data.job.phases);
		}
	}

	return { render, warningText };
})();
