/*
 * A Kafka or Elasticsearch connection setting that cannot work (SASL without a username, an
 * unreadable secret file, a CA for a plain-text connection): thrown while the application starts,
 * so a misconfigured replica never runs. Messages name the environment variable and never hold a
 * secret.
 */
package io.drivequal.service.platform;

class InvalidConnectionSettingsException extends IllegalStateException {

	InvalidConnectionSettingsException(String message) {
		super(message);
	}

}
