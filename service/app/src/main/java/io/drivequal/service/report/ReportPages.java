/*
 * The URLs of the web report. The pages are static files (static/ui) that fetch the API, so a
 * route only forwards to its page; the page reads the job id from its own address.
 */
package io.drivequal.service.report;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

@Configuration(proxyBeanMethods = false)
class ReportPages implements WebMvcConfigurer {

	@Override
	public void addViewControllers(ViewControllerRegistry registry) {
		registry.addRedirectViewController("/", "/ui/");
		registry.addRedirectViewController("/ui", "/ui/");
		registry.addViewController("/ui/").setViewName("forward:/ui/index.html");
		registry.addViewController("/ui/submit").setViewName("forward:/ui/submit.html");
		registry.addViewController("/ui/drives").setViewName("forward:/ui/drives.html");
		registry.addViewController("/ui/jobs/{id}").setViewName("forward:/ui/job.html");
		registry.addViewController("/ui/compare").setViewName("forward:/ui/compare.html");
		registry.addViewController("/ui/campaigns").setViewName("forward:/ui/campaigns.html");
		registry.addViewController("/ui/campaigns/{id}").setViewName("forward:/ui/campaign.html");
	}

}
