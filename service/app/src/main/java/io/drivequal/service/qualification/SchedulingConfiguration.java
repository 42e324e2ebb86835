/*
 * Turns on the dispatcher's and the liveness sweeper's schedules (not in the one-shot setup mode).
 */
package io.drivequal.service.qualification;

import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.scheduling.annotation.EnableScheduling;

@Configuration(proxyBeanMethods = false)
@EnableScheduling
@Profile("!setup")
class SchedulingConfiguration {

}
