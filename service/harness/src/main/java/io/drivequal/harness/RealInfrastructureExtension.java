// Lets JUnit 5 test classes declare that they need the shared real Elasticsearch and Kafka.
package io.drivequal.harness;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * {@code @ExtendWith(RealInfrastructureExtension.class)} starts
 * {@link RealInfrastructure#shared()} before the class's tests and injects it into
 * test/lifecycle method parameters. Stopping is left to JVM exit (see
 * {@link RealInfrastructure}).
 */
public final class RealInfrastructureExtension implements BeforeAllCallback, ParameterResolver {

	@Override
	public void beforeAll(ExtensionContext context) {
		RealInfrastructure.shared();
	}

	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return parameterContext.getParameter().getType() == RealInfrastructure.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return RealInfrastructure.shared();
	}

}
