/*
 * Local users keep the password they were given: a sign-in must not "upgrade" a {noop} password
 * to bcrypt, which would make every later request of the stateless API pay a bcrypt check.
 */
package io.drivequal.service.security;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(LocalUsersTest.Api.class)
@Import({ ApiSecurity.class, LocalUsersTest.Api.class })
class LocalUsersTest {

	@Autowired
	private MockMvc mvc;

	@Autowired
	private UserDetailsService users;

	@Test
	void signingInLeavesTheStoredPasswordAsConfigured() throws Exception {
		assertThat(this.users.loadUserByUsername("viewer").getPassword()).isEqualTo("{noop}viewer-pw");
		for (int i = 0; i < 2; i++) {
			this.mvc.perform(get("/api/v1/test-only").with(httpBasic("viewer", "viewer-pw")))
				.andExpect(status().isOk());
		}
		assertThat(this.users.loadUserByUsername("viewer").getPassword()).isEqualTo("{noop}viewer-pw");
	}

	@RestController
	static class Api {

		@GetMapping("/api/v1/test-only")
		String answer() {
			return "ok";
		}

	}

}
