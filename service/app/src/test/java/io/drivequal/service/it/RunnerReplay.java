/*
 * `drivequal-runner replay` for integration tests: a saved runner output (samples, job events and
 * heartbeats as JSON lines) produced to the shared broker by the C runner itself, each line
 * validated by its codecs first.
 */
package io.drivequal.service.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.drivequal.harness.RealInfrastructure;

import static org.assertj.core.api.Assertions.assertThat;

public final class RunnerReplay {

	private RunnerReplay() {
	}

	/**
	 * Replays the file; returns replay's stdout
	 * ({"produced":N,"delivered":N,"failed":N}).
	 */
	public static String replay(Path file) throws IOException, InterruptedException {
		Path runner = Path.of(System.getProperty("drivequal.runner.binary", "drivequal-runner"));
		assertThat(runner).as("the C runner must be built before the service's integration tests").isExecutable();
		Process process = new ProcessBuilder(runner.toString(), "replay", "--brokers",
				RealInfrastructure.shared().kafkaBootstrapServers(), file.toString())
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as("runner replay exit code; stdout: " + out).isZero();
		return out;
	}

}
