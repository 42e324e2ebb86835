/*
 * Turns on the dispatcher's and the liveness sweeper's schedules.
 */
package io.drivequal.service.qualification;

import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

@Configuration(proxyBeanMethods = false)
@EnableScheduling
class SchedulingConfiguration {

}
