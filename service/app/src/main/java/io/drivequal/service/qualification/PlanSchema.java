/*
 * What the request records' annotations cannot tell the OpenAPI document, so that a body the
 * document admits is one the service reads (the contract fuzzer found `plan: {}` admitted and
 * refused): a plan is a catalog profile (optionally with phase overrides), explicit phases or a
 * fio job file, exactly one, as QualificationService.resolvePlan decides; and the names a profile, a criteria
 * set and a criterion's metric may take are the catalog's and the analysis's own. Names are
 * patterns, not enums, so the generated client keeps them plain strings.
 */
package io.drivequal.service.qualification;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.drivequal.analysis.Criterion;
import io.drivequal.analysis.Metric;
import io.drivequal.service.catalog.Catalog;
import io.drivequal.service.catalog.CriteriaSet;
import io.drivequal.service.catalog.Profile;
import io.drivequal.service.fiojobs.FioJobFiles;
import io.swagger.v3.oas.models.media.Schema;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.utils.SpringDocUtils;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class PlanSchema {

	static {
		// A criterion's JSON is what Criterion.fromJson reads and toJson writes, not the
		// record's components: the document describes that form.
		SpringDocUtils.getConfig().replaceWithClass(Criterion.class, CriterionJson.class);
	}

	/**
	 * The JSON form of io.drivequal.analysis.Criterion, for the document only.
	 *
	 * @param metric a metric's wire name (GET /api/v1/metrics; docs/methodology.md)
	 * @param comparator atLeast (measured >= limit) or atMost (measured <= limit)
	 * @param phase the phase it applies to; the profile's primary phase when absent
	 * @param source in a criteria set: where its source states this number
	 */
	@io.swagger.v3.oas.annotations.media.Schema(name = "Criterion")
	record CriterionJson(@NotBlank String metric,
			@NotNull @jakarta.validation.constraints.Pattern(regexp = "^(atLeast|atMost)$") String comparator,
			@NotNull Double limit, String phase, String source) {
	}

	private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z0-9._-]+");

	@Bean
	OpenApiCustomizer planIsAProfileOrPhases(Catalog catalog) {
		String profiles = oneOf(catalog.all().stream().map(Profile::name).toList());
		String criteriaSets = oneOf(catalog.criteriaSets().stream().map(CriteriaSet::name).toList());
		String metrics = oneOf(Arrays.stream(Metric.values()).map(Metric::wireName).toList());
		String fioJobFiles = oneOf(FioJobFiles.shippedNames());
		return (openApi) -> {
			Map<String, Schema> schemas = openApi.getComponents().getSchemas();
			Schema<?> plan = schemas.get("TestPlan");
			if (plan != null) {
				property(plan, "profile").setPattern(profiles);
				// if/then/else rather than oneOf: the client generator would make oneOf a
				// union of two plan types.
				plan.setIf(new Schema<>().required(List.of("profile")));
				plan.setThen(new Schema<>().not(new Schema<>().anyOf(
						List.of(new Schema<>().required(List.of("phases")), new Schema<>().required(List.of("fio"))))));
				plan.setElse(new Schema<>().not(new Schema<>().required(List.of("phaseOverrides")))
					._if(new Schema<>().required(List.of("fio")))
					.then(new Schema<>().not(new Schema<>().required(List.of("phases"))))
					._else(new Schema<>().required(List.of("phases"))));
				plan.setDescription("A catalog profile (with optional phaseOverrides), explicit phases or a fio job"
						+ " file (fio): exactly one");
			}
			Schema<?> fio = schemas.get("FioJob");
			if (fio != null) {
				property(fio, "name").setPattern(fioJobFiles);
				// exactly one of the two, said without oneOf for the client generator's
				// sake
				fio.setIf(new Schema<>().required(List.of("name")));
				fio.setThen(new Schema<>().not(new Schema<>().required(List.of("jobFile"))));
				fio.setElse(new Schema<>().required(List.of("jobFile")));
				fio.setDescription("A shipped fio job file by name, or a job file's text: exactly one");
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
