/*
 * The report's OCP tables, inside "Drive health": every member of the drive's OCP SMART / Health
 * Information Extended log (C0h) at the job's first and last reading that had it, with the change
 * (the members the criteria judge marked), and its Latency Monitor log (C3h): commands per latency
 * bucket and direction, before and after. A drive without a log gets the runner's reason instead.
 * docs/methodology.md "The OCP logs" defines them.
 */
'use strict';

const Ocp = (() => {
	const { el, num } = DQ;
	// Labels of the C0h members, in the contract's words (schemas/messages/common.schema.json).
	const LABELS = {
		logPageVersion: 'Log page version',
		physicalMediaUnitsWrittenBytes: 'Physical media bytes written',
		physicalMediaUnitsReadBytes: 'Physical media bytes read',
		badUserNandBlocks: 'Bad user NAND blocks',
		badUserNandBlocksNormalized: 'Bad user NAND blocks (normalized)',
		badSystemNandBlocks: 'Bad system NAND blocks',
		badSystemNandBlocksNormalized: 'Bad system NAND blocks (normalized)',
		xorRecoveryCount: 'XOR recoveries',
		uncorrectableReadErrors: 'Uncorrectable read errors',
		softEccErrors: 'Soft ECC errors',
		endToEndDetectedErrors: 'End-to-end errors detected',
		endToEndCorrectedErrors: 'End-to-end errors corrected',
		systemDataPercentUsed: 'System data used (%)',
		refreshCount: 'Refreshes',
		userDataEraseCountMax: 'User data erases, max',
		userDataEraseCountMin: 'User data erases, min',
		thermalThrottlingEvents: 'Thermal throttling events',
		thermalThrottlingStatus: 'Thermal throttling status',
		dssdSpecVersionMajor: 'OCP DSSD spec version, major',
		dssdSpecVersionMinor: 'OCP DSSD spec version, minor',
		dssdSpecVersionPoint: 'OCP DSSD spec version, point',
		dssdSpecVersionErrata: 'OCP DSSD spec version, errata',
		pcieCorrectableErrors: 'PCIe correctable errors',
		incompleteShutdowns: 'Incomplete shutdowns',
		percentFreeBlocks: 'Free blocks (%)',
		capacitorHealth: 'Capacitor health (%)',
		nvmeBaseErrataVersion: 'NVMe base errata version',
		nvmeCommandSetErrataVersion: 'NVM command set errata version',
		nvmeOverPcieErrataVersion: 'NVMe over PCIe errata version',
		nvmeMiErrataVersion: 'NVMe-MI errata version',
		unalignedIo: 'Unaligned IOs',
		securityVersionNumber: 'Security version number',
		totalNuse: 'Total NUSE (blocks)',
		plpStartCount: 'PLP starts',
		enduranceEstimate: 'Endurance estimate',
		pcieLinkRetrainingCount: 'PCIe link retrainings',
		powerStateChangeCount: 'Power state changes',
		lowestPermittedFirmwareRevision: 'Lowest permitted firmware revision',
		totalMediaDies: 'Media dies',
		totalDieFailureTolerance: 'Die failure tolerance',
		mediaDiesOffline: 'Media dies offline',
		maxTemperatureRecorded: 'Max temperature recorded',
		formFactor: 'Form factor',
		nandAverageEraseCount: 'NAND erases, average',
		commandTimeouts: 'Command timeouts',
		systemAreaProgramFails: 'System area program failures',
		systemAreaProgramFailsNormalized: 'System area program failures (normalized)',
		systemAreaUncorrectableReads: 'System area uncorrectable reads',
		systemAreaUncorrectableReadsNormalized: 'System area uncorrectable reads (normalized)',
		systemAreaEraseFails: 'System area erase failures',
		systemAreaEraseFailsNormalized: 'System area erase failures (normalized)',
		maxPeakPowerCapability: 'Max peak power capability',
		currentMaxAveragePower: 'Current max average power',
		lifetimePowerConsumed: 'Lifetime power consumed',
		dieInUseBadNandBlocks: 'Bad NAND blocks on dies in use',
		dieInUseBadNandBlocksNormalized: 'Bad NAND blocks on dies in use (normalized)',
		nandEraseCount: 'NAND erases, sum (simulated drive)',
	};
	// The members a criterion judges by their change (docs/methodology.md), with its metric.
	const JUDGED = {
		uncorrectableReadErrors: 'ocpUncorrectableReadErrorsDelta',
		incompleteShutdowns: 'ocpIncompleteShutdownsDelta',
		endToEndDetectedErrors: 'ocpEndToEndDetectedErrorsDelta',
		badUserNandBlocks: 'ocpBadUserNandBlocksDelta',
		badSystemNandBlocks: 'ocpBadSystemNandBlocksDelta',
		xorRecoveryCount: 'ocpXorRecoveryCountDelta',
		pcieCorrectableErrors: 'ocpPcieCorrectableErrorsDelta',
		thermalThrottlingEvents: 'ocpThermalThrottlingEventsDelta',
	};
	const DIRECTIONS = ['read', 'write', 'deallocate'];

	function where(reading, phases) {
		const phase = phases.find((p) => p.phaseIndex === reading.phaseIndex);
		return `phase ${phase ? phase.phaseName : reading.phaseIndex}, ${num(reading.elapsedMs / 1000, 0)} s`;
	}

	function firstReason(readings, field) {
		const reading = readings.find((r) => r[field]);
		return reading ? reading[field] : null;
	}

	function delta(before, after) {
		if (before == null || after == null) {
			return '—';
		}
		const d = after - before;
		return d > 0 ? `+${num(d)}` : num(d);
	}

	function c0Table(readings, phases) {
		const withOcp = readings.filter((r) => r.available && r.ocp);
		if (!withOcp.length) {
			const reason = firstReason(readings, 'ocpReason');
			return el('p', { id: 'ocp-c0-missing', class: 'muted' }, `No OCP C0h log: ${reason || 'no reading carried one.'}`);
		}
		const first = withOcp[0];
		const last = withOcp[withOcp.length - 1];
		const members = Object.keys(last.ocp);
		Object.keys(first.ocp).filter((m) => !members.includes(m)).forEach((m) => members.push(m));
		const rows = members.map((member) => {
			const before = first.ocp[member];
			const after = last.ocp[member];
			const changed = before != null && after != null && after !== before;
			const judged = JUDGED[member];
			return el('tr', { 'data-member': member, class: changed && judged ? 'ocp-judged-changed' : '' },
				el('td', {}, LABELS[member] || member, judged ? el('span', { class: 'muted small' }, ` (${judged})`) : ''),
				el('td', { class: 'num' }, before != null ? num(before) : '—'),
				el('td', { class: 'num' }, after != null ? num(after) : '—'),
				el('td', { class: 'num' }, delta(before, after)));
		});
		return el('div', {},
			el('p', { class: 'muted small' }, `Version ${last.ocp.logPageVersion != null ? last.ocp.logPageVersion : '— (simulated drive)'}; before: the first reading with the log (${where(first, phases)}), after: the last (${where(last, phases)}); ${withOcp.length} readings had it. Counters count over the drive's life: Δ is what happened during the job. Marked rows changed and are judged by the criterion named.`),
			el('table', { id: 'ocp-c0-table' },
				el('thead', {}, el('tr', {}, ['member', 'before', 'after', 'Δ'].map((h) => el('th', {}, h)))),
				el('tbody', {}, rows)));
	}

	function c3Table(readings, phases) {
		const withMonitor = readings.filter((r) => r.available && r.latencyMonitor);
		if (!withMonitor.length) {
			const reason = firstReason(readings, 'latencyMonitorReason');
			return el('p', { id: 'ocp-c3-missing', class: 'muted' }, `No OCP latency monitor (C3h): ${reason || 'no reading carried one.'}`);
		}
		const first = withMonitor[0].latencyMonitor;
		const last = withMonitor[withMonitor.length - 1].latencyMonitor;
		const t = last.activeThresholdsMs;
		const heads = t.map((ms, i) => (i < t.length - 1 ? `${ms}–${t[i + 1]} ms` : `≥ ${ms} ms`));
		const rows = DIRECTIONS.map((direction) => el('tr', { 'data-direction': direction },
			el('td', {}, direction),
			...last.activeBuckets[direction].map((after, bucket) => {
				const before = first.activeBuckets[direction][bucket];
				return el('td', { class: 'num' }, `${num(before)} → ${num(after)} (${delta(before, after)})`);
			})));
		return el('div', {},
			el('p', { class: 'muted small' }, `Commands the drive itself counted per latency bucket (active buckets, before → after, Δ), thresholds A–D ${t.join(' / ')} ms, active bucket timer ${num(last.activeBucketTimerMin)} of ${num(last.activeBucketTimerThresholdMin)} min, log page version ${last.logPageVersion}; from ${where(withMonitor[0], phases)} to ${where(withMonitor[withMonitor.length - 1], phases)}.`),
			el('table', { id: 'ocp-c3-table' },
				el('thead', {}, el('tr', {}, ['direction', ...heads].map((h) => el('th', {}, h)))),
				el('tbody', {}, rows)));
	}

	/** readings: the job's health readings; phases: the analysis' health phases (names). */
	function render(section, readings, phases) {
		section.append(el('h3', { id: 'ocp-section' }, 'OCP SMART / Health Information Extended (C0h)'),
			c0Table(readings, phases || []),
			el('h3', {}, 'OCP latency monitor (C3h)'),
			c3Table(readings, phases || []));
	}

	return { render };
})();
