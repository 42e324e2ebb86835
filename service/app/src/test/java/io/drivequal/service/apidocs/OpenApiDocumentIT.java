/*
 * The OpenAPI document committed as docs/openapi.json (the input of the typed Python client) is
 * exactly what the running service serves at /v3/api-docs. An API change fails this test until
 * the document is regenerated with the command its message names; with
 * -Ddrivequal.openapi.update=true (what that command sets) the test writes the served document
 * over the committed one instead.
 */
package io.drivequal.service.apidocs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OpenApiDocumentIT {

	static final String REGENERATE = "service/bin/drivequal-openapi";

	private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

	@LocalServerPort
	private int port;

	static Path committed() {
		return Path.of(System.getProperty("drivequal.openapi.document", "../../docs/openapi.json"));
	}

	@Test
	void theServiceServesExactlyTheCommittedOpenApiDocument() throws Exception {
		// The first request builds the document: on a busy machine that can outlast one
		// client timeout.
		ApiClient.RawResponse[] answer = new ApiClient.RawResponse[1];
		await().atMost(Duration.ofMinutes(5))
			.ignoreExceptions()
			.until(() -> (answer[0] = new ApiClient("http://127.0.0.1:" + this.port).request("viewer", "GET",
					"/v3/api-docs", null))
				.status() == 200);
		ApiClient.RawResponse response = answer[0];
		JsonNode served = JSON.readTree(response.body());
		String pretty = JSON.writeValueAsString(served) + "\n";
		Path servedCopy = Path.of("target", "openapi", "served.json");
		Files.createDirectories(servedCopy.getParent());
		Files.writeString(servedCopy, pretty);
		if (Boolean.getBoolean("drivequal.openapi.update")) {
			Files.writeString(committed(), pretty);
			System.out.println("wrote the served OpenAPI document to " + committed().toAbsolutePath().normalize());
			return;
		}
		assertThat(committed()).as("the committed OpenAPI document; create it with " + REGENERATE).exists();
		JsonNode expected = JSON.readTree(Files.readString(committed()));
		assertThat(served)
			.as("docs/openapi.json is not what the service serves (served copy: service/app/" + servedCopy
					+ "). If the API change is meant, run `" + REGENERATE + "` and commit docs/openapi.json; the "
					+ "Python client is generated from it at build time")
			.isEqualTo(expected);
	}

}
