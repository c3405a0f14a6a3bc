# v2xcap-static: the same program linked fully static (glibc, libpcap, libnl), for the
# qemu end-to-end test's initramfs (tests/e2e) and for boxes without the shared libraries.
# Built when the static archives are there (Debian: libpcap0.8-dev, libnl-genl-3-dev,
# libdbus-1-dev); -DV2X_STATIC=OFF skips it.
option(V2X_STATIC "Also build v2xcap-static (fully static v2xcap)" ON)
if(NOT V2X_STATIC)
  return()
endif()
if(V2X_SANITIZE)
  message(STATUS "Sanitizer build: no v2xcap-static (the sanitizer runtimes cannot be "
                 "linked statically; the e2e test will SKIP)")
  return()
endif()
find_library(V2X_PCAP_A NAMES libpcap.a)
find_library(V2X_DBUS_A NAMES libdbus-1.a)
find_library(V2X_NL_GENL_A NAMES libnl-genl-3.a)
find_library(V2X_NL_A NAMES libnl-3.a)
if(NOT (V2X_PCAP_A AND V2X_DBUS_A AND V2X_NL_GENL_A AND V2X_NL_A))
  message(STATUS "Static libpcap/libdbus/libnl archives not found: no v2xcap-static "
                 "(the e2e test will SKIP)")
  return()
endif()
get_target_property(v2xcap_sources v2xcap SOURCES)
get_target_property(v2xcap_libs v2xcap LINK_LIBRARIES)
list(FILTER v2xcap_libs EXCLUDE REGEX "^PkgConfig::")
add_executable(v2xcap-static ${v2xcap_sources} static_sd_stubs.c)
target_include_directories(v2xcap-static PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
  ${CMAKE_CURRENT_BINARY_DIR} ${NL_INCLUDE_DIRS} ${PCAP_INCLUDE_DIRS})
target_link_libraries(v2xcap-static PRIVATE ${v2xcap_libs} ${V2X_PCAP_A} ${V2X_DBUS_A}
  ${V2X_NL_GENL_A} ${V2X_NL_A} pthread m)
target_link_options(v2xcap-static PRIVATE -static)
