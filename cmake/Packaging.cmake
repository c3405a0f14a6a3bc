# `cpack` (or `cmake --build build --target package`): the .debs for the Debian release the
# build ran on, split as Debian splits a library: v2x-capture (v2xcap, its man page and
# the plugins this build made), libv2x0 (the shared library), libv2x-dev (headers,
# pkg-config file, static library, examples, man(3) pages) and python3-v2x (the Python
# module); one per install component. Their dependencies come from dpkg-shlibdeps, so the
# plugins depend on exactly the libwireshark ABI of that release (libwireshark16 for
# Wireshark 4.0 on Debian 12, libwireshark18 for 4.4 on Debian 13): a package never loads
# into another Wireshark. A package built with a J2735 schema holds code generated from
# SAE's schema: it is for the builder's own use.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME v2x-capture)
set(CPACK_PACKAGE_VENDOR "v2x-capture")
set(CPACK_PACKAGE_CONTACT "v2x-capture developers <v2x-capture@localhost>")
if(J2735_EDITION)
  set(v2x_deb_schema "The J2735 plugin and v2xcap's decoder were generated from the SAE J2735
${J2735_EDITION} schema of whoever built this package: under SAE's licence the package
is for that licensee's own use and must not be redistributed.")
else()
  set(v2x_deb_schema "Built without an SAE J2735 schema: J2735 messages are identified by
message id, not decoded field by field.")
endif()
# Each package's description starts with its own summary line (CPack would put one
# CPACK_PACKAGE_DESCRIPTION_SUMMARY before every package's).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "V2X capture toolkit: v2xcap and Wireshark plugins for WSMP/IEEE 1609 and SAE J2735
v2xcap sets up 802.11p OCB interfaces over nl80211,
captures with libpcap, prints per-message statistics, decodes J2735 to JSON and transmits
WSMP. The Wireshark plugins decode IEEE 1609.3 WSMP/WSA and SAE J2735.
${v2x_deb_schema}")
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_V2X-CAPTURE_PACKAGE_ENHANCES "wireshark, tshark")
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
string(REPLACE ";" ", " CPACK_DEBIAN_V2X-CAPTURE_PACKAGE_RECOMMENDS "${v2x_recommends}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)

# One package per component, but v2xcap (installed without a component: "Unspecified")
# and the plugins (wireshark-plugins) together in v2x-capture.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL Unspecified wireshark-plugins libv2x libv2x-dev python3-v2x)
set(CPACK_COMPONENT_UNSPECIFIED_GROUP v2x-capture)
set(CPACK_COMPONENT_WIRESHARK-PLUGINS_GROUP v2x-capture)
set(CPACK_DEBIAN_V2X-CAPTURE_PACKAGE_NAME v2x-capture)
set(CPACK_DEBIAN_LIBV2X_PACKAGE_NAME libv2x0)
set(CPACK_DEBIAN_LIBV2X_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIBV2X_DESCRIPTION "V2X frames for applications: the libv2x shared library
Reads captures (pcap, pcapng, deployment logs, RSU records) and live OCB interfaces, parses
802.11p, C-V2X forwarders, IEEE 1609.3 WSMP and IEEE 1609.2, decodes SAE J2735 to JSON or a
walk, keeps statistics, classifies priority messages, sets up OCB over nl80211 and
transmits WSMP. ${v2x_deb_schema}")
set(CPACK_DEBIAN_LIBV2X_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_LIBV2X-DEV_PACKAGE_NAME libv2x-dev)
set(CPACK_DEBIAN_LIBV2X-DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_LIBV2X-DEV_DESCRIPTION "V2X frames for applications: libv2x development files
Headers (<v2x/v2x.h>), the pkg-config file v2x.pc, the static library, man(3) pages for
every function and example programs (count message types, capture to JSON, print BSMs
live, a 10 Hz BSM beacon).")
set(CPACK_DEBIAN_PYTHON3-V2X_PACKAGE_NAME python3-v2x)
set(CPACK_DEBIAN_PYTHON3-V2X_PACKAGE_SECTION python)
set(CPACK_DEBIAN_PYTHON3-V2X_DESCRIPTION "V2X frames for applications: the Python module v2x
v2x.read gives the lines v2xcap decode writes as dicts, v2x.stats the statistics,
v2x.Capture a live capture, v2x.decode and v2x.walk one J2735 message; over libv2x0.")
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
# What dpkg-shlibdeps cannot see: the -dev package's headers and v2x.pc name the -dev
# packages of Requires.private; python3-v2x's ctypes loads libv2x.so.0 and its extension
# v2x._v2x links it (so the package is of the build's architecture), which dpkg-shlibdeps
# cannot resolve to libv2x0, a package of this same build: named here, and libc comes
# with libv2x0.
set(v2x_lib_dep "libv2x0 (= ${CPACK_DEBIAN_PACKAGE_VERSION})")
set(CPACK_DEBIAN_LIBV2X-DEV_PACKAGE_DEPENDS
    "${v2x_lib_dep}, libpcap-dev, zlib1g-dev, libnl-genl-3-dev")
# The extension is built for one python3 (its ABI tag is in the file name): that version.
find_package(Python3 COMPONENTS Interpreter)
math(EXPR v2x_py_next "${Python3_VERSION_MINOR} + 1")
set(CPACK_DEBIAN_PYTHON3-V2X_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_PYTHON3-V2X_PACKAGE_DEPENDS "${v2x_lib_dep}, python3 (>= \
${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}), python3 (<< \
${Python3_VERSION_MAJOR}.${v2x_py_next})")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
include(CPack)
