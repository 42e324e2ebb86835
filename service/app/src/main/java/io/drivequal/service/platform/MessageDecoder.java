/*
 * The one way a consumer turns a Kafka record into a contract message: size limit, JSON Schema
 * from schemas/, then the typed record — or an InvalidMessageException naming the reason, which
 * the error handler dead-letters.
 */
package io.drivequal.service.platform;

import io.drivequal.schemas.Contracts;
import io.drivequal.schemas.MessageType;
import io.drivequal.schemas.Validation;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;

@Component
public class MessageDecoder {

	private final Contracts contracts;

	public MessageDecoder(Contracts contracts) {
		this.contracts = contracts;
	}

	/**
	 * @throws InvalidMessageException when the record is a tombstone, larger than
	 * {@code maxSize}, not JSON, or violates the schema of {@code type}
	 */
	public <T> T decode(ConsumerRecord<String, byte[]> record, MessageType type, DataSize maxSize, Class<T> as) {
		byte[] value = record.value();
		if (value == null) {
			throw new InvalidMessageException(type.id() + " has no value (tombstone)");
		}
		if (value.length > maxSize.toBytes()) {
			throw new InvalidMessageException(type.id() + " of " + value.length + " bytes exceeds " + maxSize);
		}
		Validation validation = this.contracts.validate(type, value);
		if (!validation.valid()) {
			throw new InvalidMessageException(type.id() + " violates schema: " + validation.summary());
		}
		return this.contracts.mapper().treeToValue(validation.message(), as);
	}

}
