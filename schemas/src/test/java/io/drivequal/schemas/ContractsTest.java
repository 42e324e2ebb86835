/*
 * The contract files hang together: every topic names a schema that exists, every index template
 * is well-formed, and hostile input is a validation result rather than an exception.
 */
package io.drivequal.schemas;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class ContractsTest {

	private final Contracts contracts = Contracts.load();

	@Test
	void everyMessageTypeHasATopicAndEveryTopicSchemaExists() {
		for (MessageType type : MessageType.values()) {
			assertThat(this.contracts.topicCarrying(type).name()).startsWith("drivequal.");
		}
		for (Topic topic : this.contracts.topics()) {
			assertThat(topic.partitions()).as(topic.name()).isPositive();
			if (topic.schema() != null) {
				assertThat(Contracts.resource(topic.schema())).contains("\"$schema\"");
			}
		}
	}

	@Test
	void indexTemplatesAreStrictWhereTheyShouldBe() {
		for (String name : Contracts.INDEX_TEMPLATE_NAMES) {
			JsonNode template = this.contracts.mapper().readTree(this.contracts.indexTemplate(name));
			assertThat(template.path("index_patterns").isArray()).as(name).isTrue();
			assertThat(template.path("template").path("mappings").path("dynamic").asString()).as(name)
				.isEqualTo("strict");
		}
	}

	/**
	 * Every member of a health reading's OCP logs (smartSnapshot ocp and latencyMonitor)
	 * is mapped in drivequal-health, and nothing else is: a new C0h member fails here
	 * until the index can hold it.
	 */
	@Test
	void theHealthIndexMapsEveryOcpMemberOfTheContract() {
		JsonNode snapshot = this.contracts.mapper()
			.readTree(Contracts.resource("messages/common.schema.json"))
			.path("$defs")
			.path("smartSnapshot")
			.path("properties");
		JsonNode health = this.contracts.mapper()
			.readTree(this.contracts.indexTemplate("drivequal-health"))
			.path("template")
			.path("mappings")
			.path("properties");
		for (String log : new String[] { "ocp", "latencyMonitor" }) {
			assertThat(health.path(log).path("properties").propertyNames()).as(log)
				.containsExactlyElementsOf(snapshot.path(log).path("properties").propertyNames());
		}
		assertThat(health.has("ocpReason") && health.has("latencyMonitorReason")).isTrue();
	}

	@Test
	void garbageIsAResultNotAnException() {
		Validation garbage = this.contracts.validate(MessageType.SAMPLE,
				"\u0000\u0001not json".getBytes(StandardCharsets.UTF_8));
		assertThat(garbage.valid()).isFalse();
		assertThat(garbage.summary()).startsWith("not JSON");
		assertThat(this.contracts.validate(MessageType.SAMPLE, new byte[0]).valid()).isFalse();
	}

	@Test
	void reasonsNameTheOffendingField() {
		String sample = "{\"schemaVersion\":1,\"jobId\":\"j\",\"runnerId\":\"r\",\"deviceSerial\":\"X\",\"phaseIndex\":0,"
				+ "\"phaseName\":\"p\",\"t\":1,\"timeMs\":0,\"read\":{\"ios\":0,\"bytes\":0},"
				+ "\"write\":{\"ios\":-1,\"bytes\":0}}";
		Validation validation = this.contracts.validate(MessageType.SAMPLE, sample.getBytes(StandardCharsets.UTF_8));
		assertThat(validation.summary()).contains("/write/ios");
	}

}
