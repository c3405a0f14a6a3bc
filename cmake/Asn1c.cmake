# j2735_asn1c_generate(<out_dir> <sources_var>): turns the user's J2735 schema
# (J2735_ASN1_FILES) into C with asn1c 0.9.28, through the project's preprocessing
# (asn1/asn1c/), inside the build tree. It runs while CMake configures because the list of
# files asn1c writes depends on the schema; the schema files and the script are configure
# dependencies, so changing either regenerates. Sets <sources_var> to the .c files to build.
#
# Variables for the rest of the build:
#   J2735_EDITION   (J2735Schema.cmake) a schema was found: 2016, 2020, 2024, a later year
#                   or "unknown"; empty without one.
#   J2735_ASN1C_OK  (cache, TRUE/FALSE) v2xcap's asn1c decoder was generated from it. FALSE
#                   when there is no schema, no asn1c/python3, or when the preprocessing or
#                   asn1c rejected the schema: then configure still succeeds, says once
#                   where and why, and v2xcap is built without full decoding.
find_program(ASN1C_EXECUTABLE asn1c)
find_package(Python3 COMPONENTS Interpreter)

# A failure is a warning naming the schema file and line, not a configure error.
function(j2735_asn1c_report what detail)
  message(WARNING "SAE J2735 schema (edition ${J2735_EDITION}, ${J2735_ASN1_DIR}): ${what}:\n"
    "  ${detail}\n"
    "v2xcap is built without full J2735 decoding (WSMP, WSA, IEEE 1609.2 and J2735 message "
    "ids and names still work). What you can do: check that the file named above is the "
    "unmodified text SAE distributes (a download cut short or an edit breaks it); use "
    "another edition of the schema; or report this message with the edition to the "
    "project. Configure without -DJ2735_ASN1_DIR to silence this.")
endfunction()

function(j2735_asn1c_generate out_dir sources_var)
  set(script ${PROJECT_SOURCE_DIR}/asn1/asn1c/j2735_for_asn1c.py)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${script}
               ${PROJECT_SOURCE_DIR}/asn1/j2735_schema.py
               ${PROJECT_SOURCE_DIR}/asn1/stable-member-names.txt ${J2735_ASN1_FILES})
  set(J2735_ASN1C_OK FALSE CACHE INTERNAL "asn1c decoder generated from the J2735 schema")
  set(${sources_var} "" PARENT_SCOPE)
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
    string(STRIP "${err}" err)
    j2735_asn1c_report("the project's preprocessing for asn1c failed" "${err}")
    return()
  endif()
  file(GLOB asn_files ${tmp}/asn/*.asn)
  execute_process(
    COMMAND ${ASN1C_EXECUTABLE} -gen-PER -fcompound-names -fincludes-quoted ${asn_files}
    WORKING_DIRECTORY ${tmp}/c
    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    # asn1c names the preprocessed file; the script maps it back to the user's.
    file(WRITE ${tmp}/asn1c.err "${err}")
    execute_process(COMMAND ${Python3_EXECUTABLE} ${script} --explain ${tmp}/asn
                    INPUT_FILE ${tmp}/asn1c.err OUTPUT_VARIABLE where
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    j2735_asn1c_report("asn1c ${ASN1C_EXECUTABLE} rejected it" "${where}")
    return()
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
  set(J2735_ASN1C_OK TRUE CACHE INTERNAL "asn1c decoder generated from the J2735 schema")
endfunction()
