/*
 * Turns runner heartbeats into the runner and drive inventory. Documents carry the heartbeat's own
 * time as an external version, so a replayed or reordered old heartbeat can never overwrite a newer
 * one — and never makes a lost runner look alive.
 */
package io.drivequal.service.runners;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import co.elastic.clients.elasticsearch._types.VersionType;
import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import io.drivequal.schemas.MessageType;
import io.drivequal.service.platform.BulkWriter;
import io.drivequal.service.platform.InvalidMessageException;
import io.drivequal.service.platform.MessageDecoder;
import io.drivequal.service.platform.PoisonAwareBatch;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

@Component
class HeartbeatListener {

	private final MessageDecoder decoder;

	private final BulkWriter writer;

	private final RunnerSettings settings;

	HeartbeatListener(MessageDecoder decoder, BulkWriter writer, RunnerSettings settings) {
		this.decoder = decoder;
		this.writer = writer;
		this.settings = settings;
	}

	@KafkaListener(id = "drivequal-heartbeats", groupId = RunnerRegistry.HEARTBEAT_GROUP,
			topics = "#{@contracts.topicCarrying(T(io.drivequal.schemas.MessageType).RUNNER_HEARTBEAT).name()}",
			batch = "true")
	void onHeartbeats(List<ConsumerRecord<String, byte[]>> records) {
		PoisonAwareBatch.process(records, this::decode, this::store);
	}

	HeartbeatMessage decode(ConsumerRecord<String, byte[]> record) {
		HeartbeatMessage heartbeat = this.decoder.decode(record, MessageType.RUNNER_HEARTBEAT,
				this.settings.maxHeartbeatSize(), HeartbeatMessage.class);
		if (record.key() != null && !record.key().equals(heartbeat.runnerId())) {
			throw new InvalidMessageException(
					"heartbeat key " + record.key() + " is not its runnerId " + heartbeat.runnerId());
		}
		return heartbeat;
	}

	/**
	 * One bulk for the batch; a rejection is mapped back to the heartbeat that caused it.
	 */
	private Optional<PoisonAwareBatch.Rejection> store(List<HeartbeatMessage> heartbeats) {
		List<BulkOperation> operations = new ArrayList<>();
		List<Integer> heartbeatOfOperation = new ArrayList<>();
		for (int i = 0; i < heartbeats.size(); i++) {
			HeartbeatMessage heartbeat = heartbeats.get(i);
			Instant time = Instant.parse(heartbeat.time());
			long version = time.toEpochMilli();
			Runner runner = new Runner(heartbeat.runnerId(), heartbeat.hostname(), heartbeat.runnerVersion(),
					heartbeat.engines(), heartbeat.intervalMs(), heartbeat.devices().size(),
					heartbeat.activeJobs().stream().map(HeartbeatMessage.ActiveJob::jobId).toList(), time);
			operations.add(BulkOperation.of((op) -> op.index((index) -> index.index(RunnerRegistry.RUNNERS_INDEX)
				.id(runner.runnerId())
				.version(version)
				.versionType(VersionType.External)
				.document(runner))));
			heartbeatOfOperation.add(i);
			for (HeartbeatMessage.DeviceEntry entry : heartbeat.devices()) {
				HeartbeatMessage.Device device = entry.device();
				Drive drive = new Drive(device.serial(), device.model(), device.firmware(), device.capacityBytes(),
						device.lbaSizeBytes(), device.engine(), device.transportAddress(), heartbeat.runnerId(),
						entry.allowlisted(), entry.state(), entry.interlock(), time, entry.capabilities());
				operations.add(BulkOperation.of((op) -> op.index((index) -> index.index(RunnerRegistry.DRIVES_INDEX)
					.id(drive.serial())
					.version(version)
					.versionType(VersionType.External)
					.document(drive))));
				heartbeatOfOperation.add(i);
			}
		}
		return this.writer.write(operations, true)
			.map((rejection) -> new PoisonAwareBatch.Rejection(heartbeatOfOperation.get(rejection.batchIndex()),
					rejection.reason()));
	}

}
