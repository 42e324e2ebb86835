/*
 * A latency-at-load sweep written once in a plan: one multi-stream phase and the read rates to
 * offer, expanded at submission into one step phase per rate, all in one sweepGroup (so the runner
 * stops at saturation). Bad sweeps are refused with the field that is wrong.
 */
package io.drivequal.service.qualification;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.catalog.StreamSpec;
import io.drivequal.service.platform.BadRequestException;

final class SweepPlan {

	/** A job holds at most this many phases (the contract's phaseCount). */
	static final int MAX_PHASES = 64;

	private static final Pattern PHASE_NAME = Pattern.compile("^[a-z0-9][a-z0-9-]{0,63}$");

	private SweepPlan() {
	}

	/**
	 * The plan's phases with the swept phase replaced by its steps.
	 * @param phases the plan's phases (a profile's after overrides, or explicit)
	 * @param sweep plan.sweep, or null
	 * @return the phases to index and run
	 * @throws BadRequestException naming the plan.sweep field that is wrong
	 */
	static List<PhaseSpec> expanded(List<PhaseSpec> phases, SubmitRequest.Sweep sweep) {
		if (sweep == null) {
			return phases;
		}
		List<Long> rates = rates(sweep);
		int at = -1;
		for (int i = 0; i < phases.size(); i++) {
			if (phases.get(i).name() != null && phases.get(i).name().equals(sweep.phase())) {
				at = i;
			}
		}
		if (at < 0) {
			throw new BadRequestException("plan.sweep.phase", "the plan has no phase named " + sweep.phase());
		}
		PhaseSpec template = phases.get(at);
		if (!template.isWorkload() || template.streams() == null || template.streams().isEmpty()) {
			throw new BadRequestException("plan.sweep.phase",
					"phase " + sweep.phase() + " is not a multi-stream workload (a sweep sets a stream's rateIops)");
		}
		int stream = stream(template, sweep.stream());
		if (phases.size() - 1 + rates.size() > MAX_PHASES) {
			throw new BadRequestException("plan.sweep", "the sweep makes the plan " + (phases.size() - 1 + rates.size())
					+ " phases; a job holds at most " + MAX_PHASES);
		}
		List<PhaseSpec> expanded = new ArrayList<>(phases.subList(0, at));
		for (long rate : rates) {
			String name = sweep.phase() + "-" + rateName(rate);
			if (!PHASE_NAME.matcher(name).matches()) {
				throw new BadRequestException("plan.sweep.phase",
						"the step name " + name + " is not a phase name (at most 64 characters)");
			}
			expanded.add(step(template, name, stream, rate));
		}
		expanded.addAll(phases.subList(at + 1, phases.size()));
		for (PhaseSpec phase : expanded) {
			if (expanded.stream().filter((other) -> phase.name().equals(other.name())).count() > 1) {
				throw new BadRequestException("plan.sweep.phase",
						"the step " + phase.name() + " has the name of another phase of the plan");
			}
		}
		return expanded;
	}

	private static List<Long> rates(SubmitRequest.Sweep sweep) {
		boolean list = sweep.ratesIops() != null;
		boolean range = sweep.startIops() != null || sweep.stepIops() != null || sweep.steps() != null;
		if (list == range) {
			throw new BadRequestException("plan.sweep",
					"give either ratesIops or startIops, stepIops and steps (the rates of the sweep)");
		}
		if (sweep.phase() == null) {
			throw new BadRequestException("plan.sweep.phase", "name the plan's phase to sweep");
		}
		List<Long> rates = new ArrayList<>();
		if (list) {
			rates.addAll(sweep.ratesIops());
		}
		else {
			if (sweep.startIops() == null || sweep.startIops() < 1) {
				throw new BadRequestException("plan.sweep.startIops", "must be at least 1 IOPS");
			}
			if (sweep.stepIops() == null || sweep.stepIops() < 1) {
				throw new BadRequestException("plan.sweep.stepIops", "must be at least 1 IOPS");
			}
			if (sweep.steps() == null || sweep.steps() < 2 || sweep.steps() > MAX_PHASES) {
				throw new BadRequestException("plan.sweep.steps", "must be 2 to " + MAX_PHASES);
			}
			for (int i = 0; i < sweep.steps(); i++) {
				rates.add(sweep.startIops() + i * sweep.stepIops());
			}
		}
		if (rates.size() < 2) {
			throw new BadRequestException("plan.sweep.ratesIops", "a sweep needs at least two rates");
		}
		for (int i = 0; i < rates.size(); i++) {
			Long rate = rates.get(i);
			if (rate == null || rate < 1) {
				throw new BadRequestException("plan.sweep.ratesIops[" + i + "]", "must be at least 1 IOPS");
			}
			if (i > 0 && rate <= rates.get(i - 1)) {
				throw new BadRequestException("plan.sweep.ratesIops[" + i + "]",
						"the rates must rise: " + rate + " after " + rates.get(i - 1));
			}
		}
		return rates;
	}

	/** The index of the stream whose rate the sweep sets. */
	private static int stream(PhaseSpec template, String name) {
		List<StreamSpec> streams = template.streams();
		List<Integer> candidates = new ArrayList<>();
		for (int i = 0; i < streams.size(); i++) {
			StreamSpec stream = streams.get(i);
			boolean named = (name == null) || name.equals(stream.name());
			if (named && stream.rateIops() != null) {
				candidates.add(i);
			}
		}
		if (name != null && candidates.isEmpty()) {
			throw new BadRequestException("plan.sweep.stream",
					"phase " + template.name() + " has no open-loop stream named " + name + " at rateIops");
		}
		if (candidates.size() != 1) {
			throw new BadRequestException("plan.sweep.stream", "phase " + template.name() + " has " + candidates.size()
					+ " open-loop streams at rateIops: name the one to sweep");
		}
		return candidates.get(0);
	}

	private static PhaseSpec step(PhaseSpec template, String name, int stream, long rate) {
		List<StreamSpec> streams = new ArrayList<>(template.streams());
		StreamSpec s = streams.get(stream);
		streams.set(stream,
				new StreamSpec(s.name(), s.rw(), s.readPercent(), s.trimPercent(), s.randomPercent(),
						s.blockSizeBytes(), s.blockSizeSplit(), s.queueDepth(), s.offsetBytes(), s.offsetPercent(),
						s.rangeBytes(), s.rangePercent(), rate, s.rateBytesPerS(), s.arrivals(), s.thinkTimeUs(),
						s.thinkTimeBlocks(), s.startDelayMs(), s.placementHandle()));
		return new PhaseSpec(template.index(), name, template.kind(), template.rw(), template.readPercent(),
				template.blockSizeBytes(), template.queueDepth(), template.rangePercent(), template.runtimeS(),
				template.sizeBytes(), template.passes(), template.dataPattern(), template.idleS(),
				template.purgeMethod(), template.smartSnapshot(), template.capacityMultiple(), template.rounds(),
				template.purgeFallback(), List.copyOf(streams), template.name(), template.powerCycle());
	}

	/** 10000 as 10k, 1000000 as 1m, 12500 as 12500: how the profile names its steps. */
	static String rateName(long rate) {
		if (rate % 1_000_000 == 0) {
			return (rate / 1_000_000) + "m";
		}
		if (rate % 1_000 == 0) {
			return (rate / 1_000) + "k";
		}
		return Long.toString(rate);
	}

}
