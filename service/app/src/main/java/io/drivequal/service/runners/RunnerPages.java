/*
 * The route of the runners page, /ui/runners: the fleet with its drain state and the drives each
 * runner owns.
 */
package io.drivequal.service.runners;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

@Configuration(proxyBeanMethods = false)
class RunnerPages implements WebMvcConfigurer {

	@Override
	public void addViewControllers(ViewControllerRegistry registry) {
		registry.addViewController("/ui/runners").setViewName("forward:/ui/runners.html");
	}

}
