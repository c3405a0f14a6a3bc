# Compiler warnings and sanitizers for every target of the project.
add_compile_options(-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
                    -Wformat=2 -Wvla)
if(V2X_WERROR)
  add_compile_options(-Werror)
endif()
if(V2X_SANITIZE)
  add_compile_options(-fsanitize=${V2X_SANITIZE} -fno-omit-frame-pointer
                      -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${V2X_SANITIZE})
endif()

# Link-time optimisation of libv2x and v2xcap: a frame's path crosses their files many
# times (bench/run-bench, 1M gencap frames: `v2xcap stats` 4% faster, --format json 4.5%;
# callgrind -6% instructions). GCC and optimised builds without sanitizers; fat objects,
# so that the plugins, which link libv2x without it, get its plain code.
option(V2X_LTO "Link-time optimisation of libv2x and v2xcap (GCC)" ON)
set(V2X_IPO OFF)
if(V2X_LTO AND CMAKE_C_COMPILER_ID STREQUAL "GNU" AND NOT V2X_SANITIZE
   AND NOT CMAKE_BUILD_TYPE STREQUAL "Debug")
  include(CheckIPOSupported)
  check_ipo_supported(RESULT V2X_IPO OUTPUT ipo_why LANGUAGES C)
  if(NOT V2X_IPO)
    message(STATUS "Link-time optimisation: not supported here (${ipo_why})")
  endif()
endif()
# Link-time optimisation for target t (see above)
function(v2x_lto t)
  if(V2X_IPO)
    set_target_properties(${t} PROPERTIES INTERPROCEDURAL_OPTIMIZATION ON)
    target_compile_options(${t} PRIVATE -ffat-lto-objects)
    if(V2X_WERROR)
      target_link_options(${t} PRIVATE -Werror)  # the warnings LTO finds at link time
    endif()
  endif()
endfunction()
