# The format and format-check targets: one clang-format style (.clang-format) for every C source,
# checked by the build (Maven's validate phase) so formatting never reaches review.
find_program(CLANG_FORMAT_EXECUTABLE NAMES clang-format clang-format-19 clang-format-16 clang-format-14)

file(GLOB_RECURSE DRIVEQUAL_FORMAT_SOURCES CONFIGURE_DEPENDS
	"${PROJECT_SOURCE_DIR}/src/*.[ch]"
	"${PROJECT_SOURCE_DIR}/tests/*.[ch]"
	"${PROJECT_SOURCE_DIR}/sim/include/*.h"
	"${PROJECT_SOURCE_DIR}/sim/src/*.[ch]"
	"${PROJECT_SOURCE_DIR}/sim/tests/*.[ch]"
	"${PROJECT_SOURCE_DIR}/sim/bench/*.[ch]")
list(SORT DRIVEQUAL_FORMAT_SOURCES)

if(CLANG_FORMAT_EXECUTABLE)
	add_custom_target(format
		COMMAND "${CLANG_FORMAT_EXECUTABLE}" -i --style=file ${DRIVEQUAL_FORMAT_SOURCES}
		WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
		COMMENT "clang-format: applying .clang-format"
		VERBATIM)
	add_custom_target(format-check
		COMMAND "${CLANG_FORMAT_EXECUTABLE}" --dry-run --Werror --style=file ${DRIVEQUAL_FORMAT_SOURCES}
		WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
		COMMENT "clang-format: checking .clang-format"
		VERBATIM)
else()
	set(_missing "clang-format not found: install it (Debian: apt-get install clang-format)")
	add_custom_target(format COMMAND "${CMAKE_COMMAND}" -E echo "${_missing}" COMMAND "${CMAKE_COMMAND}" -E false)
	add_custom_target(format-check COMMAND "${CMAKE_COMMAND}" -E echo "${_missing}" COMMAND "${CMAKE_COMMAND}" -E false)
endif()
