# Locate LLVM/MLIR 22 (Debian's llvm-22-dev, libmlir-22-dev). find_package(MLIR)
# takes no version: the 22.1.x config rejects a bare "22".
list(APPEND CMAKE_PREFIX_PATH /usr/lib/llvm-22/lib/cmake/mlir /usr/lib/llvm-22/lib/cmake/llvm)
find_package(MLIR REQUIRED CONFIG)
message(STATUS "Using MLIRConfig.cmake in: ${MLIR_DIR}")
message(STATUS "Using LLVMConfig.cmake in: ${LLVM_DIR}")

list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
include(TableGen)
include(AddLLVM)
include(AddMLIR)

# mlir-tblgen and the LLVM tools live in the versioned bin folder.
set(MLIR_TABLEGEN_EXE "${LLVM_TOOLS_BINARY_DIR}/mlir-tblgen" CACHE FILEPATH "" FORCE)
set(KDA_LLVM_TOOLS_DIR "${LLVM_TOOLS_BINARY_DIR}")

include_directories(SYSTEM ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
add_definitions(${LLVM_DEFINITIONS})
if(NOT LLVM_ENABLE_RTTI)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fno-rtti>)
endif()

# Libraries declare the MLIR libraries they really use
# (mlir_target_link_libraries); with MLIR_LINK_MLIR_DYLIB they link Debian's
# libMLIR.so instead of the static archives, which cost minutes per tool on
# two cores. LLVM components likewise resolve to libLLVM.so.
set(MLIR_LINK_MLIR_DYLIB ON)
set(LLVM_LINK_LLVM_DYLIB ON)

# Debian's rocm-device-libs bitcode (ocml, ockl) for AMDGPU code objects.
find_path(KDA_AMDGCN_BITCODE ocml.bc
  PATHS /usr/lib/x86_64-linux-gnu/amdgcn/bitcode /usr/lib/amdgcn/bitcode
        /opt/rocm/amdgcn/bitcode
  NO_DEFAULT_PATH)
