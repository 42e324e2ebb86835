/*
 * The OpenAPI links of the API: what a created resource's id leads to. They tell a reader (and the
 * contract fuzzer's stateful phase, ContractFuzzIT) that a submitted job is then read, cancelled,
 * reprioritised, moved and exported by its id, and a new webhook tested, read and deleted. Kept
 * here because springdoc drops the links of a method's @ApiResponse annotation (it keeps only
 * those of @Operation's responses); the operation ids are ApiDocumentation's stable names.
 */
package io.drivequal.service.apidocs;

import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.links.Link;
import io.swagger.v3.oas.models.responses.ApiResponse;
import org.springdoc.core.customizers.OpenApiCustomizer;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class ApiLinks {

	/**
	 * By the operation that creates a resource: the operations its {@code id} is the
	 * path's {@code id} of. Not the sample stream: it stays open while the job runs.
	 */
	static final Map<String, List<String>> BY_ID = Map.of("qualificationSubmit",
			List.of("qualificationGet", "qualificationCancel", "qualificationReprioritise", "qualificationMove",
					"healthReadings", "sampleRaw", "sampleChart", "exportResultsJson", "exportResultsCsv",
					"exportSamplesCsv", "exportSamplesJson"),
			"webhookCreate", List.of("webhookGet", "webhookTest", "webhookDeliveries", "webhookDelete"));

	@Bean
	OpenApiCustomizer createdResourceLinks() {
		return (openApi) -> {
			if (openApi.getPaths() == null) {
				return;
			}
			openApi.getPaths().values().forEach((item) -> item.readOperations().forEach(this::link));
		};
	}

	private void link(Operation operation) {
		List<String> targets = BY_ID.get(operation.getOperationId());
		if (targets == null) {
			return;
		}
		operation.getResponses().forEach((status, response) -> {
			if (status.startsWith("2") && response.get$ref() == null) {
				for (String target : targets) {
					addLink(response, target);
				}
			}
		});
	}

	private static void addLink(ApiResponse response, String target) {
		response.link(target, new Link().operationId(target).parameters("id", "$response.body#/id"));
	}

}
