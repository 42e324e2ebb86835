// Runs one Vega / Vega-Lite visualization of the Kibana saved objects the way Kibana 8.x does, without
// Kibana: its `data.url` Elasticsearch request with Kibana's placeholders substituted (dashboard
// context, time filter), sent to a real Elasticsearch node; the raw response handed to the real
// Vega library as the data's values (Vega applies `format.property`, as in Kibana); rendered
// headless to SVG; and what it drew (marks, axes, scales, legends, texts) printed as JSON, so a test
// can assert what a user would see.
//
//   node render.mjs REQUEST.json      (REQUEST: see readRequest below; summary JSON on stdout)

import { readFileSync, writeFileSync } from 'node:fs';
import * as vega from 'vega';
import * as vegaLite from 'vega-lite';

const TIMEFILTER = '%timefilter%';
const AUTOINTERVAL = '%autointerval%';
const CLAUSES = {
	'%dashboard_context-must_clause%': 'must',
	'%dashboard_context-filter_clause%': 'filter',
	'%dashboard_context-must_not_clause%': 'must_not',
};
const CONTEXT = '%context%';
const TIMEFIELD = '%timefield%';

/**
 * elasticsearch: base URL; savedObjects: path of the NDJSON; visualization: its id;
 * dashboardContext: the bool query Kibana builds from the dashboard's query and filters;
 * timeRange: {from, to} ISO instants, the time picker; width, height: the panel in pixels;
 * svg: where to write the picture.
 */
function readRequest(path) {
	const request = JSON.parse(readFileSync(path, 'utf8'));
	for (const key of ['elasticsearch', 'savedObjects', 'visualization', 'timeRange']) {
		if (request[key] === undefined) {
			throw new Error(`request ${path}: ${key} is required`);
		}
	}
	return {
		dashboardContext: { bool: { must: [], filter: [], should: [], must_not: [] } },
		width: 900,
		height: 420,
		...request,
	};
}

function visualizationSpec(savedObjects, id) {
	for (const line of readFileSync(savedObjects, 'utf8').split('\n')) {
		if (!line.trim()) {
			continue;
		}
		const object = JSON.parse(line);
		if (object.type === 'visualization' && object.id === id) {
			const visState = JSON.parse(object.attributes.visState);
			if (visState.type !== 'vega') {
				throw new Error(`${id} is a ${visState.type} visualization, not vega`);
			}
			return JSON.parse(visState.params.spec);
		}
	}
	throw new Error(`no visualization ${id} in ${savedObjects}`);
}

/** Kibana's EsQueryParser: the same substitutions, in the same places. */
class KibanaQuery {
	constructor(dashboardContext, timeRange) {
		this.context = dashboardContext;
		this.min = Date.parse(timeRange.from);
		this.max = Date.parse(timeRange.to);
	}

	parseUrl(url) {
		const body = url.body ?? {};
		const context = url[CONTEXT];
		const timefield = url[TIMEFIELD];
		delete url[CONTEXT];
		delete url[TIMEFIELD];
		if (body.query !== undefined) {
			if (context !== undefined || timefield !== undefined) {
				throw new Error('url.%context% and url.%timefield% must not be used when url.body.query is set');
			}
			this.inject(body.query, true);
		}
		else if (context !== undefined || timefield !== undefined) {
			let query;
			if (timefield) {
				query = { range: { [timefield]: this.range({ [TIMEFILTER]: true }) } };
			}
			if (context) {
				const bool = structuredClone(this.context);
				if (query) {
					bool.bool.must.push(query);
				}
				query = bool;
			}
			body.query = query;
		}
		this.inject(body.aggs, false);
		url.body = body;
		return url;
	}

	inject(node, isQuery, key) {
		if (!node || typeof node !== 'object') {
			return;
		}
		if (Array.isArray(node)) {
			for (let position = 0; position < node.length;) {
				const clause = CLAUSES[node[position]];
				if (isQuery && clause) {
					const values = this.context.bool?.[clause];
					const replacement = values === undefined ? [] : (Array.isArray(values) ? values : [values]);
					node.splice(position, 1, ...structuredClone(replacement));
					position += replacement.length;
				}
				else {
					this.inject(node[position], isQuery);
					position++;
				}
			}
			return;
		}
		for (const property of Object.keys(node)) {
			const value = node[property];
			if (!value || typeof value !== 'object') {
				continue;
			}
			if (property === 'interval' && key === 'date_histogram' && value[AUTOINTERVAL]) {
				throw new Error('%autointerval% is not supported by this renderer; no drivequal chart uses it');
			}
			switch (value[TIMEFILTER]) {
				case 'min':
				case 'max':
					node[property] = value[TIMEFILTER] === 'min' ? this.min : this.max;
					break;
				case true:
					this.range(value);
					break;
				case undefined:
					this.inject(value, isQuery, property);
					break;
				default:
					throw new Error('%timefilter% must be true, "min" or "max"');
			}
		}
	}

	range(value) {
		if (value.shift !== undefined) {
			throw new Error('%timefilter% shift is not supported by this renderer; no drivequal chart uses it');
		}
		value.gte = new Date(this.min).toISOString();
		value.lte = new Date(this.max).toISOString();
		value.format = 'strict_date_optional_time';
		delete value[TIMEFILTER];
		return value;
	}
}

/** Kibana's search: POST index/_search with Kibana's default parameters. */
async function search(elasticsearch, url) {
	const target = `${elasticsearch.replace(/\/$/, '')}/${encodeURIComponent(url.index)}/_search`
		+ '?ignore_unavailable=true&track_total_hits=true';
	const response = await fetch(target, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(url.body),
	});
	const text = await response.text();
	if (!response.ok) {
		throw new Error(`Elasticsearch answered ${response.status} to ${url.index}: ${text.slice(0, 2000)}`);
	}
	return JSON.parse(text);
}

