/*
 * What a plan needs against what the drive's runner probed: each refusal names the missing
 * capability, why and what would provide it; a capability the runner did not list is not held
 * against the plan; purgeFallback deallocate lets a purge run as a TRIM.
 */
package io.drivequal.service.qualification;

import java.time.Instant;
import java.util.List;

import io.drivequal.analysis.Criterion;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.catalog.StreamSpec;
import io.drivequal.service.platform.UnprocessableException;
import io.drivequal.service.runners.Capability;
import io.drivequal.service.runners.Drive;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CapabilityCheckTest {

	private static final String NO_ADMIN = "runner-lacks-sys-admin";

	/** An NVMe drive whose runner lacks CAP_SYS_ADMIN: only deallocate. */
	private static final List<Capability> WITHOUT_SYS_ADMIN = List.of(lacks("format-user-data", NO_ADMIN),
			lacks("format-crypto", NO_ADMIN), lacks("sanitize-block", NO_ADMIN), lacks("sanitize-crypto", NO_ADMIN),
			lacks("sanitize-overwrite", NO_ADMIN), new Capability("deallocate", true, null, null, null),
			lacks("smart", NO_ADMIN), lacks("ocp-smart-c0h", NO_ADMIN));

	@Test
	void purgeAutoWithoutFormatOrSanitizeIsRefusedNamingBothAndTheWayOut() {
		List<CapabilityCheck.Missing> missing = CapabilityCheck.missing(drive(WITHOUT_SYS_ADMIN),
				List.of(purge("auto", null), write()), List.of());
		assertThat(missing).extracting(CapabilityCheck.Missing::capability)
			.containsExactly("sanitize-block", "format-user-data");
		assertThat(missing.get(0).missing()).isEqualTo(NO_ADMIN);
		assertThat(missing.get(0).neededBy()).isEqualTo("plan.phases[0] (purge, purgeMethod auto)");
		assertThat(missing.get(0).remedy()).contains("CAP_SYS_ADMIN")
			.contains("IPC_LOCK, SYS_ADMIN")
			.contains("plan.purgeFallback: deallocate");
	}

	@Test
	void theFallbackLetsThePurgeRunAsATrim() {
		assertThat(CapabilityCheck.missing(drive(WITHOUT_SYS_ADMIN), List.of(purge("auto", "deallocate"), write()),
				List.of()))
			.isEmpty();
		assertThat(CapabilityCheck.missing(drive(WITHOUT_SYS_ADMIN),
				List.of(purge("format-user-data", "deallocate"), write()), List.of()))
			.isEmpty();
	}

	@Test
	void aFallbackTheDriveCannotDoEitherStillRefuses() {
		List<Capability> nothing = List.of(lacks("format-user-data", "device-lacks-it"),
				lacks("deallocate", "device-lacks-it"));
		assertThat(CapabilityCheck.missing(drive(nothing), List.of(purge("format-user-data", "deallocate")), List.of()))
			.extracting(CapabilityCheck.Missing::capability)
			.containsExactly("format-user-data");
	}

	@Test
	void wafAndHealthCriteriaNeedTheDrivesCounters() {
		List<Criterion> criteria = List.of(Criterion.fromJson("waf", "atMost", 3.0, null, null),
				Criterion.fromJson("maxTemperatureC", "atMost", 70.0, null, null),
				Criterion.fromJson("steadyStateIops", "atLeast", 1000.0, null, null));
		List<CapabilityCheck.Missing> missing = CapabilityCheck.missing(drive(WITHOUT_SYS_ADMIN), List.of(write()),
				criteria);
		assertThat(missing).extracting(CapabilityCheck.Missing::capability, CapabilityCheck.Missing::neededBy)
			.containsExactly(org.assertj.core.groups.Tuple.tuple("smart", "criteria[0] (waf)"),
					org.assertj.core.groups.Tuple.tuple("ocp-smart-c0h", "criteria[0] (waf)"),
					org.assertj.core.groups.Tuple.tuple("smart", "criteria[1] (maxTemperatureC)"));
		// A drive with SMART but without the OCP log: only C0h is missing, and what gives
		// it.
		List<Capability> noC0h = List.of(new Capability("smart", true, null, null, null),
				lacks("ocp-smart-c0h", "device-lacks-it"));
		List<CapabilityCheck.Missing> waf = CapabilityCheck.missing(drive(noC0h), List.of(write()),
				criteria.subList(0, 1));
		assertThat(waf).singleElement().satisfies((m) -> {
			assertThat(m.capability()).isEqualTo("ocp-smart-c0h");
			assertThat(m.remedy()).contains("OCP extended SMART log (C0h)");
		});
	}

	@Test
	void whatTheRunnerDidNotSayIsNotHeldAgainstThePlan() {
		assertThat(CapabilityCheck.missing(drive(null), List.of(purge("format-crypto", null)),
				List.of(Criterion.fromJson("waf", "atMost", 3.0, null, null))))
			.isEmpty();
		assertThat(CapabilityCheck.missing(drive(List.of(new Capability("deallocate", true, null, null, null))),
				List.of(purge("auto", null)), List.of(Criterion.fromJson("waf", "atMost", 3.0, null, null))))
			.isEmpty();
	}

	@Test
	void theRefusalIsAProblemListingEachMissingCapability() {
		assertThatThrownBy(() -> CapabilityCheck.require(drive(WITHOUT_SYS_ADMIN),
				List.of(purge("sanitize-crypto", null)), List.of()))
			.isInstanceOf(UnprocessableException.class)
			.hasMessageStartingWith("drive S1 on runner r1 cannot run this plan: sanitize-crypto (needed by "
					+ "plan.phases[0] (purge, purgeMethod sanitize-crypto)) is missing: runner-lacks-sys-admin")
			.satisfies((ex) -> assertThat(((UnprocessableException) ex).missingCapabilities()).singleElement()
				.satisfies((m) -> assertThat(m).containsEntry("capability", "sanitize-crypto")
					.containsEntry("missing", NO_ADMIN)
					.containsKey("remedy")));
	}

	private static Capability lacks(String name, String why) {
		return new Capability(name, false, why, null, "probe said so");
	}

	private static Drive drive(List<Capability> capabilities) {
		return new Drive("S1", "model", "fw", 1L << 30, 4096, "uring", "/dev/nvme0n1", "r1", true, "idle", null,
				Instant.EPOCH, capabilities);
	}

	private static PhaseSpec purge(String method, String fallback) {
		return new PhaseSpec(0, "purge", "purge", null, null, null, null, null, null, null, null, null, null, method,
				null, null, null, fallback, null);
	}

	private static PhaseSpec write() {
		return new PhaseSpec(1, "randwrite", "workload", "randwrite", null, 4096, 32, 100.0, 10L, null, null, null,
				null, null, true, null);
	}

	@Test
	void aPlacementHandleNeedsADriveWithFdpEnabled() {
		StreamSpec hot = new StreamSpec("hot", "randwrite", null, null, null, 4096L, null, 8, null, null, null, 10.0,
				null, null, null, null, null, null, 1);
		StreamSpec plain = new StreamSpec("cold", "randwrite", null, null, null, 4096L, null, 2, null, 10.0, null, 90.0,
				null, null, null, null, null, null, null);
		List<PhaseSpec> plan = List.of(PhaseSpec.ofStreams(0, "hot-cold", 60, List.of(plain, hot)));
		List<CapabilityCheck.Missing> missing = CapabilityCheck.missing(drive(List.of(lacks("fdp", "device-lacks-it"))),
				plan, List.of());
		assertThat(missing).extracting(CapabilityCheck.Missing::capability, CapabilityCheck.Missing::neededBy)
			.containsExactly(
					org.assertj.core.groups.Tuple.tuple("fdp", "plan.phases[0].streams[1].placementHandle (hot)"));
		assertThat(missing.get(0).remedy()).contains("Flexible Data Placement");
		// supported but off: refused, saying so
		List<CapabilityCheck.Missing> off = CapabilityCheck
			.missing(drive(List.of(new Capability("fdp", true, null, false, null))), plan, List.of());
		assertThat(off).extracting(CapabilityCheck.Missing::detail)
			.containsExactly("FDP is supported but not enabled in the drive's endurance group");
		// enabled, or a runner that did not say: the runner decides (and checks the
		// handle)
		assertThat(CapabilityCheck.missing(drive(List.of(new Capability("fdp", true, null, true, "8 handles"))), plan,
				List.of()))
			.isEmpty();
		assertThat(CapabilityCheck.missing(drive(List.of()), plan, List.of())).isEmpty();
		// no placement, no need
		assertThat(CapabilityCheck.missing(drive(List.of(lacks("fdp", "device-lacks-it"))),
				List.of(PhaseSpec.ofStreams(0, "plain", 60, List.of(plain))), List.of()))
			.isEmpty();
	}

}
