// Checks the root detection and the setpriv command line that keep Elasticsearch from running as root.
package io.drivequal.harness;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class RunAsTest {

	@Test
	void readsTheEffectiveUidFromProcStatus() {
		String status = "Name:\tjava\nUmask:\t0022\nState:\tS (sleeping)\nUid:\t1000\t0\t0\t0\nGid:\t1000\t0\t0\t0\n";
		assertEquals(0, RunAs.effectiveUid(status));
		assertEquals(1000, RunAs.effectiveUid("Uid:\t1000\t1000\t1000\t1000\n"));
	}

	@Test
	void effectiveUidMatchesTheIdCommand() throws Exception {
		assertEquals(Integer.parseInt(run(List.of("id", "-u"))), RunAs.currentEffectiveUid());
	}

	@Test
	void looksUpTheUserInPasswd() {
		List<String> passwd = List.of("root:x:0:0:root:/root:/bin/bash",
				"nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin");
		assertEquals(new RunAs("nobody", 65534, 65534), RunAs.lookup("nobody", passwd));
		assertThrows(IllegalStateException.class, () -> RunAs.lookup("elasticsearch", passwd));
	}

	@Test
	void buildsTheSetprivCommandLine() {
		assertEquals(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
				"--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search", "--"),
				new RunAs("nobody", 65534, 65534).commandPrefix());
	}

	@Test
	void dropsToNobodyOnlyWhenRoot() throws Exception {
		Optional<RunAs> runAs = RunAs.whenRoot();
		assertEquals(RunAs.currentEffectiveUid() == 0, runAs.isPresent());
		assumeTrue(runAs.isPresent(), "not root: Elasticsearch runs as the current user");
		assertEquals("nobody", runAs.get().userName());
		List<String> command = new ArrayList<>(runAs.get().commandPrefix());
		command.addAll(List.of("sh", "-c", "id -u; id -G"));
		// Really run through setpriv: uid changes and root's supplementary groups are
		// gone.
		assertEquals(runAs.get().uid() + "\n" + runAs.get().gid(), run(command));
	}

	@Test
	void readsACheckoutItDoesNotOwnButWritesOnlyItsOwnDirectory(@TempDir Path tempDir) throws Exception {
		Optional<RunAs> runAs = RunAs.whenRoot();
		assumeTrue(runAs.isPresent(), "only relevant when root");
		// A root-only checkout, like a clone under /root.
		Path closed = Files.createDirectory(tempDir.resolve("closed"),
				PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
		Files.writeString(closed.resolve("elasticsearch.yml"), "cluster.name: x\n");
		Path owned = Files.createDirectory(closed.resolve("instance"));
		runAs.get().chownRecursively(owned);
		List<String> command = new ArrayList<>(runAs.get().commandPrefix());
		command.addAll(List.of("sh", "-c",
				"cat " + closed.resolve("elasticsearch.yml") + " && touch " + owned.resolve("written") + " && (touch "
						+ closed.resolve("forbidden") + " 2>/dev/null || echo denied)"));
		assertEquals("cluster.name: x\ndenied", run(command));
		assertTrue(Files.exists(owned.resolve("written")));
	}

	private static String run(List<String> command) throws Exception {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
		assertEquals(0, process.waitFor(), out);
		return out;
	}

}
