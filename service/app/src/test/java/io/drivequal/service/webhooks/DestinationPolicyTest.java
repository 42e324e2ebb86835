/*
 * The destination policy on literal addresses (no DNS needed): what is refused by default, what an
 * operator's allowed networks reopen, extra denied networks, and the host allowlist.
 */
package io.drivequal.service.webhooks;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DestinationPolicyTest {

	private static DestinationPolicy policy(List<String> hosts, List<String> denied, List<String> allowed) {
		return new DestinationPolicy(new WebhookSettings(4, Duration.ofSeconds(5), Duration.ofSeconds(10), 10,
				Duration.ofSeconds(10), Duration.ofHours(1), Duration.ofHours(1), 25, null, null,
				new WebhookSettings.Destinations(hosts, denied, allowed)));
	}

	private static final DestinationPolicy DEFAULTS = policy(List.of(), List.of(), List.of());

	@Test
	void onlyHttpAndHttpsWithAHostAndNoCredentials() {
		assertThatThrownBy(() -> DEFAULTS.check("ftp://192.0.2.10/hook")).hasMessageContaining("http or https");
		assertThatThrownBy(() -> DEFAULTS.check("file:///etc/passwd")).hasMessageContaining("http or https");
		assertThatThrownBy(() -> DEFAULTS.check("hooks.example.com/x")).hasMessageContaining("http or https");
		assertThatThrownBy(() -> DEFAULTS.check("http:///x")).hasMessageContaining("no host");
		assertThatThrownBy(() -> DEFAULTS.check("https://user:pw@192.0.2.10/x")).hasMessageContaining("credentials");
		assertThatThrownBy(() -> DEFAULTS.check("http://exa mple.com/")).hasMessageContaining("not a valid URL");
	}

	@Test
	void linkLocalMetadataLoopbackAndMulticastAreRefusedByDefault() {
		for (String url : List.of("http://169.254.169.254/latest/meta-data/", "http://100.100.100.200/",
				"http://192.0.0.192/", "http://[fd00:ec2::254]/", "http://[fe80::1]/", "http://127.0.0.1:8080/",
				"http://[::1]/", "http://0.0.0.0/", "http://224.0.0.1/", "http://[::ffff:169.254.169.254]/",
				"http://2130706433/")) {
			assertThatThrownBy(() -> DEFAULTS.check(url)).as(url)
				.isInstanceOf(DestinationPolicy.RefusedDestination.class)
				.hasMessageContaining("refused by the operator's webhook destination policy");
		}
		assertThatThrownBy(() -> DEFAULTS.check("http://169.254.169.254/"))
			.hasMessageContaining("link-local, where cloud metadata services answer");
	}

	@Test
	void ordinaryAddressesArAllowedByDefault() {
		assertThatCode(() -> DEFAULTS.check("https://192.0.2.10/hook?token=x")).doesNotThrowAnyException();
		assertThatCode(() -> DEFAULTS.check("http://10.1.2.3:8443/drivequal")).doesNotThrowAnyException();
		assertThatCode(() -> DEFAULTS.check("https://[2001:db8::1]/hook")).doesNotThrowAnyException();
	}

	@Test
	void allowedNetworksReopenLoopbackButNeverMore() {
		DestinationPolicy local = policy(List.of(), List.of(), List.of("127.0.0.0/8", "::1/128"));
		assertThatCode(() -> local.check("http://127.0.0.1:9000/hook")).doesNotThrowAnyException();
		assertThatCode(() -> local.check("http://[::1]:9000/hook")).doesNotThrowAnyException();
		assertThatThrownBy(() -> local.check("http://169.254.169.254/")).hasMessageContaining("refused");
	}

	@Test
	void operatorsDenyMoreAndMayListTheOnlyAllowedHosts() {
		DestinationPolicy strict = policy(List.of("*.example.com", "192.0.2.10"), List.of("10.0.0.0/8"), List.of());
		assertThatThrownBy(() -> strict.check("http://10.1.2.3/")).hasMessageContaining("allowed webhook hosts");
		assertThatCode(() -> strict.check("https://192.0.2.10/hook")).doesNotThrowAnyException();
		assertThatThrownBy(() -> strict.check("https://192.0.2.11/hook")).hasMessageContaining("allowed webhook hosts");
		DestinationPolicy denyPrivate = policy(List.of(), List.of("10.0.0.0/8"), List.of());
		assertThatThrownBy(() -> denyPrivate.check("http://10.1.2.3/"))
			.hasMessageContaining("drivequal.webhooks.destinations.denied-networks");
	}

	@Test
	void aMisconfiguredNetworkStopsTheStart() {
		assertThatThrownBy(() -> policy(List.of(), List.of("not-a-network"), List.of()))
			.isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("denied-networks: not-a-network");
	}

	@Test
	void backoffDoublesUpToItsMaximum() {
		WebhookSettings settings = new WebhookSettings(4, Duration.ofSeconds(5), Duration.ofSeconds(10), 10,
				Duration.ofSeconds(10), Duration.ofSeconds(60), Duration.ofHours(1), 25, null, null,
				new WebhookSettings.Destinations(List.of(), List.of(), List.of()));
		assertThat(List.of(1, 2, 3, 4, 5).stream().map(settings::backoffAfter).map(Duration::toSeconds))
			.containsExactly(10L, 20L, 40L, 60L, 60L);
	}

}
