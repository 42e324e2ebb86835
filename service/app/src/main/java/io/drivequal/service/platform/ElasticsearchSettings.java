/*
 * Where Elasticsearch is and how to authenticate and trust it; secrets come from the environment
 * or files, never the repo (application.yml maps ELASTICSEARCH_*; docs/operations.md "Security
 * settings").
 */
package io.drivequal.service.platform;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param url the Elasticsearch HTTP endpoint, http or https
 * @param apiKey an encoded API key (the {@code encoded} field Elasticsearch returns), or
 * empty
 * @param apiKeyFile a file holding the encoded API key
 * @param username a user for basic authentication, instead of an API key
 * @param password the user's password, or empty when {@code passwordFile} holds it
 * @param passwordFile a file holding the password
 * @param caFile PEM file of the CA(s) that signed Elasticsearch's HTTP certificate (https
 * only); empty: the JVM's default trust store
 * @param startupTimeout how long start-up waits for Elasticsearch to install the index
 * templates
 * @param samples the shape of the sample indices, which grow with the lab
 */
@ConfigurationProperties("drivequal.elasticsearch")
record ElasticsearchSettings(@DefaultValue("http://127.0.0.1:9200") URI url, String apiKey, String apiKeyFile,
		String username, String password, String passwordFile, String caFile,
		@DefaultValue("120s") Duration startupTimeout, @DefaultValue SampleIndices samples) {

	/**
	 * Primary shards and replicas of each new sample index; absent: the contract's
	 * template (1 and 0). Applied to the template at every start, so an index created
	 * afterwards has them; existing indices keep theirs.
	 */
	record SampleIndices(Integer shards, Integer replicas) {

		SampleIndices {
			if (shards != null && (shards < 1 || shards > 1024)) {
				throw new IllegalArgumentException(
						"drivequal.elasticsearch.samples.shards must be 1 to 1024, not " + shards);
			}
			if (replicas != null && replicas < 0) {
				throw new IllegalArgumentException(
						"drivequal.elasticsearch.samples.replicas must be 0 or more, not " + replicas);
			}
		}

	}

	@Override
	public String toString() {
		return "ElasticsearchSettings[url=" + this.url + ", username=" + this.username + ", caFile=" + this.caFile
				+ ", startupTimeout=" + this.startupTimeout + "]";
	}

}
