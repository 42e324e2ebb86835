/*
 * How every batch listener treats a poison record: the good records before it are stored first, so
 * committing up to the poison loses nothing; then the poison is reported to the error handler,
 * which dead-letters it and redelivers the rest.
 */
package io.drivequal.service.platform;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import org.springframework.kafka.listener.BatchListenerFailedException;

public final class PoisonAwareBatch {

	/**
	 * A record the store refused for good (e.g. the strict index mapping rejected it).
	 */
	public record Rejection(int batchIndex, String reason) {
	}

	/** Stores decoded messages; returns the first permanent refusal, if any. */
	@FunctionalInterface
	public interface Store<T> {

		Optional<Rejection> store(List<T> messages);

	}

	private PoisonAwareBatch() {
	}

	/**
	 * @param decode turns one record into a message or throws
	 * {@link InvalidMessageException}
	 * @throws BatchListenerFailedException for the first poison record, after the records
	 * before it were stored
	 */
	public static <T> void process(List<ConsumerRecord<String, byte[]>> records,
			Function<ConsumerRecord<String, byte[]>, T> decode, Store<T> store) {
		List<T> decoded = new ArrayList<>(records.size());
		for (ConsumerRecord<String, byte[]> record : records) {
			try {
				decoded.add(decode.apply(record));
			}
			catch (InvalidMessageException ex) {
				storeOrFail(decoded, records, store);
				throw new BatchListenerFailedException(ex.getMessage(), ex, record);
			}
		}
		storeOrFail(decoded, records, store);
	}

	private static <T> void storeOrFail(List<T> decoded, List<ConsumerRecord<String, byte[]>> records, Store<T> store) {
		if (decoded.isEmpty()) {
			return;
		}
		Optional<Rejection> rejection = store.store(decoded);
		if (rejection.isPresent()) {
			InvalidMessageException poison = new InvalidMessageException(rejection.get().reason());
			throw new BatchListenerFailedException(poison.getMessage(), poison,
					records.get(rejection.get().batchIndex()));
		}
	}

}
