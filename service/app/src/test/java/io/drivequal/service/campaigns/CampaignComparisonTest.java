/*
 * The rounds a comparison reads from a job's stored analysis: the last five rounds of the one
 * random-IO phase (or the named one), their mean IOPS.
 */
package io.drivequal.service.campaigns;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CampaignComparisonTest {

	private static Map<String, Object> phase(String name, int rounds, int first, int last) {
		List<Object> list = new ArrayList<>();
		for (int i = 0; i < rounds; i++) {
			Map<String, Object> round = new HashMap<>();
			round.put("index", i);
			round.put("meanIops", (i == 3) ? null : 1000.0 + i);
			list.add(round);
		}
		return Map.of("phaseName", name, "iops", Map.of("steadyState",
				Map.of("rounds", list, "end", Map.of("firstRoundIndex", first, "lastRoundIndex", last))));
	}

	@Test
	void theLastFiveRoundsOfTheOneRandomIoPhase() {
		Map<String, Object> analysis = Map.of("phases",
				List.of(Map.of("phaseName", "precondition"), phase("randwrite-4k-qd32", 33, 28, 32)));
		var rounds = CampaignComparison.lastFiveRounds(analysis, null).orElseThrow();
		assertThat(rounds.phase()).isEqualTo("randwrite-4k-qd32");
		assertThat(rounds.values()).containsExactly(1028, 1029, 1030, 1031, 1032);
		assertThat(CampaignComparison.lastFiveRounds(analysis, "randwrite-4k-qd32")).isPresent();
		assertThat(CampaignComparison.lastFiveRounds(analysis, "nope")).isEmpty();
	}

	@Test
	void noRoundsWhenThePhaseHasNoWindowOrThePhaseIsAmbiguous() {
		assertThat(CampaignComparison.lastFiveRounds(Map.of("phases", List.of(phase("a", 3, -1, 2))), null)).isEmpty();
		Map<String, Object> two = Map.of("phases", List.of(phase("a", 10, 5, 9), phase("b", 10, 5, 9)));
		assertThat(CampaignComparison.lastFiveRounds(two, null)).isEmpty();
		assertThat(CampaignComparison.lastFiveRounds(two, "b")).isPresent();
		// A round without a value (no second present) is left out, never made up.
		assertThat(CampaignComparison.lastFiveRounds(Map.of("phases", List.of(phase("a", 6, 1, 5))), null)
			.orElseThrow()
			.values()).containsExactly(1001, 1002, 1004, 1005);
	}

}
