/*
 * Entry point of the drivequal service.
 */
package io.drivequal.service;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class DrivequalApplication {

	public static void main(String[] args) {
		SpringApplication.run(DrivequalApplication.class, args);
	}

}
