# nlohmann/json (header-only; Debian's nlohmann-json3-dev). On a machine
# without the package, point KDA_NLOHMANN_INCLUDE at a folder holding
# nlohmann/json.hpp.
find_package(nlohmann_json 3 QUIET)
if(NOT TARGET nlohmann_json::nlohmann_json)
  find_path(KDA_NLOHMANN_INCLUDE nlohmann/json.hpp REQUIRED)
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED GLOBAL)
  set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES ${KDA_NLOHMANN_INCLUDE})
else()
  set_target_properties(nlohmann_json::nlohmann_json PROPERTIES IMPORTED_GLOBAL TRUE)
endif()
# Boost.Context for the emulator's fibers (libboost-context-dev).
find_package(Boost 1.74 QUIET COMPONENTS context)
if(TARGET Boost::context)
  set_target_properties(Boost::context PROPERTIES IMPORTED_GLOBAL TRUE)
endif()
