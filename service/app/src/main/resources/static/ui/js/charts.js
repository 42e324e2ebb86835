/*
 * The report's charts on uPlot (served from the application's WebJar): per-second IOPS scatters
 * on log and linear axes, several jobs overlaid, the steady-state window shaded, per-second
 * latency lines, and IOPS beside the drive's temperature on a second axis. uPlot draws 7200
 * points per job on a canvas without slowing the page.
 */
'use strict';

const Charts = (() => {
	const PALETTE = ['#1f5fbf', '#d1495b', '#2a9d5c', '#e08a00', '#7b4bb7', '#0093a8', '#6b6b6b', '#b5179e'];
	const HEIGHT = 300;
	const all = new Set();

	function width(container) {
		return Math.max(320, Math.floor(container.clientWidth || container.parentElement.clientWidth || 900) - 16);
	}

	/** Shaded x ranges and dashed x marks, drawn under the points. */
	function bandsPlugin(bands, marks) {
		return {
			hooks: {
				drawAxes: [(u) => {
					const ctx = u.ctx;
					const { top, height } = u.bbox;
					ctx.save();
					// uPlot leaves the axes' text alignment on the context.
					ctx.textAlign = 'left';
					ctx.textBaseline = 'alphabetic';
					for (const band of bands || []) {
						const x0 = u.valToPos(Math.max(band.from, u.scales.x.min), 'x', true);
						const x1 = u.valToPos(Math.min(band.to, u.scales.x.max), 'x', true);
						if (x1 <= x0) {
							continue;
						}
						ctx.fillStyle = band.color || 'rgba(42, 157, 92, 0.12)';
						ctx.fillRect(x0, top, x1 - x0, height);
						ctx.fillStyle = band.labelColor || '#1b7f3b';
						ctx.font = `${Math.round(11 * devicePixelRatio)}px sans-serif`;
						ctx.fillText(band.label || '', x0 + 4 * devicePixelRatio, top + 13 * devicePixelRatio);
					}
					for (const mark of marks || []) {
						if (mark.at < u.scales.x.min || mark.at > u.scales.x.max) {
							continue;
						}
						const x = u.valToPos(mark.at, 'x', true);
						ctx.strokeStyle = mark.color || '#8a6100';
						ctx.setLineDash([5 * devicePixelRatio, 4 * devicePixelRatio]);
						ctx.lineWidth = devicePixelRatio;
						ctx.beginPath();
						ctx.moveTo(x, top);
						ctx.lineTo(x, top + height);
						ctx.stroke();
						ctx.setLineDash([]);
						ctx.fillStyle = mark.color || '#8a6100';
						ctx.font = `${Math.round(11 * devicePixelRatio)}px sans-serif`;
						ctx.fillText(mark.label || '', x + 4 * devicePixelRatio, top + height - 6 * devicePixelRatio);
					}
					ctx.restore();
				}],
			},
		};
	}

	function logSplits(min, max) {
		const splits = [];
		for (let p = Math.floor(Math.log10(min)); p <= Math.ceil(Math.log10(max)); p++) {
			for (const m of [1, 2, 5]) {
				const v = m * Math.pow(10, p);
				if (v >= min * 0.999 && v <= max * 1.001) {
					splits.push(v);
				}
			}
		}
		return splits;
	}

	function frame(container, title, caption) {
		container.classList.add('chart');
		container.replaceChildren(...[
			DQ.el('div', { class: 'title' }, title),
			DQ.el('div', { class: 'plot' }),
			caption ? DQ.el('div', { class: 'caption' }, caption) : null].filter(Boolean));
		return container.querySelector('.plot');
	}

	/**
	 * Per-second IOPS of one or more jobs as a scatter.
	 * options: title, caption, xLabel (default: time in phase), yLabel, log (bool), from/to
	 * (t range), bands, marks, series: [{label, color, t: [...] (ascending), values: [...]}]
	 */
	function scatter(container, options) {
		const from = options.from == null ? -Infinity : options.from;
		const to = options.to == null ? Infinity : options.to;
		const tables = options.series.map((s) => {
			const xs = [];
			const ys = [];
			for (let i = 0; i < s.t.length; i++) {
				if (s.t[i] >= from && s.t[i] <= to) {
					xs.push(s.t[i]);
					ys.push(s.values[i]);
				}
			}
			return [xs, ys];
		});
		let positiveMin = Infinity;
		let max = 0;
		let zeros = 0;
		let points = 0;
		for (const [, ys] of tables) {
			for (const y of ys) {
				if (y == null) {
					continue;
				}
				points++;
				if (y > 0) {
					positiveMin = Math.min(positiveMin, y);
				}
				else {
					zeros++;
				}
				max = Math.max(max, y);
			}
		}
		if (!Number.isFinite(positiveMin)) {
			positiveMin = 1;
		}
		const floor = Math.pow(10, Math.floor(Math.log10(positiveMin)));
		const ceiling = Math.pow(10, Math.ceil(Math.log10(Math.max(max, floor * 10) * 1.0001)));
		const data = tables.length === 1 ? tables[0] : uPlot.join(tables);
		if (options.log) {
			// A log axis has no zero: a second without IO is drawn on the bottom edge.
			for (let s = 1; s < data.length; s++) {
				data[s] = Array.from(data[s], (y) => (y == null ? null : Math.max(y, floor)));
			}
		}
		const size = points / Math.max(1, options.series.length) > 4000 ? 2 : 3;
		let caption = options.caption || '';
		if (options.log && zeros) {
			caption += (caption ? ' ' : '') + `${zeros} second(s) at 0 IOPS are drawn on the bottom edge.`;
		}
		const plot = frame(container, options.title, caption);
		const xs = data[0];
		const u = new uPlot({
			width: width(container),
			height: options.height || HEIGHT,
			legend: { live: false },
			cursor: { drag: { x: true, y: false } },
			scales: {
				x: { time: false, range: (u, min, max) => [options.from != null && Number.isFinite(from) ? from : Math.min(min, 0), max] },
				y: options.log
					? { distr: 3, log: 10, range: () => [floor, ceiling] }
					: { range: () => [0, Math.max(1, max) * 1.05] },
			},
			axes: [
				{ label: options.xLabel || 'time in phase (s)', labelSize: 20, stroke: '#333', grid: { stroke: '#e5e8ee' } },
				{
					label: (options.yLabel || 'IOPS') + (options.log ? ' (log scale)' : ''), labelSize: 22, size: 58, stroke: '#333',
					grid: { stroke: '#e5e8ee' },
					splits: options.log ? () => logSplits(floor, ceiling) : undefined,
					values: (u, splits) => splits.map(DQ.si),
				},
			],
			series: [
				{ label: 't (s)' },
				...options.series.map((s, i) => ({
					label: s.label,
					stroke: s.color || PALETTE[i % PALETTE.length],
					fill: s.color || PALETTE[i % PALETTE.length],
					paths: () => null,
					points: { show: true, space: 0, size, width: 0, fill: s.color || PALETTE[i % PALETTE.length] },
				})),
			],
			plugins: [bandsPlugin(options.bands, options.marks)],
		}, data, plot);
		container.dataset.points = String(points);
		container.dataset.series = String(options.series.length);
		container.dataset.scale = options.log ? 'log' : 'linear';
		container.dataset.firstT = xs.length ? String(xs[0]) : '';
		all.add(u);
		return u;
	}

	/** Values against t as points, e.g. per-second latency percentiles; values may hold nulls. */
	function lines(container, options) {
		const plot = frame(container, options.title, options.caption);
		let positiveMin = Infinity;
		let max = 0;
		let points = 0;
		for (const s of options.series) {
			for (const y of s.values) {
				if (y != null && y > 0) {
					positiveMin = Math.min(positiveMin, y);
					max = Math.max(max, y);
					points++;
				}
			}
		}
		if (!Number.isFinite(positiveMin)) {
			positiveMin = 0.001;
			max = 1;
		}
		const floor = Math.pow(10, Math.floor(Math.log10(positiveMin)));
		const ceiling = Math.pow(10, Math.ceil(Math.log10(max * 1.0001)));
		const u = new uPlot({
			width: width(container),
			height: options.height || HEIGHT,
			legend: { live: false },
			scales: { x: { time: false }, y: { distr: 3, log: 10, range: () => [floor, ceiling] } },
			axes: [
				{ label: 'time in phase (s)', labelSize: 20, stroke: '#333', grid: { stroke: '#e5e8ee' } },
				{
					label: options.yLabel + ' (log scale)', labelSize: 22, size: 58, stroke: '#333', grid: { stroke: '#e5e8ee' },
					splits: () => logSplits(floor, ceiling),
					values: (u, splits) => splits.map((v) => (v == null ? '' : String(+v.toPrecision(3)))),
				},
			],
			series: [
				{ label: 't (s)' },
				// Points, not lines: a stalled second has no latency, and lines between the
				// seconds around it would paint the gap.
				...options.series.map((s, i) => ({
					label: s.label,
					stroke: s.color || PALETTE[i % PALETTE.length],
					fill: s.color || PALETTE[i % PALETTE.length],
					paths: () => null,
					points: { show: true, space: 0, size: s.dash ? 2 : 2.5, width: 0, fill: s.color || PALETTE[i % PALETTE.length] },
				})),
			],
			plugins: [bandsPlugin(options.bands, options.marks)],
		}, [options.t, ...options.series.map((s) => s.values.map((v) => (v == null || v <= 0 ? null : v)))], plot);
		container.dataset.points = String(points);
		all.add(u);
		return u;
	}

	/**
	 * Two quantities over one phase's time axis: per-second values as points on the left axis
	 * (linear, e.g. IOPS) and a sparser series as a line with points on the right axis (e.g. the
	 * drive's temperature at each health reading), with horizontal dashed levels on the right
	 * axis (e.g. its throttle and warning temperatures) and shaded x ranges.
	 * options: title, caption, left: {label, t, values, color}, right: {label, unit, t, values,
	 * color, levels: [{value, label, color}]}, bands
	 */
	function dual(container, options) {
		const plot = frame(container, options.title, options.caption);
		const left = options.left;
		const right = options.right;
		const data = uPlot.join([[left.t, left.values], [right.t, right.values]]);
		const leftMax = Math.max(1, ...left.values.filter((v) => v != null));
		const rightValues = [...right.values, ...(right.levels || []).map((l) => l.value)].filter((v) => v != null);
		const rightMin = rightValues.length ? Math.min(...rightValues) : 0;
		const rightMax = rightValues.length ? Math.max(...rightValues) : 1;
		const pad = Math.max(2, (rightMax - rightMin) * 0.08);
		const levelsPlugin = {
			hooks: {
				drawAxes: [(u) => {
					const ctx = u.ctx;
					const { left: x0, width } = u.bbox;
					ctx.save();
					ctx.textAlign = 'right';
					ctx.textBaseline = 'bottom';
					for (const level of right.levels || []) {
						const y = u.valToPos(level.value, 'right', true);
						ctx.strokeStyle = level.color || '#8a6100';
						ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
						ctx.lineWidth = devicePixelRatio;
						ctx.beginPath();
						ctx.moveTo(x0, y);
						ctx.lineTo(x0 + width, y);
						ctx.stroke();
						ctx.setLineDash([]);
						ctx.fillStyle = level.color || '#8a6100';
						ctx.font = `${Math.round(11 * devicePixelRatio)}px sans-serif`;
						ctx.fillText(level.label || '', x0 + width - 4 * devicePixelRatio, y - 2 * devicePixelRatio);
					}
					ctx.restore();
				}],
			},
		};
		const u = new uPlot({
			width: width(container),
			height: options.height || HEIGHT,
			legend: { live: false },
			scales: {
				x: { time: false, range: (u, min, max) => [Math.min(min, 0), max] },
				left: { range: () => [0, leftMax * 1.05] },
				right: { range: () => [Math.floor(rightMin - pad), Math.ceil(rightMax + pad)] },
			},
			axes: [
				{ label: 'time in phase (s)', labelSize: 20, stroke: '#333', grid: { stroke: '#e5e8ee' } },
				{ scale: 'left', label: left.label, labelSize: 22, size: 58, stroke: '#333', grid: { stroke: '#e5e8ee' }, values: (u, splits) => splits.map(DQ.si) },
				{ scale: 'right', side: 1, label: right.label, labelSize: 22, size: 50, stroke: right.color || '#d1495b', grid: { show: false } },
			],
			series: [
				{ label: 't (s)' },
				{ label: left.label, scale: 'left', stroke: left.color || PALETTE[0], paths: () => null,
					points: { show: true, space: 0, size: 3, width: 0, fill: left.color || PALETTE[0] } },
				{ label: right.label, scale: 'right', stroke: right.color || '#d1495b', width: 2, spanGaps: true,
					points: { show: true, space: 0, size: 4, fill: right.color || '#d1495b' } },
			],
			plugins: [bandsPlugin(options.bands, []), levelsPlugin],
		}, data, plot);
		container.dataset.points = String(left.values.length);
		container.dataset.readings = String(right.values.filter((v) => v != null).length);
		all.add(u);
		return u;
	}

	/**
	 * Values against a numeric x that is not time (a round, a block size): each series as
	 * points, joined by a line unless points only; horizontal dashed levels (an average and its
	 * bands) and straight segments (a fitted slope) drawn over the plot.
	 * options: title, caption, xLabel, yLabel, xLog, yLog, xValues (label of an x value),
	 * series: [{label, x: [...], y: [...], color, pointsOnly}], levels: [{value, label, color,
	 * dash}], segments: [{x0, y0, x1, y1, label, color}]
	 */
	function xy(container, options) {
		const plot = frame(container, options.title, options.caption);
		const levels = options.levels || [];
		const segments = options.segments || [];
		const ys = [...options.series.flatMap((s) => s.y), ...levels.map((l) => l.value),
			...segments.flatMap((s) => [s.y0, s.y1])].filter((v) => v != null && (!options.yLog || v > 0));
		const yMin = ys.length ? Math.min(...ys) : 0;
		const yMax = ys.length ? Math.max(...ys) : 1;
		const floor = options.yLog ? Math.pow(10, Math.floor(Math.log10(Math.max(yMin, 1e-9)))) : 0;
		const ceiling = options.yLog ? Math.pow(10, Math.ceil(Math.log10(yMax * 1.0001))) : Math.max(1, yMax) * 1.08;
		const data = uPlot.join(options.series.map((s) => {
			const order = s.x.map((x, i) => i).sort((a, b) => s.x[a] - s.x[b]);
			return [order.map((i) => s.x[i]), order.map((i) => s.y[i])];
		}));
		const overlay = {
			hooks: {
				draw: [(u) => {
					const ctx = u.ctx;
					const { left, width } = u.bbox;
					ctx.save();
					ctx.textAlign = 'right';
					ctx.textBaseline = 'bottom';
					ctx.font = `${Math.round(11 * devicePixelRatio)}px sans-serif`;
					ctx.lineWidth = devicePixelRatio * 1.5;
					for (const level of levels) {
						const y = u.valToPos(level.value, 'y', true);
						ctx.strokeStyle = level.color || '#555';
						ctx.setLineDash((level.dash || [6, 4]).map((d) => d * devicePixelRatio));
						ctx.beginPath();
						ctx.moveTo(left, y);
						ctx.lineTo(left + width, y);
						ctx.stroke();
						ctx.fillStyle = level.color || '#555';
						ctx.fillText(level.label || '', left + width - 4 * devicePixelRatio, y - 2 * devicePixelRatio);
					}
					ctx.setLineDash([]);
					for (const s of segments) {
						ctx.strokeStyle = s.color || '#111';
						ctx.beginPath();
						ctx.moveTo(u.valToPos(s.x0, 'x', true), u.valToPos(s.y0, 'y', true));
						ctx.lineTo(u.valToPos(s.x1, 'x', true), u.valToPos(s.y1, 'y', true));
						ctx.stroke();
						ctx.fillStyle = s.color || '#111';
						ctx.textAlign = 'left';
						ctx.fillText(s.label || '', u.valToPos(s.x0, 'x', true) + 4 * devicePixelRatio, u.valToPos(s.y0, 'y', true) - 4 * devicePixelRatio);
					}
					ctx.restore();
				}],
			},
		};
		const xs = data[0];
		const u = new uPlot({
			width: width(container),
			height: options.height || HEIGHT,
			legend: { live: false },
			scales: {
				// a log axis keeps a margin on both ends, so the outermost labels are not cut off
				x: options.xLog ? { time: false, distr: 3, log: 2, range: (u, min, max) => [min / 1.25, max * 1.25] } : { time: false, range: (u, min, max) => [min - 0.5, max + 0.5] },
				y: options.yLog ? { distr: 3, log: 10, range: () => [floor, ceiling] } : { range: () => [0, ceiling] },
			},
			axes: [
				{ label: options.xLabel, labelSize: 20, stroke: '#333', grid: { stroke: '#e5e8ee' },
					splits: () => xs, values: (u, splits) => splits.map((v) => (options.xValues ? options.xValues(v) : String(v))) },
				{ label: options.yLabel + (options.yLog ? ' (log scale)' : ''), labelSize: 22, size: 58, stroke: '#333', grid: { stroke: '#e5e8ee' },
					splits: options.yLog ? () => logSplits(floor, ceiling) : undefined, values: (u, splits) => splits.map(DQ.si) },
			],
			series: [
				{ label: options.xLabel },
				...options.series.map((s, i) => ({
					label: s.label,
					stroke: s.color || PALETTE[i % PALETTE.length],
					width: s.pointsOnly ? 0 : 1.5,
					spanGaps: true,
					paths: s.pointsOnly ? () => null : undefined,
					points: { show: true, space: 0, size: 7, width: 1, fill: s.color || PALETTE[i % PALETTE.length] },
				})),
			],
			plugins: [overlay],
		}, data, plot);
		container.dataset.points = String(options.series.reduce((n, s) => n + s.y.filter((v) => v != null).length, 0));
		container.dataset.series = String(options.series.length);
		// What the overlay draws, for the browser tests: horizontal levels and line segments.
		container.dataset.levels = String(levels.length);
		container.dataset.segments = String(segments.length);
		all.add(u);
		return u;
	}

	function resizeAll(printing) {
		for (const u of all) {
			const container = u.root.closest('.chart');
			if (!container || !document.body.contains(container)) {
				all.delete(u);
				continue;
			}
			u.setSize({ width: printing ? 680 : width(container), height: u.height });
		}
	}

	let resizeTimer = null;
	window.addEventListener('resize', () => {
		clearTimeout(resizeTimer);
		resizeTimer = setTimeout(() => resizeAll(false), 150);
	});
	window.addEventListener('beforeprint', () => resizeAll(true));
	window.addEventListener('afterprint', () => resizeAll(false));

	return { scatter, lines, dual, xy, PALETTE, resizeAll };
})();
