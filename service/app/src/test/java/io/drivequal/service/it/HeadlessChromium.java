/*
 * Debian's chromium driven by Playwright for the web report's browser tests. Playwright never
 * downloads a browser here (these machines reach no browser host); the executable is the
 * system's, from -Ddrivequal.chromium or the standard Debian location or PATH.
 */
package io.drivequal.service.it;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Playwright;

public final class HeadlessChromium implements AutoCloseable {

	/**
	 * Flags that let chromium run headless as root, offline, without touching the
	 * network.
	 */
	private static final List<String> ARGS = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
			"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
			"--disable-dev-shm-usage");

	private final Playwright playwright;

	private final Browser browser;

	public HeadlessChromium() {
		Path executable = executable();
		this.playwright = Playwright
			.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
		this.browser = this.playwright.chromium()
			.launch(new BrowserType.LaunchOptions().setExecutablePath(executable).setHeadless(true).setArgs(ARGS));
	}

	public Browser browser() {
		return this.browser;
	}

	static Path executable() {
		String configured = System.getProperty("drivequal.chromium");
		if (configured != null && !configured.isBlank()) {
			return Path.of(configured);
		}
		Path debian = Path.of("/usr/bin/chromium");
		if (Files.isExecutable(debian)) {
			return debian;
		}
		for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			for (String name : List.of("chromium", "chromium-browser")) {
				Path candidate = Path.of(dir, name);
				if (Files.isExecutable(candidate)) {
					return candidate;
				}
			}
		}
		throw new IllegalStateException(
				"no chromium found (apt-get install chromium, or -Ddrivequal.chromium=/path/to/chromium)");
	}

	@Override
	public void close() {
		this.browser.close();
		this.playwright.close();
	}

}
