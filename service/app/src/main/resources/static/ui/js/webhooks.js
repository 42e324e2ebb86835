/*
 * /ui/webhooks: the caller's webhook subscriptions (and their teams'), a form to subscribe an
 * endpoint to job events (the signing secret is shown once, right after), a test event, deletion,
 * and each subscription's delivery log (status, attempts, last answer or error).
 */
'use strict';

(() => {
	const { api, el, time } = DQ;

	function subscribeForm(onCreated) {
		const error = el('div', { class: 'error', id: 'webhook-error' });
		const check = (value, label) => el('label', {}, el('input', { type: 'checkbox', name: 'events', value, checked: true }), label);
		const form = el('form', { class: 'card', id: 'webhook-form' },
			el('h2', {}, 'Subscribe an endpoint'),
			el('p', { class: 'muted small' }, 'drivequal POSTs a signed CloudEvents 1.0 JSON body to the URL when a job changes state or gets its verdict, and when a campaign does or gets its model verdict (docs/api.md, Webhooks).'),
			el('div', { class: 'filters' },
				el('label', {}, 'URL (http or https)', el('input', { name: 'url', id: 'webhook-url', size: 60, required: true, placeholder: 'https://hooks.example.com/drivequal' })),
				el('label', {}, 'Jobs', el('select', { name: 'scope', id: 'webhook-scope' },
					el('option', { value: 'own' }, 'mine (or my team\'s members\')'), el('option', { value: 'all' }, 'all jobs'))),
				el('label', {}, 'Team (optional)', el('input', { name: 'team', id: 'webhook-team', placeholder: 'procurement-emea' })),
				el('label', {}, 'Description (optional)', el('input', { name: 'description', id: 'webhook-description' }))),
			el('div', { class: 'checks' }, el('span', { class: 'muted small' }, 'Events:'), check('state-changed', 'state changes'), check('verdict', 'verdicts'),
				check('campaign-state-changed', 'campaign state changes'), check('campaign-verdict', 'model verdicts')),
			el('p'), el('button', { type: 'submit', id: 'webhook-submit' }, 'Subscribe'), error);
		form.addEventListener('submit', async (event) => {
			event.preventDefault();
			error.textContent = '';
			const body = {
				url: form.elements.url.value.trim(),
				scope: form.elements.scope.value,
				team: form.elements.team.value.trim() || undefined,
				description: form.elements.description.value.trim() || undefined,
				events: [...form.querySelectorAll('input[name=events]:checked')].map((box) => box.value),
			};
			const response = await api.raw('POST', '/api/v1/webhooks', body);
			const answer = await response.json().catch(() => null);
			if (!response.ok) {
				const fields = (answer && answer.errors) || [];
				error.textContent = `${response.status} ${(answer && (answer.detail || answer.title)) || ''}` + fields.map((f) => `\n${f.field}: ${f.message}`).join('');
				return;
			}
			form.reset();
			onCreated(answer);
		});
		return form;
	}

	function secretNotice(created) {
		return el('div', { class: 'card', id: 'webhook-secret-notice' },
			el('h3', {}, `Subscribed: ${created.id}`),
			el('p', {}, 'Its signing secret, shown this once — store it with your receiver now; drivequal never shows it again:'),
			el('p', { class: 'secret', id: 'webhook-secret' }, created.secret),
			el('p', { class: 'muted small' }, 'Receivers check webhook-signature = "v1," + base64(HMAC-SHA256(base64-decoded secret after "whsec_", webhook-id + "." + webhook-timestamp + "." + body)).'));
	}

	let refresh = null;

	/** The log of one subscription; refreshed every 3 s while a delivery is pending. */
	async function showDeliveries(subscription, target) {
		clearTimeout(refresh);
		const page = await api.get(`/api/v1/webhooks/${encodeURIComponent(subscription.id)}/deliveries?size=50`);
		if (page.items.some((d) => d.status === 'PENDING')) {
			refresh = setTimeout(() => showDeliveries(subscription, target).catch(DQ.fail), 3000);
		}
		target.replaceChildren(
			el('h3', {}, `Delivery log of ${subscription.id} (${page.total})`),
			el('table', { class: 'deliveries', id: 'deliveries-' + subscription.id, 'data-loaded': String(page.items.length) },
				el('thead', {}, el('tr', {}, ['event', 'job', 'status', 'attempts', 'queued', 'last attempt', 'next attempt', 'last answer or error'].map((h) => el('th', {}, h)))),
				el('tbody', {}, page.items.map((d) => el('tr', { 'data-delivery': d.id, 'data-status': d.status },
					el('td', { class: 'small' }, d.eventId, el('div', { class: 'muted small' }, d.eventType)),
					el('td', {}, d.jobId ? el('a', { href: '/ui/jobs/' + encodeURIComponent(d.jobId) }, d.jobId) : '—'),
					el('td', {}, el('span', { class: 'badge ' + d.status }, d.status)),
					el('td', { class: 'num' }, d.attempts),
					el('td', { class: 'small' }, time(d.createdAt)),
					el('td', { class: 'small' }, time(d.lastAttemptAt)),
					el('td', { class: 'small' }, d.nextAttemptAt ? time(d.nextAttemptAt) : '—'),
					el('td', { class: 'small' }, d.lastError || (d.lastStatusCode ? 'HTTP ' + d.lastStatusCode : '—')))))));
	}

	function table(subscriptions, reload) {
		const log = el('div', { id: 'delivery-log' });
		const rows = subscriptions.map((s) => el('tr', { 'data-subscription': s.id },
			el('td', { class: 'small' }, s.id),
			el('td', { class: 'small' }, s.url),
			el('td', {}, s.events.join(', ')),
			el('td', {}, s.scope),
			el('td', {}, s.team ? 'team ' + s.team : s.owner),
			el('td', { class: 'small' }, time(s.createdAt)),
			el('td', {},
				el('button', { class: 'secondary', onclick: () => showDeliveries(s, log).catch(DQ.fail) }, 'Deliveries'), ' ',
				el('button', { class: 'secondary', onclick: async () => {
					await api.post(`/api/v1/webhooks/${encodeURIComponent(s.id)}/test`);
					// Queued now, searchable within a second (the index's refresh interval).
					setTimeout(() => showDeliveries(s, log).catch(DQ.fail), 1500);
				} }, 'Send a test event'), ' ',
				el('button', { class: 'secondary', onclick: async () => {
					if (confirm(`Delete subscription ${s.id}?`)) {
						await api.raw('DELETE', `/api/v1/webhooks/${encodeURIComponent(s.id)}`);
						await reload();
					}
				} }, 'Delete'))));
		return el('div', {},
			el('table', { id: 'webhooks-table', 'data-loaded': String(subscriptions.length) },
				el('thead', {}, el('tr', {}, ['id', 'URL', 'events', 'jobs', 'owner', 'created', ''].map((h) => el('th', {}, h)))),
				el('tbody', {}, rows.length ? rows : el('tr', {}, el('td', { colspan: 7, class: 'muted' }, 'No subscriptions yet.')))),
			log);
	}

	DQ.start(async () => {
		const main = document.getElementById('main');
		const list = el('div', { id: 'webhooks' });
		const notice = el('div');
		async function reload() {
			list.replaceChildren(table(await api.get('/api/v1/webhooks'), reload));
		}
		main.replaceChildren(
			el('div', { class: 'toolbar' }, el('h1', {}, 'Notifications (webhooks)')),
			subscribeForm(async (created) => {
				notice.replaceChildren(secretNotice(created));
				await reload();
			}),
			notice,
			el('h2', {}, 'Your subscriptions and your teams\''),
			list);
		await reload();
	});
})();
