/*
 * The inventory listing on the real stack: a drive from a runner's first heartbeat is listed with
 * its runner alive, even while the runners' index has not refreshed (the runner and its drives are
 * written in one bulk; a listing that searched the runners could see the drive and not its runner).
 */
package io.drivequal.service.drives;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.RunnerStandIn;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class DriveInventoryIT {

	private static final String RUNNERS_INDEX = "drivequal-runners";

	@LocalServerPort
	private int port;

	@Autowired
	private ElasticsearchClient elasticsearch;

	@AfterEach
	void refreshRunnersAgain() throws Exception {
		this.elasticsearch.indices()
			.putSettings((put) -> put.index(RUNNERS_INDEX)
				.settings((settings) -> settings.refreshInterval((interval) -> interval.time("1s"))));
	}

	@Test
	void aNewRunnersDriveIsListedWithItsRunnerAliveBeforeTheRunnersIndexRefreshes() throws Exception {
		String suffix = UUID.randomUUID().toString().substring(0, 8);
		String runnerId = "inventory-" + suffix;
		String serial = "INV-" + suffix;
		// Make sure the runners' index exists, then stop its background refresh: from
		// here on, only a read by id sees a runner written after this point.
		try (RunnerStandIn other = new RunnerStandIn(RealInfrastructure.shared().kafkaBootstrapServers(),
				"inventory-other-" + suffix)) {
			other.heartbeat(List.of());
			await().atMost(Duration.ofSeconds(60))
				.until(() -> this.elasticsearch.indices().exists((exists) -> exists.index(RUNNERS_INDEX)).value());
		}
		this.elasticsearch.indices()
			.putSettings((put) -> put.index(RUNNERS_INDEX)
				.settings((settings) -> settings.refreshInterval((interval) -> interval.time("-1"))));
		this.elasticsearch.indices().refresh((refresh) -> refresh.index(RUNNERS_INDEX));

		try (RunnerStandIn runner = new RunnerStandIn(RealInfrastructure.shared().kafkaBootstrapServers(), runnerId)) {
			runner.heartbeat(List.of(serial));
			await().atMost(Duration.ofSeconds(60)).until(() -> api().drivesOf(runnerId).size() == 1);
			JsonNode listed = api().drivesOf(runnerId).get(0);
			assertThat(listed.get("drive").get("serial").asString()).isEqualTo(serial);
			assertThat(listed.get("runnerAlive").asBoolean()).as("runner alive in the listing").isTrue();
			// The runner is still not searchable: the listing did not find it by search.
			long searchable = this.elasticsearch
				.count((count) -> count.index(RUNNERS_INDEX)
					.query((q) -> q.term((t) -> t.field("runnerId").value(runnerId))))
				.count();
			assertThat(searchable).as("the runner in a search of its index").isZero();
		}
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

}
