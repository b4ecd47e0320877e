# Fails when a checked-in reference page differs from what the tool prints now.
# cmake -DTOOL=<tool> -DARGS=<comma-separated arguments> -DFILE=<docs/reference/x.md> -P this
string(REPLACE "," ";" arguments "${ARGS}")
string(REPLACE "," " " shown "${ARGS}")
get_filename_component(name "${TOOL}" NAME)
execute_process(COMMAND ${TOOL} ${arguments} OUTPUT_VARIABLE printed RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${name} ${shown} exited with ${status}")
endif()
if(NOT EXISTS "${FILE}")
  message(FATAL_ERROR "${FILE} is missing: regenerate the reference with "
          "scripts/generate-reference.sh <build dir> and commit it")
endif()
file(READ "${FILE}" checked_in)
if(NOT printed STREQUAL checked_in)
  message(FATAL_ERROR "${FILE} differs from what `${name} ${shown}` prints: the code changed and "
          "the reference did not. Regenerate it with scripts/generate-reference.sh <build dir> "
          "(from the source root) and commit the result.")
endif()
