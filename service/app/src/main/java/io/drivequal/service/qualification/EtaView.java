/*
 * A job's ETA as the API and the web pages show it: the time left, what it rests on (a measurement,
 * the drive model's history, the plan's exact time, or a nominal constant) and, where there is one,
 * the interval the end should fall in; a queued job's wait behind the jobs ahead of it on its drive
 * is part of it. Public because QualificationView carries it.
 */
package io.drivequal.service.qualification;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * @param remainingS seconds until the job ends (for a queued job, its wait included)
 * @param lowS, highS the interval of remainingS, when every part of it has one
 * @param waitS a queued job's wait until it starts: the jobs ahead of it on its drive
 * (their ETAs summed), or its start window, whichever is later
 * @param basis what the least sure part of the estimate that matters rests on
 * @param historyJobs with basis history: the fewest earlier jobs a part rests on
 * @param label the basis for people, e.g. "measured", "from history (3 jobs)"
 * @param phases each phase not yet done: its time left, and what that rests on
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EtaView(long remainingS, Long lowS, Long highS, Long waitS, Basis basis, Integer historyJobs,
		String label, List<PhaseEta> phases) {

	/** How sure an estimate is, surest first. */
	public enum Basis {

		/** The phase's own clock and a fixed length: a timed phase on a real drive. */
		PLAN("plan", 3),
		/** This job's measured rate (throughput, clock, rounds' convergence). */
		MEASURED("measured", 3),
		/** The same phase on earlier jobs of the drive model. */
		HISTORY("history", 2),
		/** A nominal speed or duration (catalog.Durations). */
		CONSTANT("constant", 1);

		private final String wireName;

		private final int sureness;

		Basis(String wireName, int sureness) {
			this.wireName = wireName;
			this.sureness = sureness;
		}

		@JsonValue
		public String wireName() {
			return this.wireName;
		}

		boolean lessSureThan(Basis other) {
			return this.sureness < other.sureness || (this.sureness == other.sureness && this == MEASURED);
		}

	}

	/**
	 * @param index, name the phase
	 * @param running whether it is the phase running now (else it is ahead)
	 * @param remainingS its time left (all of it for a phase ahead)
	 * @param lowS, highS the interval of remainingS, when there is one
	 * @param basis what its estimate rests on
	 * @param historyJobs with basis history: the earlier jobs it rests on
	 * @param label the basis for people
	 * @param detail how it was estimated, e.g. "round 7 of at most 25: window 31 % / 4 %
	 * of 20 % / 10 %, 3-9 more rounds"
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record PhaseEta(int index, String name, boolean running, long remainingS, Long lowS, Long highS, Basis basis,
			Integer historyJobs, String label, String detail) {
	}

	public EtaView {
		phases = (phases != null) ? List.copyOf(phases) : null;
	}

}
