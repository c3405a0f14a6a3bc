# j2735_asn1c_generate(<out_dir> <sources_var>): turns the user's J2735 schema
# (J2735_ASN1_FILES) into C with asn1c 0.9.28, through the project's preprocessing
# (asn1/asn1c/), inside the build tree. It runs while CMake configures because the list of
# files asn1c writes depends on the schema; the schema files and the script are configure
# dependencies, so changing either regenerates. Sets <sources_var> to the .c files to build.
find_program(ASN1C_EXECUTABLE asn1c)
find_package(Python3 COMPONENTS Interpreter)

function(j2735_asn1c_generate out_dir sources_var)
  set(script ${PROJECT_SOURCE_DIR}/asn1/asn1c/j2735_for_asn1c.py)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${script} ${J2735_ASN1_FILES})
  # Generated into a scratch folder, then copied where changed: an unchanged schema
  # rebuilds nothing.
  set(tmp ${out_dir}/tmp)
  file(REMOVE_RECURSE ${tmp})
  file(MAKE_DIRECTORY ${tmp}/asn ${tmp}/c ${out_dir}/c)
  execute_process(
    COMMAND ${Python3_EXECUTABLE} ${script} ${tmp}/asn ${tmp}/c/j2735dec_tables.c
            ${J2735_ASN1_FILES}
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "Preprocessing the J2735 schema for asn1c failed:\n${err}")
  endif()
  file(GLOB asn_files ${tmp}/asn/*.asn)
  execute_process(
    COMMAND ${ASN1C_EXECUTABLE} -gen-PER -fcompound-names -fincludes-quoted ${asn_files}
    WORKING_DIRECTORY ${tmp}/c
    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "asn1c failed on the preprocessed J2735 schema:\n${err}")
  endif()
  file(GLOB generated RELATIVE ${tmp}/c ${tmp}/c/*.c ${tmp}/c/*.h)
  foreach(f IN LISTS generated)
    file(COPY_FILE ${tmp}/c/${f} ${out_dir}/c/${f} ONLY_IF_DIFFERENT)
  endforeach()
  # asn1c 0.9.28 always writes a sample converter with its own main(): not part of a library.
  list(TRANSFORM generated PREPEND ${out_dir}/c/)
  list(FILTER generated INCLUDE REGEX "\\.c$")
  list(FILTER generated EXCLUDE REGEX "/(converter-sample|pdu_collection)\\.c$")
  set(${sources_var} ${generated} PARENT_SCOPE)
endfunction()
