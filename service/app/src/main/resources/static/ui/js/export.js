/*
 * The self-contained HTML export: one file holding the report's data, the chart library and the
 * page's own scripts and styles, so it opens anywhere without the service or a network.
 */
'use strict';

const Export = (() => {
	const STYLES = ['/webjars/uplot/1.6.30/dist/uPlot.min.css', '/ui/css/drivequal.css'];
	const SCRIPTS = ['/webjars/uplot/1.6.30/dist/uPlot.iife.min.js', '/ui/js/api.js', '/ui/js/charts.js', '/ui/js/health.js', '/ui/js/report.js', '/ui/js/snia.js', '/ui/js/streams.js', '/ui/js/job.js'];

	async function text(path) {
		const response = await fetch(path);
		if (!response.ok) {
			throw new Error(`could not read ${path}: ${response.status}`);
		}
		return response.text();
	}

	/** Keeps embedded text from closing the element that holds it. */
	function inline(code) {
		return code.replace(/<\/(script|style)/gi, '<\\/$1');
	}

	async function build(data) {
		const styles = await Promise.all(STYLES.map(text));
		const scripts = await Promise.all(SCRIPTS.map(text));
		const json = JSON.stringify(data).replace(/</g, '\\u003c');
		const title = `drivequal report ${data.job.id} — ${data.job.drive.model || data.job.drive.serial}`;
		return '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
			+ `<title>${title.replace(/</g, '&lt;')}</title>\n`
			+ `<!-- Exported from drivequal at ${new Date().toISOString()}; data and scripts are embedded. -->\n`
			+ styles.map((s) => `<style>\n${inline(s)}\n</style>\n`).join('')
			+ '</head>\n<body>\n<header class="top"></header>\n<main id="main"></main>\n'
			+ `<script>window.DRIVEQUAL_EMBEDDED = ${json};</script>\n`
			+ scripts.map((s) => `<script>\n${inline(s)}\n</script>\n`).join('')
			+ '</body>\n</html>\n';
	}

	async function selfContained(data) {
		const html = await build(data);
		DQ.save(new Blob([html], { type: 'text/html' }), `${data.job.id}-report.html`);
	}

	return { build, selfContained };
})();
