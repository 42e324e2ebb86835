/*
 * /api/v1/audit: the audit trail for admins (the security rules refuse every other role), newest
 * first, filtered and paged; and the route of its page, /ui/audit.
 */
package io.drivequal.service.audit;

import java.time.Instant;
import java.util.List;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;

import io.drivequal.service.platform.BadRequestException;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Configuration;
import org.springframework.format.annotation.DateTimeFormat;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

@RestController
@RequestMapping("/api/v1/audit")
@Validated
class AuditController {

	/** Elasticsearch's default index.max_result_window. */
	private static final int MAX_RESULT_WINDOW = 10000;

	private static final String OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";

	private static final String IPV4 = "(" + OCTET + "\\.){3}" + OCTET;

	private static final String H = "[0-9A-Fa-f]{1,4}";

	private static final String IPV6 = "((" + H + ":){7}" + H + "|(" + H + ":){1,7}:|(" + H + ":){1,6}:" + H + "|(" + H
			+ ":){1,5}(:" + H + "){1,2}|(" + H + ":){1,4}(:" + H + "){1,3}|(" + H + ":){1,3}(:" + H + "){1,4}|(" + H
			+ ":){1,2}(:" + H + "){1,5}|" + H + ":(:" + H + "){1,6}|:((:" + H + "){1,7}|:))";

	/**
	 * An IPv4 or IPv6 literal (no zone, no embedded IPv4), optionally with a prefix
	 * length; never a host name. One pattern, in a syntax Java and JSON Schema read the
	 * same, so the OpenAPI document admits exactly what the service does.
	 */
	static final String ADDRESS_OR_BLOCK = "^(" + IPV4 + "(/(3[0-2]|[12]?[0-9]))?|" + IPV6
			+ "(/(12[0-8]|1[01][0-9]|[1-9]?[0-9]))?)$";

	private final AuditLog auditLog;

	AuditController(AuditLog auditLog) {
		this.auditLog = auditLog;
	}

	record AuditPage(long total, int page, int size, List<AuditEntry> items) {
	}

	@GetMapping
	AuditPage search(@RequestParam(required = false) String actor, @RequestParam(required = false) String action,
			@RequestParam(required = false) String outcome, @RequestParam(required = false) String target,
			@RequestParam(required = false) @Pattern(regexp = ADDRESS_OR_BLOCK,
					message = "must be an IP address or a CIDR block") String clientAddress,
			@RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant from,
			@RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant to,
			@RequestParam(defaultValue = "0") @Min(0) @Max(10000) int page,
			@RequestParam(defaultValue = "50") @Min(1) @Max(500) int size) {
		if ((long) (page + 1) * size > MAX_RESULT_WINDOW) {
			throw new BadRequestException("page",
					"page * size must stay within the first " + MAX_RESULT_WINDOW + " entries; narrow from/to instead");
		}
		AuditLog.Page result = this.auditLog
			.search(new AuditLog.AuditQuery(actor, action, outcome, target, clientAddress, from, to, page, size));
		return new AuditPage(result.total(), page, size, result.entries());
	}

	/**
	 * Registers the interceptor that records actions, and the audit page's route. The
	 * recorder is looked up lazily: web slice tests load this configurer without the
	 * audit trail's components, and then nothing is recorded.
	 */
	@Configuration(proxyBeanMethods = false)
	static class AuditWeb implements WebMvcConfigurer {

		private final ObjectProvider<AuditRecorder> recorder;

		AuditWeb(ObjectProvider<AuditRecorder> recorder) {
			this.recorder = recorder;
		}

		@Override
		public void addInterceptors(InterceptorRegistry registry) {
			registry.addInterceptor(new AuditInterceptor(this.recorder)).addPathPatterns("/api/**");
		}

		@Override
		public void addViewControllers(ViewControllerRegistry registry) {
			registry.addViewController("/ui/audit").setViewName("forward:/ui/audit.html");
		}

	}

}
