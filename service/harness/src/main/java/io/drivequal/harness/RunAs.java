// Elasticsearch refuses to run as root (as CI and these machines do); this drops it to an unprivileged user.
package io.drivequal.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The unprivileged user a child process runs as when this JVM is root, via util-linux
 * {@code setpriv}. The user defaults to {@code nobody}; system property
 * {@code drivequal.es.user} names another existing user.
 */
public record RunAs(String userName, int uid, int gid) {

	static final String DEFAULT_USER = "nobody";

	/** Empty when not root: then the process simply runs as the current user. */
	public static Optional<RunAs> whenRoot() {
		if (currentEffectiveUid() != 0) {
			return Optional.empty();
		}
		String user = System.getProperty("drivequal.es.user", DEFAULT_USER);
		try {
			return Optional.of(lookup(user, Files.readAllLines(Path.of("/etc/passwd"))));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Prepended to the command line; setpriv execs, so the started process is the target
	 * itself. The ambient CAP_DAC_READ_SEARCH lets the user read and traverse a checkout
	 * it does not own (CI may clone under /root, mode 700) while it can write only the
	 * instance directory handed to it; it grants no write access and no other privilege.
	 */
	public List<String> commandPrefix() {
		return List.of("setpriv", "--reuid=" + this.uid, "--regid=" + this.gid, "--clear-groups",
				"--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search", "--");
	}

	public static int currentEffectiveUid() {
		Path status = Path.of("/proc/self/status");
		try {
			if (Files.isReadable(status)) {
				return effectiveUid(Files.readString(status));
			}
			Process id = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
			String out = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
			id.waitFor();
			return Integer.parseInt(out);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The second field of the {@code Uid:} line is the effective uid, which is what ES
	 * checks.
	 */
	static int effectiveUid(String procStatus) {
		return procStatus.lines()
			.filter((line) -> line.startsWith("Uid:"))
			.map((line) -> Integer.parseInt(line.substring(4).trim().split("\\s+")[1]))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No Uid: line in /proc/self/status"));
	}

	static RunAs lookup(String user, List<String> passwdLines) {
		for (String line : passwdLines) {
			String[] fields = line.split(":");
			if (fields.length >= 4 && fields[0].equals(user)) {
				return new RunAs(user, Integer.parseInt(fields[2]), Integer.parseInt(fields[3]));
			}
		}
		throw new IllegalStateException("User '" + user + "' does not exist; it runs Elasticsearch when we are root");
	}

	/**
	 * Hands a directory tree to the user, so ES can write its keystore, data, logs and
	 * temp files.
	 */
	void chownRecursively(Path dir) {
		try (Stream<Path> paths = Files.walk(dir)) {
			for (Path path : (Iterable<Path>) paths::iterator) {
				Files.setAttribute(path, "unix:uid", this.uid, LinkOption.NOFOLLOW_LINKS);
				Files.setAttribute(path, "unix:gid", this.gid, LinkOption.NOFOLLOW_LINKS);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
