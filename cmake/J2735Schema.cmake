# Finds the user's SAE J2735 ASN.1 schema (never part of this project) and detects its
# edition. Sets J2735_EDITION (2016, 2020, 2024 or empty) and J2735_ASN1_FILES.
set(J2735_EDITION "")
set(J2735_ASN1_FILES "")
if(J2735_ASN1_DIR)
  get_filename_component(J2735_ASN1_DIR "${J2735_ASN1_DIR}" ABSOLUTE
                         BASE_DIR "${CMAKE_SOURCE_DIR}")
  file(GLOB J2735_ASN1_FILES LIST_DIRECTORIES false
       "${J2735_ASN1_DIR}/*.asn" "${J2735_ASN1_DIR}/*.ASN" "${J2735_ASN1_DIR}/*.asn1")
  list(SORT J2735_ASN1_FILES)
  foreach(f IN LISTS J2735_ASN1_FILES)
    file(STRINGS "${f}" hits REGEX "(^|[ \t])DSRC[ \t]+DEFINITIONS|sensorDataSharingMessage[ \t]+DSRCmsgID|personalSafetyMessage[ \t]+DSRCmsgID")
    if(hits MATCHES "DSRC[ \t]+DEFINITIONS")
      set(J2735_EDITION 2016)
    elseif(hits MATCHES "sensorDataSharingMessage")
      set(J2735_EDITION 2024)
    elseif(hits MATCHES "personalSafetyMessage" AND NOT J2735_EDITION)
      set(J2735_EDITION 2020)
    endif()
  endforeach()
  if(NOT J2735_ASN1_FILES)
    message(FATAL_ERROR "J2735_ASN1_DIR=${J2735_ASN1_DIR} holds no .asn files")
  elseif(NOT J2735_EDITION)
    message(FATAL_ERROR "J2735_ASN1_DIR=${J2735_ASN1_DIR}: no J2735 MessageFrame module "
                        "found (expected the 2016 DSRC module or the 2020 split modules)")
  endif()
  list(LENGTH J2735_ASN1_FILES n)
  message(STATUS "SAE J2735 schema: edition ${J2735_EDITION} (${n} files in ${J2735_ASN1_DIR})")
else()
  message(STATUS "SAE J2735 schema: none. WSMP, WSA, IEEE 1609.2 and J2735 message ids "
                 "are decoded; for full J2735 decoding download the J2735 ASN.1 from SAE "
                 "and configure with -DJ2735_ASN1_DIR=<dir> (or export J2735_ASN1_DIR)")
endif()
