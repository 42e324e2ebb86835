/*
 * One shared, immutable view of schemas/ for the whole service.
 */
package io.drivequal.service.platform;

import io.drivequal.schemas.Contracts;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class ContractsConfiguration {

	@Bean
	Contracts contracts() {
		return Contracts.load();
	}

}
