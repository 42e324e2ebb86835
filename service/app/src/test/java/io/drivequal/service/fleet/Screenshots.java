/*
 * The web pages while the fleet runs, as an operator sees them: the jobs page and one job's live
 * page, in headless Chromium, saved as PNG files to be looked at.
 */
package io.drivequal.service.fleet;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import io.drivequal.service.it.HeadlessChromium;

final class Screenshots {

	private Screenshots() {
	}

	/** Returns the files written and how long each page took to show its data (ms). */
	static List<String> take(String baseUrl, String runningJobId, Path dir) {
		List<String> taken = new ArrayList<>();
		try (HeadlessChromium chromium = new HeadlessChromium();
				BrowserContext context = chromium.browser()
					.newContext(new Browser.NewContextOptions().setViewportSize(1440, 1000))) {
			Page page = context.newPage();
			long start = System.currentTimeMillis();
			page.navigate(baseUrl + "/ui/");
			page.fill("#signin-user", "viewer");
			page.fill("#signin-password", "viewer-pw");
			page.click("#signin-submit");
			page.waitForSelector("#jobs-table[data-loaded]");
			long jobsMs = System.currentTimeMillis() - start;
			Path jobs = dir.resolve("jobs-page.png");
			page.screenshot(new Page.ScreenshotOptions().setPath(jobs).setFullPage(true));
			taken.add(jobs + " (jobs page shown in " + jobsMs + " ms)");
			start = System.currentTimeMillis();
			page.navigate(baseUrl + "/ui/jobs/" + runningJobId);
			page.waitForSelector("#chart-live[data-points]", new Page.WaitForSelectorOptions().setTimeout(120_000));
			long liveMs = System.currentTimeMillis() - start;
			// let the stream draw a few more seconds
			page.waitForFunction("() => Number(document.querySelector('#chart-live').dataset.points) >= 20", null,
					new Page.WaitForFunctionOptions().setTimeout(120_000));
			Path live = dir.resolve("live-job-page.png");
			page.screenshot(new Page.ScreenshotOptions().setPath(live).setFullPage(true));
			taken.add(live + " (live chart drawn " + liveMs + " ms after opening)");
		}
		catch (RuntimeException ex) {
			taken.add("screenshots failed: " + ex.getMessage());
		}
		return taken;
	}

}