/** Every data entry whose url is an object (Kibana's Elasticsearch data), in a compiled Vega spec. */
function elasticsearchData(spec, found = []) {
	for (const data of spec.data ?? []) {
		if (data.url && typeof data.url === 'object' && !Array.isArray(data.url)) {
			found.push(data);
		}
	}
	for (const mark of spec.marks ?? []) {
		elasticsearchData(mark, found);
	}
	return found;
}

/** What the scene graph holds: item counts per mark, axes, legends and free text. */
function describeScene(view, compiled) {
	const marks = [];
	const axes = [];
	const legends = [];
	const texts = [];
	const walk = (scene) => {
		if (!scene || !scene.items) {
			return;
		}
		const role = scene.role ?? '';
		if (role === 'axis') {
			for (const item of scene.items) {
				const datum = item.datum ?? {};
				axes.push({
					scale: datum.scale,
					title: collectText(item, 'axis-title')[0] ?? null,
					labels: collectText(item, 'axis-label'),
				});
			}
			return;
		}
		if (role === 'legend') {
			for (const item of scene.items) {
				legends.push({
					title: collectText(item, 'legend-title')[0] ?? null,
					labels: collectText(item, 'legend-label'),
				});
			}
			return;
		}
		if (role === 'title') {
			texts.push(...collectText(scene, 'title-text').map((text) => ({ role: 'title', text })));
			texts.push(...collectText(scene, 'title-subtitle').map((text) => ({ role: 'subtitle', text })));
			return;
		}
		if (scene.marktype && scene.marktype !== 'group') {
			marks.push({ name: scene.name ?? null, role, marktype: scene.marktype, items: scene.items.length });
			if (scene.marktype === 'text') {
				for (const item of scene.items) {
					texts.push({ role: scene.name ?? 'text', text: textOf(item) });
				}
			}
		}
		for (const item of scene.items) {
			for (const child of item.items ?? []) {
				walk(child);
			}
		}
	};
	walk(view.scenegraph().root);
	const scales = {};
	for (const scale of compiled.scales ?? []) {
		const live = view.scale(scale.name);
		scales[scale.name] = { type: live.type, domain: live.domain() };
	}
	return { marks, axes, legends, texts, scales };
}

function collectText(node, role, found = []) {
	if (node.marktype && node.role === role) {
		node.items.forEach((item) => found.push(textOf(item)));
		return found;
	}
	for (const child of node.items ?? []) {
		collectText(child, role, found);
	}
	return found;
}

function textOf(item) {
	return Array.isArray(item.text) ? item.text.join(' ') : String(item.text ?? '');
}

async function main() {
	const request = readRequest(process.argv[2]);
	const spec = visualizationSpec(request.savedObjects, request.visualization);
	const isVegaLite = String(spec.$schema ?? '').includes('vega-lite');
	// Kibana sizes a panel's chart to the panel: autosize fit within the padding.
	spec.width ??= request.width;
	spec.height ??= request.height;
	spec.autosize = { type: 'fit', contains: 'padding' };
	const compiled = isVegaLite ? vegaLite.compile(spec).spec : spec;
	const query = new KibanaQuery(request.dashboardContext, request.timeRange);
	const requests = [];
	for (const data of elasticsearchData(compiled)) {
		const url = query.parseUrl(structuredClone(data.url));
		const response = await search(request.elasticsearch, url);
		requests.push({
			data: data.name,
			index: url.index,
			body: url.body,
			hitsTotal: response.hits?.total?.value ?? null,
			hitsReturned: response.hits?.hits?.length ?? 0,
			shardFailures: response._shards?.failed ?? 0,
			timedOut: response.timed_out === true,
			aggregations: summariseAggregations(response.aggregations),
		});
		// As Kibana: the raw response becomes the data's values; Vega applies format.property.
		data.values = response;
		delete data.url;
	}
	const warnings = [];
	const logger = vega.logger(vega.Warn);
	logger.warn = (...args) => {
		warnings.push(args.join(' '));
		return logger;
	};
	logger.error = (...args) => {
		warnings.push('error: ' + args.join(' '));
		return logger;
	};
	const view = new vega.View(vega.parse(compiled), { renderer: 'none', logger });
	await view.runAsync();
	const svg = await view.toSVG();
	if (request.svg) {
		writeFileSync(request.svg, svg);
	}
	const datasets = {};
	for (const data of compiled.data ?? []) {
		datasets[data.name] = view.data(data.name).length;
	}
	const summary = {
		visualization: request.visualization,
		vegaLite: isVegaLite,
		requests,
		datasets,
		...describeScene(view, compiled),
		warnings,
		svgBytes: Buffer.byteLength(svg),
	};
	view.finalize();
	process.stdout.write(JSON.stringify(summary) + '\n');
}

/** Per aggregation: how many buckets came back, and the composite's after_key when it has one. */
function summariseAggregations(aggregations) {
	const summary = {};
	for (const [name, aggregation] of Object.entries(aggregations ?? {})) {
		summary[name] = {
			buckets: Array.isArray(aggregation.buckets) ? aggregation.buckets.length : null,
			documents: Array.isArray(aggregation.buckets)
				? aggregation.buckets.reduce((sum, bucket) => sum + bucket.doc_count, 0) : null,
			afterKey: aggregation.after_key ?? null,
		};
	}
	return summary;
}

main().catch((error) => {
	process.stderr.write(`${error.stack ?? error}\n`);
	process.exit(1);
});
