#!/usr/bin/env bash
# The checks that need an NVIDIA GPU, in one short run (after ci/setup.sh), for a machine that has one:
#   bash ci/gpu_check.sh
# 1. the CUDA tests, which on a GPU run the built programs (their gradients against finite differences);
# 2. the GPU benchmark: gradient / primal time of a stencil and a per-thread ODE kernel.
# Without a GPU it says so and stops (the suite already builds and links everything without one).
set -uo pipefail
cd "$(dirname "$0")/.."

if ! command -v nvidia-smi >/dev/null || [ ! -e /dev/nvidia0 ]; then
    echo "gpu_check: no NVIDIA GPU here (nvidia-smi, /dev/nvidia0): nothing to check" >&2
    exit 0
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
python3 -m pytest -q -p no:cacheprovider -rs \
    tests/wrappers/test_cuda_programs.py tests/ad/test_gpu_device_code.py \
    "tests/cmake/test_examples.py::test_cuda_targets_build_ptx_and_a_program"
tests=$?
python3 benchmarks/bench_gpu.py "$@"
bench=$?
[ $tests -eq 0 ] && [ $bench -eq 0 ]
