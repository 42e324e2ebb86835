/*
 * The errors of the API, documented once and added to every operation that can answer them, so
 * docs/openapi.json lists every status the service sends (the contract fuzzer, ContractFuzzIT,
 * fails on any other). Each is an RFC 9457 problem (platform/ApiProblems and the security rules
 * write them): a 400 names the fields in "errors". Which operation can answer which follows from
 * its shape, the way the service decides: anything with parameters or a body can be refused (400),
 * a path with an identifier can name nothing (404), a body can come in a type the operation does
 * not read (415), and every /api route needs a signed-in caller (401) whose role allows it (403).
 * Statuses only some operations answer (409, 413, 422) are on those operations' own @ApiResponse.
 */
package io.drivequal.service.apidocs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.springdoc.core.customizers.OpenApiCustomizer;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class ApiErrorResponses {

	static final String PROBLEM = "Problem";

	/** The shared responses, by status: name and what it means to a caller. */
	static final Map<String, String[]> RESPONSES = Map.of("400",
			new String[] { "BadRequest", "the request is invalid; errors names each field that is wrong" }, "401",
			new String[] { "Unauthorized", "no or wrong credentials" }, "403",
			new String[] { "Forbidden", "the caller's role (or team) does not allow this request" }, "404",
			new String[] { "NotFound", "nothing has the identifier in the path (or the caller may not see it)" }, "409",
			new String[] { "Conflict", "the resource's state does not allow this now" }, "413",
			new String[] { "PayloadTooLarge", "the upload is larger than the service accepts" }, "415",
			new String[] { "UnsupportedMediaType", "the body is not of a type this operation reads" }, "422",
			new String[] { "Unprocessable",
					"the drive (or its runner) cannot do what the plan needs; missingCapabilities names each "
							+ "capability, why it is missing and what would provide it" },
			"503",
			new String[] { "ServiceUnavailable", "Elasticsearch did not answer; retry after Retry-After seconds" });

	/**
	 * Features that answer from the catalog in memory, never from Elasticsearch: they
	 * have no 503.
	 */
	private static final Set<String> IN_MEMORY = Set.of("catalog", "criteria-set", "metrics");

	@Bean
	OpenApiCustomizer documentedErrors() {
		return (openApi) -> {
			Components components = openApi.getComponents();
			components.addSchemas(PROBLEM, problemSchema());
			RESPONSES.entrySet()
				.stream()
				.sorted(Map.Entry.comparingByKey())
				.forEach((entry) -> components.addResponses(entry.getValue()[0],
						new ApiResponse().description(entry.getValue()[1])
							.content(new Content().addMediaType(
									org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE,
									new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + PROBLEM))))));
			if (openApi.getPaths() == null) {
				return;
			}
			openApi.getPaths().forEach((path, item) -> item.readOperations().forEach((operation) -> {
				boolean hasParameters = operation.getParameters() != null && !operation.getParameters().isEmpty();
				boolean hasBody = operation.getRequestBody() != null;
				if (hasParameters || hasBody) {
					add(operation, "400");
				}
				add(operation, "401");
				add(operation, "403");
				if (path.contains("{")) {
					add(operation, "404");
				}
				if (hasBody) {
					add(operation, "415");
					// Every operation that takes a body needs it (a multipart one too:
					// its
					// parts are required), so a request without one is not a valid
					// request.
					if (operation.getRequestBody().getRequired() == null) {
						operation.getRequestBody().setRequired(true);
					}
				}
				if (operation.getTags() == null || operation.getTags().stream().noneMatch(IN_MEMORY::contains)) {
					add(operation, "503");
				}
				sortByStatus(operation);
			}));
		};
	}

	/** The shared response for {@code status}, unless the operation documents its own. */
	private static void add(Operation operation, String status) {
		ApiResponses responses = operation.getResponses();
		if (!responses.containsKey(status)) {
			responses.addApiResponse(status, reference(status));
		}
	}

	static ApiResponse reference(String status) {
		return new ApiResponse().$ref("#/components/responses/" + RESPONSES.get(status)[0]);
	}

	private static void sortByStatus(Operation operation) {
		Map<String, ApiResponse> sorted = new java.util.TreeMap<>(operation.getResponses());
		ApiResponses responses = new ApiResponses();
		sorted.forEach(responses::addApiResponse);
		operation.setResponses(responses);
	}

	/** RFC 9457 problem details as Spring writes them, with drivequal's "errors". */
	private static Schema<?> problemSchema() {
		Map<String, Schema> properties = new LinkedHashMap<>();
		properties.put("type", new StringSchema().description("a URI naming the kind of problem; about:blank"));
		properties.put("title", new StringSchema().description("the status's short name"));
		properties.put("status", new IntegerSchema().format("int32").description("the HTTP status"));
		properties.put("detail", new StringSchema().description("what is wrong, for a person"));
		properties.put("instance", new StringSchema().description("the path of the request"));
		properties.put("errors", new ArraySchema()
			.items(new ObjectSchema().addProperty("field", new StringSchema())
				.addProperty("message", new StringSchema())
				.required(List.of("field", "message")))
			.description("400 only: each field that is wrong (a JSON path into the body, or a parameter's name)"));
		Map<String, Schema> missing = new LinkedHashMap<>();
		missing.put("capability", new StringSchema().description("the capability's name (docs/api.md, Drives)"));
		missing.put("neededBy", new StringSchema().description("what in the request needs it"));
		missing.put("missing", new StringSchema().description(
				"why it is missing: device-lacks-it, runner-lacks-sys-admin, engine-cannot, runner-policy, probe-failed"));
		missing.put("detail", new StringSchema().description("what the runner's probe found"));
		missing.put("remedy", new StringSchema().description("what would provide it"));
		properties.put("missingCapabilities",
				new ArraySchema()
					.items(new ObjectSchema().properties(missing)
						.required(List.of("capability", "neededBy", "missing", "remedy")))
					.description("422 only: each capability the plan needs that the drive or its runner lacks"));
		return new ObjectSchema().properties(properties)
			.required(List.of("title", "status"))
			.description("An RFC 9457 problem: every error of the API");
	}

}
