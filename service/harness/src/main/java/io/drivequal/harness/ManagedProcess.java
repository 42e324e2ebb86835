// One infrastructure process: output kept in a log file, stopped with its whole tree, never left running.
package io.drivequal.harness;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

final class ManagedProcess {

	static final Duration GRACEFUL_STOP = Duration.ofSeconds(30);

	private static final Duration FORCED_STOP = Duration.ofSeconds(10);

	private static final Set<ManagedProcess> RUNNING = ConcurrentHashMap.newKeySet();

	static {
		// Tests that crash or are interrupted must not leave brokers and ES nodes behind.
		Runtime.getRuntime().addShutdownHook(new Thread(ManagedProcess::stopAllRunning, "drivequal-harness-stop"));
	}

	private final String name;

	private final Process process;

	private final Path consoleLog;

	private ManagedProcess(String name, Process process, Path consoleLog) {
		this.name = name;
		this.process = process;
		this.consoleLog = consoleLog;
	}

	/** Output is appended, so a restarted broker keeps the log of its previous run. */
	static ManagedProcess start(String name, List<String> command, Map<String, String> environment, Path workDir,
			Path consoleLog) {
		ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
			.redirectErrorStream(true)
			.redirectOutput(Redirect.appendTo(consoleLog.toFile()))
			.redirectInput(Redirect.from(new File("/dev/null")));
		// A null value removes an inherited variable.
		environment.forEach((key, value) -> {
			if (value == null) {
				builder.environment().remove(key);
			}
			else {
				builder.environment().put(key, value);
			}
		});
		try {
			ManagedProcess started = new ManagedProcess(name, builder.start(), consoleLog);
			RUNNING.add(started);
			return started;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start " + name + ": " + command, ex);
		}
	}

	/**
	 * Runs a short command to completion (e.g. formatting Kafka storage); fails with its
	 * output.
	 */
	static void runToCompletion(String name, List<String> command, Path workDir, Path consoleLog, Duration timeout) {
		runToCompletion(name, command, Map.of(), workDir, consoleLog, timeout);
	}

	static void runToCompletion(String name, List<String> command, Map<String, String> environment, Path workDir,
			Path consoleLog, Duration timeout) {
		ManagedProcess tool = start(name, command, environment, workDir, consoleLog);
		try {
			if (!tool.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				tool.stop();
				throw new IllegalStateException(
						name + " did not finish within " + timeout.toSeconds() + " s" + describeLogs(consoleLog));
			}
			RUNNING.remove(tool);
			if (tool.process.exitValue() != 0) {
				throw new IllegalStateException(
						name + " failed with exit code " + tool.process.exitValue() + describeLogs(consoleLog));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			tool.stop();
			throw new IllegalStateException(name + " interrupted", ex);
		}
	}

	long pid() {
		return this.process.pid();
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	int exitValue() {
		return this.process.exitValue();
	}

	/**
	 * SIGTERM to the process and its descendants (ES runs a CLI JVM that forks the server
	 * JVM), then SIGKILL whatever is left after the grace period. The tree is captured
	 * first because children are reparented, and no longer descendants, once their parent
	 * exits.
	 */
	void stop() {
		List<ProcessHandle> tree = new ArrayList<>();
		tree.add(this.process.toHandle());
		this.process.descendants().forEach(tree::add);
		tree.forEach(ProcessHandle::destroy);
		if (!awaitExit(tree, GRACEFUL_STOP)) {
			System.out.println("[harness] " + this.name + " did not stop within " + GRACEFUL_STOP.toSeconds()
					+ " s of SIGTERM; killing it (log: " + this.consoleLog + ")");
			tree.forEach(ProcessHandle::destroyForcibly);
			awaitExit(tree, FORCED_STOP);
		}
		RUNNING.remove(this);
	}

	private static boolean awaitExit(List<ProcessHandle> tree, Duration timeout) {
		CompletableFuture<?>[] exits = tree.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new);
		try {
			CompletableFuture.allOf(exits).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
			return true;
		}
		catch (TimeoutException ex) {
			return false;
		}
		catch (ExecutionException ex) {
			return tree.stream().noneMatch(ProcessHandle::isAlive);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private static void stopAllRunning() {
		// In parallel: ES and Kafka each may take seconds to shut down cleanly.
		List<ManagedProcess> running = new ArrayList<>(RUNNING);
		List<Thread> stoppers = new ArrayList<>();
		for (ManagedProcess managed : running) {
			Thread stopper = new Thread(managed::stop, "drivequal-harness-stop-" + managed.name);
			stopper.start();
			stoppers.add(stopper);
		}
		for (Thread stopper : stoppers) {
			try {
				stopper.join();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	static String describeLogs(Path... logs) {
		StringBuilder text = new StringBuilder();
		for (Path log : logs) {
			text.append("\n--- last lines of ").append(log).append(" ---\n").append(tail(log, 60));
		}
		return text.toString();
	}

	/** The end of a possibly large log, for exception messages. */
	static String tail(Path log, int lineCount) {
		if (!Files.isRegularFile(log)) {
			return "(no such file)\n";
		}
		try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
			long bytes = Math.min(file.length(), 64 * 1024);
			byte[] buffer = new byte[(int) bytes];
			file.seek(file.length() - bytes);
			file.readFully(buffer);
			List<String> lines = new String(buffer, StandardCharsets.UTF_8).lines().toList();
			return String.join("\n", lines.subList(Math.max(0, lines.size() - lineCount), lines.size())) + "\n";
		}
		catch (IOException ex) {
			return "(unreadable: " + ex + ")\n";
		}
	}

}
