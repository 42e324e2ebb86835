/*
 * Brings the real security rules into @WebMvcTest slices, so every slice test also checks 401/403.
 */
package io.drivequal.service.security;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Import;

@TestConfiguration(proxyBeanMethods = false)
@Import(SecurityConfiguration.class)
public class ApiSecurity {

}
