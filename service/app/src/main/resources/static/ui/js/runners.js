/*
 * /ui/runners: every runner (GET /api/v1/runners) with its liveness and drain state (active,
 * draining while it still holds jobs, drained when it is safe to restart), the jobs it holds and
 * the drives it owns (GET /api/v1/drives). Drain and undrain are admin requests: another role
 * gets the API's 403, shown on the row.
 */
'use strict';

(() => {
	const { api, el, time } = DQ;

	function jobLinks(ids) {
		return ids && ids.length ? ids.map((id) => el('a', { href: '/ui/jobs/' + id, class: 'small' }, id, ' ')) : '—';
	}

	function action(runner, note) {
		const verb = runner.state === 'active' ? 'drain' : 'undrain';
		return el('button', {
			class: 'secondary', 'data-action': verb,
			onclick: async () => {
				try {
					await api.post(`/api/v1/runners/${encodeURIComponent(runner.runnerId)}/${verb}`, {});
					await load();
				}
				catch (e) {
					note.textContent = e instanceof DQ.ApiError && e.status === 403 ? 'only admins may ' + verb : e.message;
				}
			},
		}, verb === 'drain' ? 'Drain' : 'Undrain');
	}

	function row(runner, drives) {
		const note = el('div', { class: 'error small' });
		const owned = drives.filter((d) => d.drive.runnerId === runner.runnerId);
		return el('tr', { 'data-runner': runner.runnerId, 'data-state': runner.state },
			el('td', {}, runner.runnerId, el('div', { class: 'muted small' }, `${runner.hostname || ''} ${runner.runnerVersion || ''}`)),
			el('td', {}, el('span', { class: 'badge ' + (runner.alive ? 'succeeded' : 'failed') }, runner.alive ? 'alive' : 'silent'),
				el('div', { class: 'muted small' }, time(runner.lastHeartbeatAt))),
			el('td', { class: 'drain-state' }, el('span', { class: 'badge' }, runner.state),
				runner.drainRequestedAt ? el('div', { class: 'muted small' }, `by ${runner.drainRequestedBy} ${time(runner.drainRequestedAt)}`) : ''),
			el('td', {}, jobLinks(runner.heldJobIds)),
			el('td', { class: 'small' }, owned.length ? owned.map((d) => el('div', {},
				`${d.drive.serial} ${d.drive.model || ''} (${d.drive.transportAddress}) ${d.drive.state}${d.drive.allowlisted ? '' : ', NOT allowlisted'}`)) : '—'),
			el('td', {}, action(runner, note), note));
	}

	async function load() {
		const [runners, drives] = await Promise.all([api.get('/api/v1/runners'), api.get('/api/v1/drives')]);
		document.querySelector('#runners-table tbody').replaceChildren(...runners.map((r) => row(r, drives)));
		document.getElementById('runners-table').dataset.loaded = String(runners.length);
	}

	DQ.start(async () => {
		document.getElementById('main').replaceChildren(
			el('div', { class: 'toolbar' }, el('h1', {}, 'Runners')),
			el('p', { class: 'muted' }, 'Drain a runner before restarting or upgrading it: it gets no new job, its jobs run to their end, and it is safe to restart once drained.'),
			el('table', { id: 'runners-table' },
				el('thead', {}, el('tr', {}, ['runner', 'heartbeat', 'state', 'jobs held', 'drives', ''].map((h) => el('th', {}, h)))),
				el('tbody')));
		await load();
	});
})();
