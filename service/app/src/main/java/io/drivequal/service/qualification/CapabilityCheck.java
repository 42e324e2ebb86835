/*
 * What a plan needs from the drive and its runner, checked at submission against what the runner
 * probed (the drive's capabilities in the inventory): a Format or Sanitize purge the drive cannot
 * do (auto included: it never degrades to a TRIM unless the buyer accepts one with purgeFallback),
 * WAF or endurance criteria without a media-writes counter (the OCP C0h log), health criteria
 * without SMART. Each missing capability is named with why and what would provide it; a capability
 * the runner did not list (an older runner, SMART on the spdk engine) is not held against the plan.
 */
package io.drivequal.service.qualification;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.drivequal.analysis.Criterion;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.catalog.StreamSpec;
import io.drivequal.service.platform.UnprocessableException;
import io.drivequal.service.runners.Capability;
import io.drivequal.service.runners.Drive;

final class CapabilityCheck {

	/** The purges SNIA PTS accepts, strongest first: what purgeMethod auto runs. */
	static final List<String> PTS_PURGES = List.of("sanitize-crypto", "sanitize-block", "sanitize-overwrite",
			"format-crypto", "format-user-data");

	/** The only substitute a buyer may accept for a purge. */
	static final String FALLBACK = "deallocate";

	/**
	 * Criteria judged on the drive's own media writes (OCP C0h physical media units
	 * written).
	 */
	private static final Set<String> MEDIA_WRITES_METRICS = Set.of("waf", "steadyStateWaf", "dwpd", "tbwBytes");

	/** Criteria judged on the drive's SMART / Health log. */
	private static final Set<String> HEALTH_METRICS = Set.of("maxTemperatureC", "criticalWarning", "newMediaErrors",
			"thermalThrottleSeconds");

	private CapabilityCheck() {
	}

	/**
	 * One capability the plan needs that the drive or its runner lacks.
	 *
	 * @param neededBy what in the request needs it, e.g.
	 * {@code plan.phases[0] (purge auto)}
	 */
	record Missing(String capability, String neededBy, String missing, String detail, String remedy) {

		Map<String, String> toProblem() {
			Map<String, String> member = new LinkedHashMap<>();
			member.put("capability", this.capability);
			member.put("neededBy", this.neededBy);
			member.put("missing", this.missing);
			if (this.detail != null) {
				member.put("detail", this.detail);
			}
			member.put("remedy", this.remedy);
			return member;
		}

	}

	/** Refuses (422) a plan that needs what the drive cannot do. */
	static void require(Drive drive, List<PhaseSpec> plan, List<Criterion> criteria) {
		List<Missing> missing = missing(drive, plan, criteria);
		if (missing.isEmpty()) {
			return;
		}
		StringBuilder detail = new StringBuilder(
				"drive " + drive.serial() + " on runner " + drive.runnerId() + " cannot run this plan: ");
		for (int i = 0; i < missing.size(); i++) {
			Missing m = missing.get(i);
			detail.append((i > 0) ? "; " : "")
				.append(m.capability())
				.append(" (needed by ")
				.append(m.neededBy())
				.append(") is missing: ")
				.append(m.missing())
				.append((m.detail() != null) ? " — " + m.detail() : "")
				.append("; provided by: ")
				.append(m.remedy());
		}
		throw new UnprocessableException(detail.toString(), missing.stream().map(Missing::toProblem).toList());
	}

	static List<Missing> missing(Drive drive, List<PhaseSpec> plan, List<Criterion> criteria) {
		List<Missing> missing = new ArrayList<>();
		List<Capability> capabilities = drive.capabilities();
		if (capabilities == null) {
			return missing; // a runner that does not probe: nothing to hold against the
							// plan
		}
		for (int i = 0; i < plan.size(); i++) {
			PhaseSpec phase = plan.get(i);
			if ("purge".equals(phase.kind())) {
				missing.addAll(purge(capabilities, phase,
						"plan.phases[" + i + "] (" + phase.name() + ", purgeMethod " + phase.purgeMethod() + ")"));
			}
			missing.addAll(placement(capabilities, phase, i));
		}
		if (criteria != null) {
			for (int i = 0; i < criteria.size(); i++) {
				String metric = criteria.get(i).metric().wireName();
				String neededBy = "criteria[" + i + "] (" + metric + ")";
				if (MEDIA_WRITES_METRICS.contains(metric)) {
					lacking(capabilities, "smart").ifPresent((c) -> missing.add(of(c, neededBy, null)));
					lacking(capabilities, "ocp-smart-c0h").ifPresent((c) -> missing.add(of(c, neededBy,
							"a drive with the OCP extended SMART log (C0h), whose physical media bytes written "
									+ "WAF and endurance are computed from; without it they are unknown, never "
									+ "guessed")));
				}
				if (HEALTH_METRICS.contains(metric)) {
					lacking(capabilities, "smart").ifPresent((c) -> missing.add(of(c, neededBy, null)));
				}
			}
		}
		return missing;
	}

