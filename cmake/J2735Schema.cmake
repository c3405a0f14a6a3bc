# Finds the user's SAE J2735 ASN.1 schema (never part of this project) and detects its
# edition from the modules' content, not the file names. Sets J2735_ASN1_FILES and
# J2735_EDITION: 2016 (the single DSRC module), 2020 (split modules, message ids up to
# 32), 2024 (ids up to 50: SDSM, MSCM, toll messages ...); any other set with a J2735
# MessageFrame gets the year its MessageFrame module names, or "unknown", and the same
# generic preprocessing. Empty when there is no usable schema: never a configure error.
set(J2735_EDITION "")
set(J2735_ASN1_FILES "")
if(J2735_ASN1_DIR)
  get_filename_component(J2735_ASN1_DIR "${J2735_ASN1_DIR}" ABSOLUTE
                         BASE_DIR "${CMAKE_SOURCE_DIR}")
  file(GLOB J2735_ASN1_FILES LIST_DIRECTORIES false
       "${J2735_ASN1_DIR}/*.asn" "${J2735_ASN1_DIR}/*.ASN" "${J2735_ASN1_DIR}/*.asn1")
  list(SORT J2735_ASN1_FILES)
  set(dsrc_module FALSE)
  set(max_id -1)        # highest DSRCmsgID below the test range (240-255)
  set(frame_module "")  # name of the MessageFrame module
  foreach(f IN LISTS J2735_ASN1_FILES)
    file(STRINGS "${f}" hits REGEX
         "(^|[ \t])DSRC[ \t]+DEFINITIONS|DSRCmsgID[ \t]*::=[ \t]*[0-9]+|^[ \t]*MessageFrame[A-Za-z0-9_-]*[ \t]*({|DEFINITIONS|$)")
    foreach(hit IN LISTS hits)
      if(hit MATCHES "(^|[ \t])DSRC[ \t]+DEFINITIONS")
        set(dsrc_module TRUE)
      elseif(hit MATCHES "DSRCmsgID[ \t]*::=[ \t]*([0-9]+)")
        if(CMAKE_MATCH_1 LESS 240 AND CMAKE_MATCH_1 GREATER max_id)
          set(max_id ${CMAKE_MATCH_1})
        endif()
      elseif(hit MATCHES "^[ \t]*(MessageFrame[A-Za-z0-9_-]*)")
        set(frame_module ${CMAKE_MATCH_1})
      endif()
    endforeach()
  endforeach()
  if(dsrc_module)
    set(J2735_EDITION 2016)
  elseif(max_id EQUAL 32)
    set(J2735_EDITION 2020)
  elseif(max_id EQUAL 50)
    set(J2735_EDITION 2024)
  elseif(max_id GREATER -1 OR frame_module)
    set(J2735_EDITION unknown)
    if(frame_module MATCHES "((19|20)[0-9][0-9])")
      set(J2735_EDITION ${CMAKE_MATCH_1})
    endif()
  endif()
  if(NOT J2735_ASN1_FILES)
    message(WARNING "J2735_ASN1_DIR=${J2735_ASN1_DIR} holds no .asn files: building "
                    "without the J2735 schema (message ids only)")
  elseif(NOT J2735_EDITION)
    message(WARNING "J2735_ASN1_DIR=${J2735_ASN1_DIR}: no J2735 MessageFrame module found "
                    "(the DSRC module of 2016 or the MessageFrame module of later "
                    "editions): building without the J2735 schema (message ids only)")
  else()
    list(LENGTH J2735_ASN1_FILES n)
    if(J2735_EDITION MATCHES "^(2016|2020|2024)$")
      message(STATUS "SAE J2735 schema: edition ${J2735_EDITION} (${n} files in ${J2735_ASN1_DIR})")
    else()
      message(STATUS "SAE J2735 schema: edition ${J2735_EDITION}, not one this project "
                     "was tested with (message ids up to ${max_id}; ${n} files in "
                     "${J2735_ASN1_DIR}): trying the generic preprocessing")
    endif()
  endif()
else()
  message(STATUS "SAE J2735 schema: none. WSMP, WSA, IEEE 1609.2 and J2735 message ids "
                 "are decoded; for full J2735 decoding download the J2735 ASN.1 from SAE "
                 "and configure with -DJ2735_ASN1_DIR=<dir> (or export J2735_ASN1_DIR)")
endif()
