/*
 * /ui/drives: the inventory (GET /api/v1/drives) — each drive with its runner, whether destructive
 * work is allowed, and what the runner probed it can do: every capability (purge methods, SMART,
 * the OCP C0h log, temperature thresholds, write cache, FDP), each missing one with why, so a
 * buyer sees before submitting what a plan on it can ask for.
 */
'use strict';

(() => {
	const { api, el, bytes } = DQ;

	/** Why a capability is missing, in an operator's words (docs/operations.md). */
	const WHY = {
		'device-lacks-it': 'the drive lacks it',
		'runner-lacks-sys-admin': 'the runner lacks CAP_SYS_ADMIN',
		'engine-cannot': 'the engine cannot',
		'runner-policy': 'the runner will not (policy)',
		'probe-failed': 'the probe failed',
	};

	function capabilityCell(c) {
		const setting = c.enabled == null ? '' : (c.enabled ? ', enabled' : ', disabled');
		return el('li', { class: c.available ? 'capability yes' : 'capability no', 'data-capability': c.name, 'data-missing': c.missing || '' },
			el('strong', {}, c.name), c.available ? ` yes${setting}` : ` no — ${WHY[c.missing] || c.missing}`,
			c.detail ? el('div', { class: 'muted small' }, c.detail) : null);
	}

	function row(view) {
		const d = view.drive;
		const caps = d.capabilities;
		return el('tr', { 'data-serial': d.serial },
			el('td', {}, d.model || '—', el('div', { class: 'muted small' }, `${d.serial} · fw ${d.firmware || '?'} · ${bytes(d.capacityBytes)}`)),
			el('td', {}, d.runnerId, el('div', { class: 'muted small' }, `${d.engine} · ${d.transportAddress}${view.runnerAlive ? '' : ' · runner silent'}`)),
			el('td', {}, d.state, d.interlock ? el('div', { class: 'muted small' }, d.interlock) : null),
			el('td', {}, caps ? el('ul', { class: 'capabilities' }, caps.map(capabilityCell))
				: el('span', { class: 'muted' }, 'not reported (a runner older than the capability probe)')));
	}

	DQ.start(async () => {
		const drives = await api.get('/api/v1/drives');
		const main = document.getElementById('main');
		main.replaceChildren(
			el('div', { class: 'toolbar' }, el('h1', {}, 'Drives')),
			el('p', { class: 'muted small' }, 'What each runner probed its drives can do with the privileges and engine it has. A plan that needs a missing capability is refused at submission (422) with the reason; plan.purgeFallback: deallocate accepts a TRIM where no Format or Sanitize is possible (not a SNIA PTS purge).'),
			el('table', { id: 'drives-table', 'data-loaded': String(drives.length) },
				el('thead', {}, el('tr', {}, ['drive', 'runner', 'state', 'capabilities'].map((h) => el('th', {}, h)))),
				el('tbody', {}, drives.map(row))));
	});
})();
