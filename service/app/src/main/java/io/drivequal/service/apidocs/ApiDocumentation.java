/*
 * What springdoc cannot infer: the API's title and version, that callers authenticate with HTTP
 * Basic (local mode) or a bearer JWT, and stable names. Operation ids and tags come from the
 * controller and method ("QualificationController.submit" -> tag "qualification", id
 * "qualificationSubmit"), never from scan order, so the document is the same on every machine
 * and the generated client's function names do not shift when a controller is added.
 */
package io.drivequal.service.apidocs;

import java.util.List;
import java.util.Locale;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import org.springdoc.core.customizers.OperationCustomizer;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class ApiDocumentation {

	static final String VERSION = "1";

	@Bean
	OpenAPI drivequalOpenApi() {
		return new OpenAPI()
			.info(new Info().title("drivequal API")
				.version(VERSION)
				.description("Enterprise NVMe drive qualification: submit drives, follow jobs, read samples, "
						+ "results and verdicts; webhooks and the audit trail. docs/api.md is the guide."))
			.servers(List.of(new Server().url("/").description("the service that serves this document")))
			.components(new Components()
				.addSecuritySchemes("basic",
						new SecurityScheme().type(SecurityScheme.Type.HTTP)
							.scheme("basic")
							.description("local mode: configured users"))
				.addSecuritySchemes("bearer",
						new SecurityScheme().type(SecurityScheme.Type.HTTP)
							.scheme("bearer")
							.bearerFormat("JWT")
							.description("jwt mode: a token of the organisation's identity provider")))
			.addSecurityItem(new SecurityRequirement().addList("basic"))
			.addSecurityItem(new SecurityRequirement().addList("bearer"));
	}

	@Bean
	OperationCustomizer stableOperationNames() {
		return (operation, handler) -> {
			String feature = feature(handler.getBeanType().getSimpleName());
			operation.setTags(List.of(feature));
			operation.setOperationId(camel(feature) + Character.toUpperCase(handler.getMethod().getName().charAt(0))
					+ handler.getMethod().getName().substring(1));
			return operation;
		};
	}

	/** "QualificationController" -> "qualification", "ExportController" -> "export". */
	static String feature(String controller) {
		String name = controller.endsWith("Controller") ? controller.substring(0, controller.length() - 10)
				: controller;
		return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
	}

	private static String camel(String kebab) {
		StringBuilder camel = new StringBuilder();
		for (String part : kebab.split("-")) {
			camel.append(camel.isEmpty() ? part : Character.toUpperCase(part.charAt(0)) + part.substring(1));
		}
		return camel.toString();
	}

}
