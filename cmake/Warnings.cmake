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
