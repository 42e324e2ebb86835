# CLI tests of `drivequal-runner agent` that need no broker, run by ctest as `cmake -P` with RUNNER,
# LAUNCHER and WORK: usage and configuration errors exit 2 naming the problem, and --check shows
# the effective configuration with the command line's overrides and without any secret.
string(REPLACE "|" ";" launcher "${LAUNCHER}")
file(MAKE_DIRECTORY "${WORK}")

function(run_agent)
	execute_process(COMMAND "${CMAKE_COMMAND}" -E env DQ_AGENT_CLI_PASSWORD=env-pa55word
		${launcher} "${RUNNER}" agent ${ARGN}
		OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr RESULT_VARIABLE result TIMEOUT 50)
	message(STATUS "drivequal-runner agent ${ARGN} -> ${result}\n--- stdout\n${stdout}--- stderr\n${stderr}---")
	set(out "${stdout}" PARENT_SCOPE)
	set(err "${stderr}" PARENT_SCOPE)
	set(status "${result}" PARENT_SCOPE)
endfunction()

macro(expect_status expected)
	if(NOT status STREQUAL "${expected}")
		message(FATAL_ERROR "expected exit status ${expected}, got ${status}")
	endif()
endmacro()

macro(expect_contains variable text)
	string(FIND "${${variable}}" "${text}" found_at)
	if(found_at EQUAL -1)
		message(FATAL_ERROR "expected ${variable} to contain: ${text}")
	endif()
endmacro()

macro(expect_lacks variable text)
	string(FIND "${${variable}}" "${text}" found_at)
	if(NOT found_at EQUAL -1)
		message(FATAL_ERROR "expected ${variable} not to contain: ${text}")
	endif()
endmacro()

run_agent()
expect_status(2)
expect_contains(err "--config FILE is required")

run_agent(--help)
expect_status(0)
expect_contains(out "usage: drivequal-runner agent --config FILE")

run_agent(--config "${WORK}/missing.json")
expect_status(2)
expect_contains(err "missing.json: No such file or directory")

file(WRITE "${WORK}/bad.json" "{\"brokers\": \"b:1\", \"devices\": [{\"engine\": \"null\", \"target\": \"null\", \"size\": 1}]}")
run_agent(--config "${WORK}/bad.json")
expect_status(2)
expect_contains(err "bad.json: devices[0]: unknown key 'size'")

file(WRITE "${WORK}/secret" "file-pa55word\n")
file(WRITE "${WORK}/agent.json" "{\"runnerId\": \"cli-runner\", \"brokers\": \"b:1\",
  \"kafka\": {\"sasl.username\": \"@env:DQ_AGENT_CLI_PASSWORD\", \"sasl.password\": \"@file:${WORK}/secret\"},
  \"devices\": [{\"engine\": \"null\", \"target\": \"null:1g\"}]}")
run_agent(--config "${WORK}/agent.json" --check --brokers 127.0.0.1:9 --runner-id other -X linger.ms=3)
expect_status(0)
expect_contains(out "runner other: brokers 127.0.0.1:9")
expect_contains(out "sasl.password=(secret)")
expect_contains(out "sasl.username=(secret)")
expect_contains(out "linger.ms=3")
expect_contains(out "device null null:1g")
expect_lacks(out "pa55word")
expect_lacks(err "pa55word")

run_agent(--config "${WORK}/agent.json" --check -X message.timeout.ms=1000)
expect_status(2)
expect_contains(err "message.timeout.ms cannot be set")

run_agent(--config "${WORK}/agent.json" --check -X sasl.password=@env:DQ_AGENT_CLI_UNSET)
expect_status(2)
expect_contains(err "environment variable 'DQ_AGENT_CLI_UNSET' is not set")
