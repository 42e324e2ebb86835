/*
 * The Notifications and Audit pages in a real browser (Debian's chromium through Playwright)
 * against the real stack: a user subscribes a receiver through the form, sees the secret once,
 * sends a test event and reads it as DELIVERED in the delivery log; a URL outside the allowed
 * destinations is answered on the form with the field it concerns; an admin reads the audit trail
 * where that subscription appears, and a viewer is told the page is for admins. Screenshots land
 * in target/web-report. The subscriber is carol, whom no other test uses: a subscription of alice's
 * would also be sent the verdicts of the jobs other tests submit as alice while it exists.
 */
package io.drivequal.service.webhooks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import io.drivequal.service.it.HeadlessChromium;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class NotificationPagesIT {

	private static final Path OUT = Path.of("target", "web-report");

	/** The test configuration's submitter that only this test signs in as. */
	private static final String SUBSCRIBER = "carol";

	@LocalServerPort
	private int port;

	@Test
	void aUserSubscribesSeesTheSecretOnceAndReadsTheDeliveryLogAndOnlyAdminsReadTheAuditPage() throws Exception {
		Files.createDirectories(OUT);
		try (HeadlessChromium chromium = new HeadlessChromium();
				WebhookReceiver receiver = WebhookReceiver.answering(204)) {
			String subscriptionId;
			try (BrowserContext context = chromium.browser().newContext()) {
				Page page = signedIn(context, SUBSCRIBER, "/ui/webhooks", "#webhook-form");
				page.fill("#webhook-url", "http://169.254.169.254/latest/meta-data/");
				page.click("#webhook-submit");
				page.waitForFunction("() => document.querySelector('#webhook-error').textContent.length > 0");
				assertThat(page.textContent("#webhook-error")).startsWith("400").contains("url: the URL names host");

				page.fill("#webhook-url", receiver.url("/from-the-page"));
				page.fill("#webhook-description", "page test");
				page.click("#webhook-submit");
				page.waitForSelector("#webhook-secret");
				String secret = page.textContent("#webhook-secret");
				assertThat(secret).startsWith("whsec_");
				page.waitForSelector("#webhooks-table tbody tr[data-subscription]");
				String row = "#webhooks-table tr[data-subscription]:has-text('from-the-page')";
				subscriptionId = page.getAttribute(row, "data-subscription");
				page.click(row + " >> text=Send a test event");
				// The page reads the log 1.5 s after the click, and again only
				// while a delivery is pending: on a busy machine the queued
				// event may not be searchable by then, so open the log again
				// until the test event shows as delivered.
				String delivered = "table.deliveries tr[data-status=DELIVERED]:has-text('io.drivequal.webhook.test')";
				await().atMost(Duration.ofSeconds(60))
					.pollInSameThread()
					.pollInterval(Duration.ofSeconds(1))
					.until(() -> opened(page, delivered, row + " >> text=Deliveries"));
				String eventId = page.evalOnSelector(delivered, "(tr) => tr.cells[0].firstChild.textContent")
					.toString();
				assertThat(eventId).startsWith("test-");
				page.screenshot(
						new Page.ScreenshotOptions().setPath(OUT.resolve("webhooks-page.png")).setFullPage(true));
				page.reload();
				page.waitForSelector("#webhooks-table");
				assertThat(page.content()).as("the secret is shown once, not after a reload").doesNotContain(secret);
				List<WebhookReceiver.Received> ours = receiver.received()
					.stream()
					.filter((request) -> eventId.equals(request.header("webhook-id")))
					.toList();
				assertThat(ours).as("requests for the test event").hasSize(1);
				assertThat(WebhookReceiver.signatureValid(secret, ours.get(0))).isTrue();
			}
			try (BrowserContext context = chromium.browser().newContext()) {
				Page page = signedIn(context, "admin", "/ui/audit", "#audit-table");
				page.fill("#audit-action", "webhook.create");
				page.fill("#audit-actor", SUBSCRIBER);
				page.fill("#audit-target", subscriptionId);
				// The page opens on every entry, others' included; the filtered
				// search finds this one after Elasticsearch's next refresh: ask
				// again until it shows.
				String entry = "#audit-table tbody tr[data-entry]:has-text('webhook.create'):has-text('"
						+ subscriptionId + "')";
				await().atMost(Duration.ofSeconds(60))
					.pollInSameThread()
					.pollInterval(Duration.ofSeconds(1))
					.until(() -> opened(page, entry, "#audit-filters button[type=submit]"));
				assertThat(page.textContent(entry)).contains("webhook.create")
					.contains(SUBSCRIBER)
					.contains("127.0.0.1");
				page.screenshot(new Page.ScreenshotOptions().setPath(OUT.resolve("audit-page.png")).setFullPage(true));
			}
			try (BrowserContext context = chromium.browser().newContext()) {
				Page page = signedIn(context, "viewer", "/ui/audit", "#audit-table");
				page.waitForSelector("#audit-forbidden");
				assertThat(page.textContent("#audit-forbidden")).contains("Only admins");
			}
		}
	}

	/**
	 * Whether {@code shown} is on the page; if not, clicks {@code refresh} to ask again.
	 */
	private static boolean opened(Page page, String shown, String refresh) {
		if (page.locator(shown).count() > 0) {
			return true;
		}
		page.click(refresh);
		return false;
	}

	private Page signedIn(BrowserContext context, String user, String path, String ready) {
		Page page = context.newPage();
		page.navigate("http://127.0.0.1:" + this.port + path);
		page.fill("#signin-user", user);
		page.fill("#signin-password", user + "-pw");
		page.click("#signin-submit");
		page.waitForSelector(ready);
		return page;
	}

}
