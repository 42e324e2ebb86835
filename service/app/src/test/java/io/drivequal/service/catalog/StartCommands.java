/*
 * Phases checked the way a runner will see them: inside the smallest start command the contract
 * accepts, validated against its JSON Schema.
 */
package io.drivequal.service.catalog;

import java.util.List;

import io.drivequal.schemas.Contracts;
import io.drivequal.schemas.MessageType;
import io.drivequal.schemas.Validation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

final class StartCommands {

	private StartCommands() {
	}

	static Validation validate(Contracts contracts, List<JsonNode> phases) {
		ObjectNode command = contracts.mapper().createObjectNode();
		command.put("schemaVersion", 1);
		command.put("type", "start");
		command.put("commandId", "start-q-1");
		command.put("jobId", "q-1");
		command.put("runnerId", "r1");
		command.put("issuedAt", "2026-11-22T21:00:00.000Z");
		command.putObject("device").put("serial", "S6CKNE0T801234");
		command.putArray("phases").addAll(phases);
		return contracts.validate(MessageType.JOB_COMMAND, command);
	}

}
