/*
 * What the request records' annotations cannot tell the OpenAPI document, so that a body the
 * document admits is one the service reads (the contract fuzzer found `plan: {}` admitted and
 * refused): a plan is a catalog profile (optionally with phase overrides) or explicit phases,
 * exactly one, as QualificationService.resolvePlan decides; and the names a profile, a criteria
 * set and a criterion's metric may take are the catalog's and the analysis's own. Names are
 * patterns, not enums, so the generated client keeps them plain strings.
 */
package io.drivequal.service.qualification;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.drivequal.analysis.Metric;
import io.drivequal.service.catalog.Catalog;
import io.drivequal.service.catalog.CriteriaSet;
import io.drivequal.service.catalog.Profile;
import io.swagger.v3.oas.models.media.Schema;
import org.springdoc.core.customizers.OpenApiCustomizer;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class PlanSchema {

	private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z0-9._-]+");

	@Bean
	OpenApiCustomizer planIsAProfileOrPhases(Catalog catalog) {
		String profiles = oneOf(catalog.all().stream().map(Profile::name).toList());
		String criteriaSets = oneOf(catalog.criteriaSets().stream().map(CriteriaSet::name).toList());
		String metrics = oneOf(Arrays.stream(Metric.values()).map(Metric::wireName).toList());
		return (openApi) -> {
			Map<String, Schema> schemas = openApi.getComponents().getSchemas();
			Schema<?> plan = schemas.get("TestPlan");
			if (plan != null) {
				property(plan, "profile").setPattern(profiles);
				// if/then/else rather than oneOf: the client generator would make oneOf a
				// union of two plan types.
				plan.setIf(new Schema<>().required(List.of("profile")));
				plan.setThen(new Schema<>().not(new Schema<>().required(List.of("phases"))));
				plan.setElse(new Schema<>().required(List.of("phases"))
					.not(new Schema<>().required(List.of("phaseOverrides"))));
				plan.setDescription("A catalog profile (with optional phaseOverrides) or explicit phases: exactly one");
			}
			Schema<?> submit = schemas.get("SubmitRequest");
			if (submit != null) {
				property(submit, "criteriaSet").setPattern(criteriaSets);
			}
			Schema<?> campaign = schemas.get("CampaignRequest");
			if (campaign != null) {
				property(campaign, "criteriaSet").setPattern(criteriaSets);
			}
			Schema<?> imported = schemas.get("ImportRequest");
			if (imported != null) {
				property(imported, "profile").setPattern(profiles);
			}
			Schema<?> criterion = schemas.get("Criterion");
			if (criterion != null) {
				property(criterion, "metric").setPattern(metrics);
			}
		};
	}

	private static Schema<?> property(Schema<?> schema, String name) {
		Schema<?> property = schema.getProperties().get(name);
		if (property == null) {
			throw new IllegalStateException(schema.getName() + " has no property " + name);
		}
		return property;
	}

	/**
	 * An anchored pattern matching exactly these names, read the same by Java and by
	 * ECMA-262 (JSON Schema's dialect), which has no \Q...\E quoting.
	 */
	static String oneOf(List<String> names) {
		for (String name : names) {
			if (!PLAIN_NAME.matcher(name).matches()) {
				throw new IllegalStateException("the name " + name + " needs quoting in a pattern");
			}
		}
		return names.stream().map((name) -> name.replace(".", "\\.")).collect(Collectors.joining("|", "^(", ")$"));
	}

}