	/**
	 * What a purge phase lacks: nothing when it can run, or run its accepted fallback.
	 */
	private static List<Missing> purge(List<Capability> capabilities, PhaseSpec phase, String neededBy) {
		List<String> wanted = "auto".equals(phase.purgeMethod()) ? PTS_PURGES : List.of(phase.purgeMethod());
		List<Capability> lacking = new ArrayList<>();
		for (String name : wanted) {
			Optional<Capability> capability = Capability.find(capabilities, name);
			if (capability.isEmpty() || capability.get().available()) {
				return List.of(); // it can, or the runner did not say: the runner decides
			}
			lacking.add(capability.get());
		}
		boolean fallbackPossible = Capability.find(capabilities, FALLBACK).map(Capability::available).orElse(true);
		if (FALLBACK.equals(phase.purgeFallback()) && fallbackPossible) {
			return List.of(); // the buyer accepts a TRIM; the results will say it ran
		}
		String alternative = fallbackPossible && !FALLBACK.equals(phase.purgeMethod())
				? "; or accept a TRIM instead with plan.purgeFallback: deallocate (SNIA PTS does not count it as a "
						+ "purge: the report marks the test not conformant)"
				: "";
		// auto: the PTS purges a drive of this kind would have; one line each for Format
		// and
		// Sanitize
		List<Missing> missing = new ArrayList<>();
		for (Capability capability : lacking) {
			if (wanted.size() > 1 && !capability.name().equals("format-user-data")
					&& !capability.name().equals("sanitize-block")) {
				continue;
			}
			missing.add(of(capability, neededBy, null, alternative));
		}
		return missing;
	}

	/**
	 * Streams with a placement handle need Flexible Data Placement, enabled; whether the
	 * handle is one of the drive's the runner checks, before any write.
	 */
	private static List<Missing> placement(List<Capability> capabilities, PhaseSpec phase, int index) {
		List<Missing> missing = new ArrayList<>();
		if (phase.streams() == null) {
			return missing;
		}
		Optional<Capability> fdp = Capability.find(capabilities, "fdp");
		for (int j = 0; j < phase.streams().size(); j++) {
			StreamSpec stream = phase.streams().get(j);
			if (stream.placementHandle() == null || fdp.isEmpty()) {
				continue;
			}
			String neededBy = "plan.phases[" + index + "].streams[" + j + "].placementHandle ("
					+ ((stream.name() != null) ? stream.name() : "stream" + j) + ")";
			if (!fdp.get().available()) {
				missing.add(of(fdp.get(), neededBy, "a drive with Flexible Data Placement (NVMe TP4146), or the "
						+ "stream without placementHandle"));
			}
			else if (Boolean.FALSE.equals(fdp.get().enabled())) {
				Capability disabled = new Capability("fdp", false, "device-lacks-it", false,
						"FDP is supported but not enabled in the drive's endurance group");
				missing.add(of(disabled, neededBy, "enable FDP on the drive (nvme fdp feature --enable-conf-idx), or "
						+ "the stream without placementHandle"));
			}
		}
		return missing;
	}

	private static Optional<Capability> lacking(List<Capability> capabilities, String name) {
		return Capability.find(capabilities, name).filter((capability) -> !capability.available());
	}

	private static Missing of(Capability capability, String neededBy, String deviceRemedy) {
		return of(capability, neededBy, deviceRemedy, "");
	}

	private static Missing of(Capability capability, String neededBy, String deviceRemedy, String alternative) {
		String remedy = ("device-lacks-it".equals(capability.missing()) && deviceRemedy != null) ? deviceRemedy
				: capability.remedy();
		return new Missing(capability.name(), neededBy, capability.missing(), capability.detail(),
				remedy + alternative);
	}

}
