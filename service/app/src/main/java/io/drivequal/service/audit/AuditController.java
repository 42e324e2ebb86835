/*
 * /api/v1/audit: the audit trail for admins (the security rules refuse every other role), newest
 * first, filtered and paged; and the route of its page, /ui/audit.
 */
package io.drivequal.service.audit;

import java.time.Instant;
import java.util.List;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

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

	private final AuditLog auditLog;

	AuditController(AuditLog auditLog) {
		this.auditLog = auditLog;
	}

	record AuditPage(long total, int page, int size, List<AuditEntry> items) {
	}

	@GetMapping
	AuditPage search(@RequestParam(required = false) String actor, @RequestParam(required = false) String action,
			@RequestParam(required = false) String outcome, @RequestParam(required = false) String target,
			@RequestParam(required = false) String clientAddress,
			@RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant from,
			@RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant to,
			@RequestParam(defaultValue = "0") @Min(0) @Max(10000) int page,
			@RequestParam(defaultValue = "50") @Min(1) @Max(500) int size) {
		if ((long) (page + 1) * size > MAX_RESULT_WINDOW) {
			throw new BadRequestException("page",
					"page * size must stay within the first " + MAX_RESULT_WINDOW + " entries; narrow from/to instead");
		}
		if (clientAddress != null && !isAddressOrBlock(clientAddress)) {
			throw new BadRequestException("clientAddress", "must be an IP address or a CIDR block");
		}
		AuditLog.Page result = this.auditLog
			.search(new AuditLog.AuditQuery(actor, action, outcome, target, clientAddress, from, to, page, size));
		return new AuditPage(result.total(), page, size, result.entries());
	}

	/** An IPv4 or IPv6 literal, optionally with a prefix length; never a host name. */
	static boolean isAddressOrBlock(String value) {
		String[] parts = value.split("/", -1);
		if (parts.length > 2 || (parts.length == 2 && !parts[1].matches("\\d{1,3}"))) {
			return false;
		}
		String address = parts[0];
		boolean ipv4 = address.matches("(\\d{1,3}\\.){3}\\d{1,3}")
				&& java.util.Arrays.stream(address.split("\\.")).allMatch((octet) -> Integer.parseInt(octet) <= 255);
		boolean literal = ipv4 || (address.contains(":") && address.matches("[0-9A-Fa-f:.]{2,45}"));
		if (!literal) {
			return false;
		}
		try {
			// A literal: parsed, never resolved.
			java.net.InetAddress parsed = java.net.InetAddress.getByName(address);
			int bits = (parsed instanceof java.net.Inet4Address) ? 32 : 128;
			return parts.length == 1 || Integer.parseInt(parts[1]) <= bits;
		}
		catch (java.net.UnknownHostException ex) {
			return false;
		}
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
