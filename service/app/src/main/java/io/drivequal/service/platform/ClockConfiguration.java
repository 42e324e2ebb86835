/*
 * One clock for the service, so time-dependent rules (runner liveness, ETA) can be tested.
 */
package io.drivequal.service.platform;

import java.time.Clock;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class ClockConfiguration {

	@Bean
	Clock clock() {
		return Clock.systemUTC();
	}

}
