/*
 * Turns on the delivery and catch-up schedules (not in the one-shot setup mode) and gives the
 * subscriptions page its route.
 */
package io.drivequal.service.webhooks;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(WebhookSettings.class)
class WebhookConfiguration implements WebMvcConfigurer {

	@Override
	public void addViewControllers(ViewControllerRegistry registry) {
		registry.addViewController("/ui/webhooks").setViewName("forward:/ui/webhooks.html");
	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	@Profile("!setup")
	static class Schedules {

	}

}
