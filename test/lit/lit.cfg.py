# -*- Python -*-
import os
import sys

import lit.formats

config.name = "kda"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".mlir"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kda_obj_root, "test", "lit")

# kda tools first, then LLVM's FileCheck, not, count.
config.environment["PATH"] = os.pathsep.join(
    [config.kda_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])]
)
config.substitutions.append(("%kda_src_root", config.kda_src_root))
config.substitutions.append(("%examples", os.path.join(config.kda_src_root, "examples")))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%lit_lib", os.path.join(config.test_source_root, "lib")))
config.excludes.append("lib")
# Inputs folders hold the files tests read (specs, tables), not tests.
config.excludes.append("Inputs")
config.substitutions.append(("%clang", os.path.join(config.llvm_tools_dir, "clang")))
