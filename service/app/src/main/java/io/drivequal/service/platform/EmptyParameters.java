/*
 * A query parameter of a type other than text (a date-time, a number, an enum) that is present but
 * empty — "?to=" — is refused with a 400 naming it. Spring reads such a value as absent, so
 * "?to=" listed everything while the OpenAPI document says "to" is a date-time (the contract
 * fuzzer found it); a caller who means "no bound" leaves the parameter out.
 */
package io.drivequal.service.platform;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

@Configuration(proxyBeanMethods = false)
class EmptyParameters implements WebMvcConfigurer {

	@Override
	public void addInterceptors(InterceptorRegistry registry) {
		registry.addInterceptor(new Refusal()).addPathPatterns("/api/**");
	}

	static final class Refusal implements HandlerInterceptor {

		@Override
		public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
			if (!(handler instanceof HandlerMethod method)) {
				return true;
			}
			for (MethodParameter parameter : method.getMethodParameters()) {
				RequestParam annotation = parameter.getParameterAnnotation(RequestParam.class);
				if (annotation == null || CharSequence.class.isAssignableFrom(parameter.getParameterType())) {
					continue;
				}
				String name = !annotation.name().isEmpty() ? annotation.name()
						: !annotation.value().isEmpty() ? annotation.value() : parameter.getParameterName();
				String[] values = (name != null) ? request.getParameterValues(name) : null;
				if (values == null) {
					continue;
				}
				for (String value : values) {
					if (value.isBlank()) {
						throw new BadRequestException(name, "must not be empty; leave the parameter out instead");
					}
				}
			}
			return true;
		}

	}

}
