/*
 * A member's check says what its compiled schema says: integer members through their long
 * comparison, at and beyond every bound; string members the first time and when remembered.
 */
package io.drivequal.schemas;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class MemberSchemaTest {

	private static final List<Long> INTEGERS = List.of(Long.MIN_VALUE, -1L, 0L, 1L, 2L, 254L, 255L, 256L, 999L, 1000L,
			1023999L, 1024000L, 1024001L, 2591999L, 2592000L, 2592001L, Long.MAX_VALUE - 1, Long.MAX_VALUE);

	private static final List<String> STRINGS = List.of("", "a", "job-1", "Job.1_a", "-job", " SN1", "SN1 ", "SN 1",
			"randwrite-qd32", "RandWrite", "a".repeat(64), "a".repeat(65), "\u00e9", "a\n");

	private final Contracts contracts = Contracts.load();

	@Test
	void integerMembersCompareLongsAndAgreeWithTheirSchema() {
		for (String[] path : List.of(new String[] { "schemaVersion" }, new String[] { "phaseIndex" },
				new String[] { "t" }, new String[] { "timeMs" }, new String[] { "effectiveQueueDepthMilli" },
				new String[] { "round" }, new String[] { "step" }, new String[] { "read", "ios" },
				new String[] { "write", "bytes" }, new String[] { "read", "latencyNs", "p999" })) {
			MemberSchema member = this.contracts.member(MessageType.SAMPLE, path);
			assertThat(member.rangeOnly).as(member.path()).isTrue();
			int accepted = 0;
			for (long value : INTEGERS) {
				boolean general = member.check.test(JsonNodeFactory.instance.numberNode(value));
				assertThat(member.accepts(value)).as("%s = %d", member.path(), value).isEqualTo(general);
				accepted += general ? 1 : 0;
			}
			assertThat(accepted).as(member.path()).isBetween(1, INTEGERS.size() - 1);
		}
	}

	@Test
	void stringMembersAgreeWithTheirSchemaFirstTimeAndRemembered() {
		for (String name : List.of("jobId", "runnerId", "deviceSerial", "phaseName")) {
			MemberSchema member = this.contracts.member(MessageType.SAMPLE, name);
			assertThat(member.rangeOnly).isFalse();
			int accepted = 0;
			for (int round = 0; round < 2; round++) {
				for (String value : STRINGS) {
					boolean general = member.check.test(JsonNodeFactory.instance.stringNode(value));
					assertThat(member.accepts(value)).as("%s = '%s', round %d", name, value, round).isEqualTo(general);
					accepted += general ? 1 : 0;
				}
			}
			assertThat(accepted).as(name).isBetween(2, 2 * STRINGS.size() - 2);
		}
	}

	@Test
	void anUndeclaredMemberIsRefusedByName() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.contracts.member(MessageType.SAMPLE, "read", "iops"))
			.withMessageContaining("declares no member");
	}

}
