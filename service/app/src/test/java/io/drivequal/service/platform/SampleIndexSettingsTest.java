/*
 * The sample indices' shards and replicas are the one part of an index template an operator
 * sets: the contract's mapping must come through untouched, and unset values must leave the
 * contract's settings as they are.
 */
package io.drivequal.service.platform;

import io.drivequal.schemas.Contracts;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SampleIndexSettingsTest {

	private final Contracts contracts = Contracts.load();

	private final String contractBody = this.contracts.indexTemplate(IndexTemplateInstaller.SAMPLES_TEMPLATE);

	@Test
	void theOperatorsShardsAndReplicasReplaceTheContractsAndNothingElse() {
		JsonNode contract = this.contracts.mapper().readTree(this.contractBody);
		JsonNode sized = this.contracts.mapper()
			.readTree(IndexTemplateInstaller.withSampleIndexSettings(this.contracts.mapper(), this.contractBody,
					new ElasticsearchSettings.SampleIndices(5, 1)));
		JsonNode settings = sized.get("template").get("settings");
		assertThat(settings.get("number_of_shards").asInt()).isEqualTo(5);
		assertThat(settings.get("number_of_replicas").asInt()).isEqualTo(1);
		assertThat(settings.get("refresh_interval"))
			.isEqualTo(contract.get("template").get("settings").get("refresh_interval"));
		assertThat(sized.get("template").get("mappings")).isEqualTo(contract.get("template").get("mappings"));
		assertThat(sized.get("index_patterns")).isEqualTo(contract.get("index_patterns"));
	}

	@Test
	void unsetValuesKeepTheContractsSettings() {
		assertThat(IndexTemplateInstaller.withSampleIndexSettings(this.contracts.mapper(), this.contractBody,
				new ElasticsearchSettings.SampleIndices(null, null)))
			.isSameAs(this.contractBody);
		JsonNode replicasOnly = this.contracts.mapper()
			.readTree(IndexTemplateInstaller.withSampleIndexSettings(this.contracts.mapper(), this.contractBody,
					new ElasticsearchSettings.SampleIndices(null, 2)));
		assertThat(replicasOnly.get("template").get("settings").get("number_of_shards").asInt()).isEqualTo(1);
		assertThat(replicasOnly.get("template").get("settings").get("number_of_replicas").asInt()).isEqualTo(2);
	}

	@Test
	void impossibleShardCountsAreRefusedAtStart() {
		assertThatThrownBy(() -> new ElasticsearchSettings.SampleIndices(0, null))
			.hasMessageContaining("drivequal.elasticsearch.samples.shards must be 1 to 1024, not 0");
		assertThatThrownBy(() -> new ElasticsearchSettings.SampleIndices(null, -1))
			.hasMessageContaining("drivequal.elasticsearch.samples.replicas must be 0 or more, not -1");
	}

}
