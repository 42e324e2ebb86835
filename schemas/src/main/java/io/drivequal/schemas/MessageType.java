/*
 * The kinds of Kafka message in the contract, each tied to its schema file and example folder.
 */
package io.drivequal.schemas;

public enum MessageType {

	SAMPLE("sample"), JOB_COMMAND("job-command"), JOB_EVENT("job-event"), RUNNER_HEARTBEAT("runner-heartbeat");

	private final String id;

	MessageType(String id) {
		this.id = id;
	}

	/**
	 * The name used in file names: {@code messages/<id>.schema.json},
	 * {@code examples/<id>/}.
	 */
	public String id() {
		return this.id;
	}

	public String schemaPath() {
		return "messages/" + this.id + ".schema.json";
	}

}
