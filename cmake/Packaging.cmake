# `cpack` (or `cmake --build build --target package`): a .deb for the Debian release the
# build ran on, holding v2xcap, its man page and the plugins this build made. Its
# dependencies come from dpkg-shlibdeps, so the plugins depend on exactly the libwireshark
# ABI of that release (libwireshark16 for Wireshark 4.0 on Debian 12, libwireshark18 for
# 4.4 on Debian 13): a package never loads into another Wireshark. A package built with
# a J2735 schema holds code generated from SAE's schema: it is for the builder's own use.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME v2x-capture)
set(CPACK_PACKAGE_VENDOR "v2x-capture")
set(CPACK_PACKAGE_CONTACT "v2x-capture developers <v2x-capture@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "V2X capture toolkit: v2xcap and Wireshark plugins for WSMP/IEEE 1609 and SAE J2735")
if(J2735_EDITION)
  set(v2x_deb_schema "The J2735 plugin and v2xcap's decoder were generated from the SAE J2735
${J2735_EDITION} schema of whoever built this package: under SAE's licence the package
is for that licensee's own use and must not be redistributed.")
else()
  set(v2x_deb_schema "Built without an SAE J2735 schema: J2735 messages are identified by
message id, not decoded field by field.")
endif()
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "v2xcap sets up 802.11p OCB interfaces over nl80211,
captures with libpcap, prints per-message statistics, decodes J2735 to JSON and transmits
WSMP. The Wireshark plugins decode IEEE 1609.3 WSMP/WSA and SAE J2735.
${v2x_deb_schema}")
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_ENHANCES "wireshark, tshark")
# librdkafka (--kafka) and libcrypto (report's signature check) are loaded when used
# (analyzer/dynlib.h), so dpkg-shlibdeps does not see them: recommended, under the name
# of the package that holds them on the build's release (librdkafka1, libssl3t64 ...).
set(v2x_recommends "")
foreach(soname librdkafka.so.1 libcrypto.so.3)
  find_library(v2x_lib_${soname} NAMES ${soname})
  if(v2x_lib_${soname})
    execute_process(COMMAND dpkg-query -S ${v2x_lib_${soname}} OUTPUT_VARIABLE owner
                    ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    string(REGEX MATCH "^[^:]+" owner "${owner}")
    if(owner)
      list(APPEND v2x_recommends ${owner})
    endif()
  endif()
endforeach()
string(REPLACE ";" ", " CPACK_DEBIAN_PACKAGE_RECOMMENDS "${v2x_recommends}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

# The release goes into the version (0.1.0~deb13), so packages for several releases can
# sit side by side and apt orders them as Debian's own backports.
set(v2x_deb_release "")
if(EXISTS /etc/os-release)
  file(STRINGS /etc/os-release v2x_os_id REGEX "^VERSION_ID=")
  string(REGEX REPLACE "^VERSION_ID=\"?([0-9]+).*" "\\1" v2x_os_id "${v2x_os_id}")
  if(v2x_os_id)
    set(v2x_deb_release "~deb${v2x_os_id}")
  else()
    set(v2x_deb_release "~debsid") # testing/unstable carry no VERSION_ID
  endif()
endif()
set(CPACK_DEBIAN_PACKAGE_VERSION "${PROJECT_VERSION}${v2x_deb_release}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
include(CPack)
