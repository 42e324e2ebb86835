/*
 * Every endpoint the running application maps, called as anonymous, viewer, submitter and admin:
 * 401 and 403 exactly where docs/api.md puts them and nowhere else. The endpoints come from the
 * application's own handler mappings, so a new endpoint without an entry in EXPECTED fails here
 * until someone decides who may call it. Plus the ownership rule a role cannot express: a
 * submitter cancels only their own jobs, an admin any.
 */
package io.drivequal.service.security;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.FaultFigures;
import io.drivequal.service.it.RunnerStandIn;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.handler.SimpleUrlHandlerMapping;
import org.springframework.web.servlet.mvc.ParameterizableViewController;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class AuthorizationMatrixIT {

	/** Who may call what, weakest first; each caller has every role before its own. */
	enum Caller {

		ANONYMOUS(null), VIEWER("viewer"), SUBMITTER("alice"), ADMIN("admin");

		final String user;

		Caller(String user) {
			this.user = user;
		}

	}

	/**
	 * "METHOD pattern" -> the weakest caller allowed. Requests the application maps but
	 * docs/api.md does not list (OpenAPI, Swagger UI, actuator, the error page) are here
	 * too.
	 */
	private static final Map<String, Caller> EXPECTED = Map.ofEntries(
			Map.entry("GET /api/v1/qualifications", Caller.VIEWER),
			Map.entry("POST /api/v1/qualifications", Caller.SUBMITTER),
			Map.entry("GET /api/v1/qualifications/{id}", Caller.VIEWER),
			Map.entry("POST /api/v1/qualifications/{id}/cancel", Caller.SUBMITTER),
			Map.entry("POST /api/v1/qualifications/{id}/priority", Caller.SUBMITTER),
			Map.entry("POST /api/v1/qualifications/{id}/queue-position", Caller.ADMIN),
			Map.entry("GET /api/v1/qualifications/{id}/samples", Caller.VIEWER),
			Map.entry("GET /api/v1/qualifications/{id}/samples/chart", Caller.VIEWER),
			Map.entry("GET /api/v1/qualifications/{id}/samples/stream", Caller.VIEWER),
			Map.entry("GET /api/v1/qualifications/{id}/samples.csv", Caller.VIEWER),
			Map.entry("GET /api/v1/qualifications/{id}/samples.json", Caller.VIEWER),
			Map.entry("GET /api/v1/qualifications/{id}/results.csv", Caller.VIEWER),
			Map.entry("GET /api/v1/qualifications/{id}/results.json", Caller.VIEWER),
			Map.entry("GET /api/v1/qualifications/{id}/streams", Caller.VIEWER),
			Map.entry("POST /api/v1/plans/fio", Caller.SUBMITTER),
			// The web report's pages hold no data (they call the API with the user's
			// credentials), so they are public.
			Map.entry("GET /", Caller.ANONYMOUS), Map.entry("GET /ui", Caller.ANONYMOUS),
			Map.entry("GET /ui/", Caller.ANONYMOUS), Map.entry("GET /ui/submit", Caller.ANONYMOUS),
			Map.entry("GET /ui/drives", Caller.ANONYMOUS), Map.entry("GET /ui/jobs/{id}", Caller.ANONYMOUS),
			Map.entry("GET /ui/compare", Caller.ANONYMOUS), Map.entry("POST /api/v1/imports", Caller.SUBMITTER),
			Map.entry("GET /api/v1/profiles", Caller.VIEWER), Map.entry("GET /api/v1/profiles/{name}", Caller.VIEWER),
			Map.entry("GET /api/v1/criteria-sets", Caller.VIEWER),
			Map.entry("GET /api/v1/criteria-sets/{name}", Caller.VIEWER),
			Map.entry("GET /api/v1/metrics", Caller.VIEWER),
			Map.entry("GET /api/v1/qualifications/{id}/health", Caller.VIEWER),
			Map.entry("GET /api/v1/drives", Caller.VIEWER), Map.entry("GET /api/v1/drives/{serial}", Caller.VIEWER),
			Map.entry("GET /api/v1/runners", Caller.VIEWER), Map.entry("GET /api/v1/runners/{runnerId}", Caller.VIEWER),
			// Draining a runner (before a restart) is the admin's.
			Map.entry("POST /api/v1/runners/{runnerId}/drain", Caller.ADMIN),
			Map.entry("POST /api/v1/runners/{runnerId}/undrain", Caller.ADMIN),
			Map.entry("GET /ui/runners", Caller.ANONYMOUS), Map.entry("GET /v3/api-docs", Caller.VIEWER),
			Map.entry("GET /v3/api-docs.yaml", Caller.VIEWER),
			Map.entry("GET /v3/api-docs/swagger-config", Caller.VIEWER),
			Map.entry("GET /swagger-ui.html", Caller.VIEWER), Map.entry("GET /error", Caller.VIEWER),
			Map.entry("GET /actuator", Caller.VIEWER), Map.entry("GET /actuator/health", Caller.ANONYMOUS),
			Map.entry("GET /actuator/health/**", Caller.ANONYMOUS), Map.entry("GET /actuator/info", Caller.VIEWER),
			Map.entry("GET /actuator/prometheus", Caller.VIEWER),
			// Webhook subscriptions: anyone signed in manages their own (ownership is
			// checked by the feature: someone else's is a 404).
			Map.entry("POST /api/v1/webhooks", Caller.VIEWER), Map.entry("GET /api/v1/webhooks", Caller.VIEWER),
			Map.entry("GET /api/v1/webhooks/{id}", Caller.VIEWER),
			Map.entry("DELETE /api/v1/webhooks/{id}", Caller.VIEWER),
			Map.entry("POST /api/v1/webhooks/{id}/test", Caller.VIEWER),
			Map.entry("GET /api/v1/webhooks/{id}/deliveries", Caller.VIEWER),
			Map.entry("GET /ui/webhooks", Caller.ANONYMOUS),
			// Campaigns: as jobs (submitters create, cancel and rerun, the campaign's
			// submitter or an admin; viewers read).
			Map.entry("POST /api/v1/campaigns", Caller.SUBMITTER), Map.entry("GET /api/v1/campaigns", Caller.VIEWER),
			Map.entry("GET /api/v1/campaigns/{id}", Caller.VIEWER),
			Map.entry("POST /api/v1/campaigns/{id}/cancel", Caller.SUBMITTER),
			Map.entry("POST /api/v1/campaigns/{id}/rerun", Caller.SUBMITTER),
			Map.entry("GET /api/v1/campaigns/{id}/results.json", Caller.VIEWER),
			Map.entry("GET /api/v1/campaigns/{id}/compare", Caller.VIEWER),
			Map.entry("GET /api/v1/campaigns/{id}/latency", Caller.VIEWER),
			Map.entry("GET /api/v1/campaigns/{id}/results.csv", Caller.VIEWER),
			Map.entry("GET /ui/campaigns", Caller.ANONYMOUS), Map.entry("GET /ui/campaigns/{id}", Caller.ANONYMOUS),
			// The audit trail: admins only, reads included.
			Map.entry("GET /api/v1/audit", Caller.ADMIN), Map.entry("GET /ui/audit", Caller.ANONYMOUS));

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationContext context;

	@Test
	void everyMappedEndpointAnswers401And403ExactlyWhereTheRolesSay() {
		TreeSet<String> mapped = mappedEndpoints();
		assertThat(mapped).as("endpoints the application maps without an expected role in this test")
			.isSubsetOf(EXPECTED.keySet());
		List<String> wrong = new ArrayList<>();
		Map<String, Map<String, Integer>> matrix = new TreeMap<>();
		for (String endpoint : mapped) {
			String method = endpoint.substring(0, endpoint.indexOf(' '));
			String path = concrete(endpoint.substring(endpoint.indexOf(' ') + 1));
			Caller weakest = EXPECTED.get(endpoint);
			Map<String, Integer> row = new TreeMap<>();
			for (Caller caller : Caller.values()) {
				int status = api().request(caller.user, method, path, method.equals("GET") ? null : "{}").status();
				row.put(caller.name().toLowerCase(), status);
				int expected = (caller.compareTo(weakest) >= 0) ? 0 : (caller == Caller.ANONYMOUS) ? 401 : 403;
				boolean ok = (expected == 0) ? (status != 401 && status != 403) : status == expected;
				if (!ok) {
					wrong.add(endpoint + " as " + caller + ": " + status + ", expected "
							+ ((expected == 0) ? "neither 401 nor 403" : expected));
				}
			}
			matrix.put(endpoint, row);
		}
		FaultFigures figures = FaultFigures.item("7", "Authorization matrix")
			.put("endpoints", mapped.size())
			.put("callers", List.of("anonymous", "viewer", "submitter", "admin"))
			.put("requests", mapped.size() * Caller.values().length)
			.put("mismatches", wrong)
			.put("matrix", matrix);
		assertThat(wrong).as("status codes that break the role table of docs/api.md").isEmpty();
		figures.put("passed", true).write();
	}

	@Test
	void aSubmitterCannotCancelAnotherSubmittersJobButTheOwnerAndAnAdminCan() {
		String serial = "AUTHZ-" + shortId();
		try (RunnerStandIn runner = new RunnerStandIn(RealInfrastructure.shared().kafkaBootstrapServers(),
				"runner-" + shortId())) {
			runner.heartbeat(List.of(serial));
			await().atMost(Duration.ofSeconds(60))
				.until(() -> api().get("viewer", "/api/v1/drives/" + serial).status() == 200);
			String first = submit(serial);
			String second = submit(serial);

			ApiClient.Response byBob = api().post("bob", "/api/v1/qualifications/" + first + "/cancel", "");
			assertThat(byBob.status()).isEqualTo(403);
			assertThat(byBob.body().get("detail").asString()).contains("alice");
			assertThat(api().post("viewer", "/api/v1/qualifications/" + first + "/cancel", "").status()).isEqualTo(403);
			assertThat(api().get("viewer", "/api/v1/qualifications/" + first).body().has("cancelRequestedBy"))
				.as("a refused cancel leaves no trace on the job")
				.isFalse();

			assertThat(api().post("alice", "/api/v1/qualifications/" + first + "/cancel", "").status()).isIn(200, 202);
			assertThat(api().post("admin", "/api/v1/qualifications/" + second + "/cancel", "").status()).isIn(200, 202);
			FaultFigures.item("7b", "Cancel ownership")
				.put("otherSubmitterCancel", byBob.status())
				.put("viewerCancel", 403)
				.put("ownerCancel", "200/202")
				.put("adminCancel", "200/202")
				.put("passed", true)
				.write();
		}
	}

	private String submit(String serial) {
		ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications", """
				{"drive":{"serial":"%s"},
				 "plan":{"phases":[{"name":"randwrite","kind":"workload","rw":"randwrite","blockSizeBytes":4096,
				                    "queueDepth":32,"rangePercent":100,"runtimeS":600}]}}
				""".formatted(serial));
		assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
		return submitted.body().get("id").asString();
	}

	/**
	 * "GET /a/{id}" for every method and pattern of every handler mapping, and every page
	 * route (view controllers; static resources are not endpoints).
	 */
	private TreeSet<String> mappedEndpoints() {
		TreeSet<String> endpoints = new TreeSet<>();
		for (SimpleUrlHandlerMapping mapping : this.context.getBeansOfType(SimpleUrlHandlerMapping.class).values()) {
			mapping.getHandlerMap().forEach((pattern, handler) -> {
				if (handler instanceof ParameterizableViewController) {
					endpoints.add("GET " + pattern);
				}
			});
		}
		for (RequestMappingInfoHandlerMapping mapping : this.context
			.getBeansOfType(RequestMappingInfoHandlerMapping.class)
			.values()) {
			for (RequestMappingInfo info : mapping.getHandlerMethods().keySet()) {
				var methods = info.getMethodsCondition().getMethods();
				for (String pattern : info.getPatternValues()) {
					if (methods.isEmpty()) {
						endpoints.add("GET " + pattern);
					}
					for (RequestMethod method : methods) {
						endpoints.add(method.name() + " " + pattern);
					}
				}
			}
		}
		return endpoints;
	}

	/** A concrete path for a pattern: variables become an id nobody has. */
	private static String concrete(String pattern) {
		return pattern.replace("/**", "/liveness").replaceAll("\\{[^}]+}", "nobody-" + "x1");
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

	private static String shortId() {
		return UUID.randomUUID().toString().substring(0, 8);
	}

}
