/*
 * The report's SNIA PTS pages of a finished job as a buyer reads them, in headless Chromium: every
 * test page must show its setup header, its steady-state convergence plot and its measurement-window
 * plot with the ±10 %/±20 % bands and the slope line; the section's tables are listed for the caller
 * to expect, the QD 1 latency table's figures are read back for the caller to check, and the section
 * is saved as a PNG to be looked at. Shared by the ITs that run the PTS-E profiles and a PTS-shaped
 * plan.
 */
package io.drivequal.service.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import io.drivequal.service.it.HeadlessChromium;

import static org.assertj.core.api.Assertions.assertThat;

public final class SniaPages implements AutoCloseable {

	/** The tables and plots the pages may show after the test pages. */
	private static final List<String> RESULTS = List.of("snia-iops-table", "snia-iops-plot", "snia-throughput-table",
			"snia-latency-table");

	private final HeadlessChromium chromium = new HeadlessChromium();

	private final String baseUrl;

	/**
	 * @param baseUrl the service, e.g. http://127.0.0.1:8080
	 */
	public SniaPages(String baseUrl) {
		this.baseUrl = baseUrl;
	}

	/**
	 * What the pages of one job showed.
	 *
	 * @param tests the phase name of each test page, in order
	 * @param setups each test page's setup header, as text
	 * @param saturation the tests with write saturation plots (IOPS against time and
	 * against the data written)
	 * @param results the ids of the result tables and plots shown
	 * @param latency the rows of the QD 1 latency table
	 */
	public record Shown(List<String> tests, List<String> setups, List<String> saturation, List<String> results,
			List<LatencyRow> latency) {
	}

	/**
	 * One element of the QD 1 latency table.
	 *
	 * @param step the element's step in its phase's rounds, null for a whole phase
	 * @param figures what the row shows, ns (IOs as a count): ios, meanLatencyNs,
	 * maxLatencyNs, p99999Ns, readP99999Ns, writeP99999Ns; a figure the row does not show
	 * is absent
	 * @param source where the figures come from, as the row says
	 */
	public record LatencyRow(int blockSizeBytes, String mix, Integer step, Map<String, Double> figures, String source) {
	}

	/** A new browser context (1280 x 900) for the caller's own page. */
	public BrowserContext context() {
		return this.chromium.browser().newContext(new Browser.NewContextOptions().setViewportSize(1280, 900));
	}

	/** A page of the context, signed in as {@code viewer}, at the jobs list. */
	public Page signedIn(BrowserContext context) {
		Page page = context.newPage();
		page.navigate(this.baseUrl + "/ui/");
		page.fill("#signin-user", "viewer");
		page.fill("#signin-password", "viewer-pw");
		page.click("#signin-submit");
		page.waitForSelector("#jobs-table");
		return page;
	}

	/** The job's report, once it says it is ready. */
	public void openReport(Page page, String jobId) {
		page.navigate(this.baseUrl + "/ui/jobs/" + jobId);
		page.waitForSelector("#report[data-ready]", new Page.WaitForSelectorOptions().setTimeout(120_000));
	}

	/**
	 * Opens the job's report, checks every test page, and saves the SNIA section to
	 * {@code png}.
	 */
	public Shown check(String jobId, Path png) throws java.io.IOException {
		Files.createDirectories(png.toAbsolutePath().getParent());
		try (BrowserContext context = context()) {
			Page page = signedIn(context);
			openReport(page, jobId);
			List<String> tests = new ArrayList<>();
			List<String> setups = new ArrayList<>();
			List<String> saturation = new ArrayList<>();
			Locator pages = page.locator("#snia-section .snia-page");
			for (int i = 0; i < pages.count(); i++) {
				Locator test = pages.nth(i);
				String name = test.getAttribute("data-phase");
				String setup = test.locator(".snia-setup").textContent();
				assertThat(setup).as("%s: setup header", name)
					.contains("Device")
					.contains("WDPC / test stimulus")
					.contains("Measurement window");
				Locator convergence = test.locator("[id^=snia-convergence-]");
				assertThat(Integer.parseInt(convergence.getAttribute("data-points")))
					.as("%s: rounds in the convergence plot", name)
					.isPositive();
				Locator window = test.locator("[id^=snia-window-]");
				assertThat(window.getAttribute("data-points")).as("%s: rounds in the measurement window", name)
					.isNotIn(null, "0");
				assertThat(window.getAttribute("data-levels")).as("%s: average, ±10 %% and ±20 %% bands", name)
					.isEqualTo("5");
				assertThat(window.getAttribute("data-segments")).as("%s: the slope line", name).isEqualTo("1");
				tests.add(name);
				setups.add(setup);
				Locator written = test.locator("[id^=snia-saturation-written-]");
				if (written.count() > 0) {
					for (String plot : List.of("[id^=snia-saturation-time-]", "[id^=snia-saturation-written-]")) {
						assertThat(test.locator(plot).getAttribute("data-points")).as("%s: %s", name, plot)
							.isNotIn(null, "0");
					}
					saturation.add(name);
				}
			}
			List<String> results = RESULTS.stream().filter((id) -> page.locator("#" + id).count() == 1).toList();
			page.locator("#snia-section").screenshot(new Locator.ScreenshotOptions().setPath(png));
			return new Shown(tests, setups, saturation, results, latencyRows(page));
		}
	}

	private static List<LatencyRow> latencyRows(Page page) {
		List<LatencyRow> rows = new ArrayList<>();
		Locator trs = page.locator("#snia-latency-table tbody tr");
		for (int i = 0; i < trs.count(); i++) {
			Locator tr = trs.nth(i);
			Map<String, Double> figures = new LinkedHashMap<>();
			Locator cells = tr.locator("td[data-figure]");
			for (int c = 0; c < cells.count(); c++) {
				String value = cells.nth(c).getAttribute("data-value");
				if (value != null) {
					figures.put(cells.nth(c).getAttribute("data-figure"), Double.parseDouble(value));
				}
			}
			String step = tr.getAttribute("data-step");
			rows.add(new LatencyRow(Integer.parseInt(tr.getAttribute("data-block")), tr.getAttribute("data-mix"),
					(step != null) ? Integer.valueOf(step) : null, figures, tr.locator("td").last().textContent()));
		}
		return rows;
	}

	@Override
	public void close() {
		this.chromium.close();
	}

}
