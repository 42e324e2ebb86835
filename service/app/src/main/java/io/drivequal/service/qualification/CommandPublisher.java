/*
 * Start and cancel commands to runners, keyed by runnerId. Each is checked against the contract
 * before it leaves: the service never sends a command a runner would refuse as malformed.
 */
package io.drivequal.service.qualification;

import java.time.Clock;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.drivequal.schemas.Contracts;
import io.drivequal.schemas.MessageType;
import io.drivequal.schemas.Validation;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.platform.Timestamps;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

@Component
class CommandPublisher {

	private static final long SEND_TIMEOUT_S = 30;

	private final KafkaTemplate<String, byte[]> kafka;

	private final Contracts contracts;

	private final Clock clock;

	private final String topic;

	CommandPublisher(KafkaTemplate<String, byte[]> kafka, Contracts contracts, Clock clock) {
		this.kafka = kafka;
		this.contracts = contracts;
		this.clock = clock;
		this.topic = contracts.topicCarrying(MessageType.JOB_COMMAND).name();
	}

	void start(Job job) {
		send(job.runnerId(), startCommand(job));
	}

	/**
	 * The start command again, with where to resume (JobResumer): from phase
	 * fromPhaseIndex, that phase's samples after fromSecond, events from eventSeq.
	 */
	void resume(Job job, int fromPhaseIndex, long fromSecond, long eventSeq) {
		ObjectNode command = startCommand(job);
		ObjectNode resume = command.putObject("resume");
		resume.put("fromPhaseIndex", fromPhaseIndex);
		resume.put("fromSecond", fromSecond);
		resume.put("eventSeq", eventSeq);
		send(job.runnerId(), command);
	}

	void cancel(Job job, String reason) {
		ObjectNode command = envelope("cancel", "cancel-" + job.jobId(), job);
		command.put("reason", reason);
		send(job.runnerId(), command);
	}

	/**
	 * The start command of a job, also used to check a submission against the contract.
	 */
	ObjectNode startCommand(Job job) {
		ObjectNode command = envelope("start", job.commandId(), job);
		ObjectNode device = command.putObject("device");
		device.put("serial", job.deviceSerial());
		if (job.transportAddress() != null) {
			device.put("transportAddress", job.transportAddress());
		}
		if (job.engine() != null) {
			command.put("engine", job.engine());
		}
		ArrayNode phases = command.putArray("phases");
		for (PhaseSpec phase : job.plan()) {
			phases.add(this.contracts.mapper().valueToTree(phase));
		}
		if (job.latencyMonitor() != null) {
			command.set("latencyMonitor", this.contracts.mapper().valueToTree(job.latencyMonitor()));
		}
		return command;
	}

	Validation check(ObjectNode command) {
		return this.contracts.validate(MessageType.JOB_COMMAND, command);
	}

	private ObjectNode envelope(String type, String commandId, Job job) {
		ObjectNode command = this.contracts.mapper().createObjectNode();
		command.put("schemaVersion", 1);
		command.put("type", type);
		command.put("commandId", commandId);
		command.put("jobId", job.jobId());
		command.put("runnerId", (job.runnerId() != null) ? job.runnerId() : "unassigned");
		command.put("issuedAt", Timestamps.format(this.clock.instant()));
		return command;
	}

	private void send(String runnerId, ObjectNode command) {
		Validation validation = check(command);
		if (!validation.valid()) {
			throw new IllegalStateException(
					"refusing to send a command that breaks the contract: " + validation.summary());
		}
		try {
			this.kafka.send(this.topic, runnerId, this.contracts.mapper().writeValueAsBytes(command))
				.get(SEND_TIMEOUT_S, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while sending a command", ex);
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new IllegalStateException("could not send the command to Kafka", ex);
		}
	}

}
