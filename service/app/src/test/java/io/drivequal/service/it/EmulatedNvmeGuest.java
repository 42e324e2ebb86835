/*
 * The runner's guest tier (spdk-runner/tests/guest) for the service's integration tests: a QEMU
 * guest with an emulated NVMe controller, the built runner inside it playing the agent over files
 * in a shared folder (mailbox.sh), since the guest has no network; between jobs a test changes the
 * emulated drive through QEMU's monitor (QMP), as a failing drive would change itself. In CI the
 * guest always runs (a missing tool fails the test); elsewhere, without root or the tools, the test
 * is skipped with the reason guest.sh gives.
 */
package io.drivequal.service.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

public final class EmulatedNvmeGuest implements AutoCloseable {

	private static final int SKIP = 77;

	/** The emulated NVMe controller's QOM path (guest.sh names the device dqctrl). */
	private static final String CONTROLLER = "/machine/peripheral/dqctrl";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Path dir;

	private final Process process;

	private EmulatedNvmeGuest(Path dir, Process process) {
		this.dir = dir;
		this.process = process;
	}

	private static Path script(String name) {
		Path guestDir = Path.of(System.getProperty("drivequal.guest.dir", "../../spdk-runner/tests/guest"));
		return guestDir.resolve(name).toAbsolutePath().normalize();
	}

	/**
	 * Skips the calling test outside CI when the guest cannot run here; in CI a missing
	 * tool fails it.
	 */
	public static void assumeReady() throws IOException, InterruptedException {
		Process check = new ProcessBuilder(script("guest.sh").toString(), "check").redirectErrorStream(true).start();
		String out = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
		assertThat(check.waitFor(60, TimeUnit.SECONDS)).as("guest.sh check finished").isTrue();
		Assumptions.assumeTrue(check.exitValue() != SKIP, out);
		assertThat(check.exitValue()).as(out).isZero();
	}

	/**
	 * Boots the guest with mailbox.sh as its command, to run {@code jobs} jobs one after
	 * the other; the guest's console goes to {@code dir/guest.log}.
	 */
	public static EmulatedNvmeGuest startMailbox(Path dir, String runnerId, int jobs) throws IOException {
		Files.createDirectories(dir);
		Path runner = Path.of(System.getProperty("drivequal.runner.binary", "drivequal-runner")).toAbsolutePath();
		assertThat(runner).as("the C runner must be built before the service's integration tests").isExecutable();
		ProcessBuilder builder = new ProcessBuilder(script("guest.sh").toString(), "exec", dir.toString(), "--",
				script("mailbox.sh").toString(), dir.toAbsolutePath().toString(), runnerId, String.valueOf(jobs))
			.redirectErrorStream(true)
			.redirectOutput(dir.resolve("guest.log").toFile());
		builder.environment().put("RUNNER", runner.toString());
		return new EmulatedNvmeGuest(dir.toAbsolutePath(), builder.start());
	}

	public Path dir() {
		return this.dir;
	}

	/** Waits for a file the guest writes whole (it renames it into place). */
	public Path awaitFile(String name, Duration atMost) {
		Path file = this.dir.resolve(name);
		await().atMost(atMost).pollInterval(Duration.ofSeconds(1)).until(() -> {
			assertThat(Files.exists(file) || this.process.isAlive())
				.as("the guest stopped before writing " + name + "; see " + this.dir.resolve("guest.log"))
				.isTrue();
			return Files.exists(file);
		});
		return file;
	}

	/** Hands the guest a file, whole: written aside, then renamed into place. */
	public void deliver(String name, byte[] content) throws IOException {
		Path part = this.dir.resolve(name + ".part");
		Files.write(part, content);
		Files.move(part, this.dir.resolve(name), StandardCopyOption.ATOMIC_MOVE);
	}

	/**
	 * Sets the emulated controller's SMART critical warning bits while the guest runs
	 * (QMP qom-set of QEMU's smart_critical_warning on the device; QEMU refuses bits it
	 * does not emulate). Returns the bits the controller holds afterwards, read back.
	 */
	public int setCriticalWarning(int bits) throws IOException {
		try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(this.dir.resolve("qmp.sock")));
				BufferedReader in = new BufferedReader(Channels.newReader(channel, StandardCharsets.UTF_8));
				Writer out = Channels.newWriter(channel, StandardCharsets.UTF_8)) {
			assertThat(JSON.readTree(in.readLine()).has("QMP")).as("QEMU's monitor greets").isTrue();
			qmp(in, out, "qmp_capabilities", Map.of());
			qmp(in, out, "qom-set", Map.of("path", CONTROLLER, "property", "smart_critical_warning", "value", bits));
			return qmp(in, out, "qom-get", Map.of("path", CONTROLLER, "property", "smart_critical_warning")).asInt();
		}
	}

	/** One monitor command and its return value; events on the way are skipped. */
	private static JsonNode qmp(BufferedReader in, Writer out, String command, Map<String, Object> arguments)
			throws IOException {
		Map<String, Object> message = new LinkedHashMap<>();
		message.put("execute", command);
		if (!arguments.isEmpty()) {
			message.put("arguments", arguments);
		}
		out.write(JSON.writeValueAsString(message) + "\n");
		out.flush();
		while (true) {
			String line = in.readLine();
			assertThat(line).as("QEMU's monitor answers " + command).isNotNull();
			JsonNode reply = JSON.readTree(line);
			if (!reply.has("event")) {
				assertThat(reply.has("error")).as(command + ": " + line).isFalse();
				return reply.get("return");
			}
		}
	}

	/** The guest's exit status once it has shut down. */
	public int awaitExit(Duration atMost) throws InterruptedException {
		assertThat(this.process.waitFor(atMost.toSeconds(), TimeUnit.SECONDS))
			.as("the guest shut down; see " + this.dir.resolve("guest.log"))
			.isTrue();
		return this.process.exitValue();
	}

	@Override
	public void close() throws InterruptedException {
		if (this.process.isAlive()) {
			// guest.sh runs QEMU under timeout(1): ending the process tree ends QEMU.
			this.process.descendants().forEach(ProcessHandle::destroy);
			this.process.destroy();
			this.process.waitFor(30, TimeUnit.SECONDS);
		}
	}

}
