/*
 * How urgent a job is. Each drive's queue runs the highest priority first, then the earliest
 * submission; submitters may ask for normal or high, only admins for urgent.
 */
package io.drivequal.service.qualification;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import io.drivequal.service.security.Callers;
import io.drivequal.service.security.Role;

import org.springframework.security.core.Authentication;

enum JobPriority {

	NORMAL(1, Role.SUBMITTER), HIGH(2, Role.SUBMITTER), URGENT(3, Role.ADMIN);

	/** Higher runs first; stored with the job so Elasticsearch sorts on it. */
	private final int rank;

	private final Role leastRole;

	JobPriority(int rank, Role leastRole) {
		this.rank = rank;
		this.leastRole = leastRole;
	}

	int rank() {
		return this.rank;
	}

	String wireName() {
		return name().toLowerCase(Locale.ROOT);
	}

	boolean allowedFor(Authentication caller) {
		return Callers.has(caller, this.leastRole);
	}

	static Optional<JobPriority> ofWireName(String name) {
		return Arrays.stream(values()).filter((priority) -> priority.wireName().equals(name)).findFirst();
	}

	/** The stored value of a job submitted before priorities existed is normal. */
	static JobPriority of(Job job) {
		return (job.priority() != null) ? ofWireName(job.priority()).orElse(NORMAL) : NORMAL;
	}

}
