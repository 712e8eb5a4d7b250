#!/usr/bin/env bash
# The checks that need an NVIDIA GPU, in one short run, for a machine that has one:
#   bash ci/gpu_check.sh               after ci/setup.sh: the CUDA tests (programs run), then the GPU benchmark
#   bash ci/gpu_check.sh --bundle DIR  build every GPU program into DIR here (no GPU needed): the CUDA examples
#                                      and tests/corpus/gpu at -O0..-O3, an sm_80 object linked separately (run
#                                      through its PTX), the CMake example, the benchmark, PTX for CuPy, libcudart
#   bash ci/gpu_check.sh --run DIR     run a bundle on a GPU machine that has only the CUDA driver (and CuPy for
#                                      the Python check): each program checks its gradients against finite
#                                      differences or analytic derivatives; exit 0 only if every check agrees
# Without a GPU the first and last forms say so and stop (the suite already builds and links everything).
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

no_gpu() {
    if ! command -v nvidia-smi >/dev/null || [ ! -e /dev/nvidia0 ]; then
        echo "gpu_check: no NVIDIA GPU here (nvidia-smi, /dev/nvidia0): nothing to check" >&2
        return 0
    fi
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    return 1
}

bundle() {
    local out cxx cuda
    out=$(mkdir -p "$1" && cd "$1" && pwd) || exit 1
    cxx=(python3 -c "import sys; from enzyme.cli import cxx_main; sys.exit(cxx_main())")
    cuda=${ENZYME_CUDA_PATH:-/usr/local/cuda-13.0}
    set -e
    for level in 0 1 2 3; do
        for source in examples/cuda/gradient_program.cu examples/cuda/device_features.cu tests/corpus/gpu/*.cu; do
            program=$(basename "$source" .cu)
            "${cxx[@]}" -O$level "$source" -o "$out/${program}_O$level"
        done
    done
    "${cxx[@]}" -O2 -c examples/cuda/gradient_program.cu -o "$out/gp_sm80.o" --cuda-gpu-arch=sm_80
    "${cxx[@]}" "$out/gp_sm80.o" -o "$out/gradient_program_sm80_linked"
    rm "$out/gp_sm80.o"
    "${cxx[@]}" -O2 -std=c++17 benchmarks/c/gpu_kernels.cu -o "$out/gpu_kernels"
    cmake -S examples/cuda -B "$out/cmake-build" -G Ninja -DEnzyme_DIR="$(python3 -m enzyme --cmake-dir)" >/dev/null
    cmake --build "$out/cmake-build" >/dev/null
    cp "$out/cmake-build/gradient_program" "$out/gradient_program_cmake"
    cp "$(find "$out/cmake-build" -name energy_gradient_ptx.ptx)" "$out/energy_gradient.ptx"
    rm -rf "$out/cmake-build"
    cp examples/cuda/run_with_cupy.py "$out/"
    mkdir -p "$out/lib" && cp "$cuda"/lib64/libcudart.so.* "$out/lib/"
    set +e
    ls -la "$out"
}

run_bundle() {
    local dir=$1 failed=0 program
    shift
    no_gpu && return 0
    export LD_LIBRARY_PATH="$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    for program in "$dir"/*_O[0-3] "$dir"/gradient_program_cmake "$dir"/gradient_program_sm80_linked; do
        echo "== ${program##*/}"
        "$program" || { echo "FAILED: ${program##*/} (exit $?)"; failed=1; }
    done
    echo "== device_features_O2 overflow"
    "$dir/device_features_O2" overflow || { echo "FAILED: overflow (exit $?)"; failed=1; }
    if command -v compute-sanitizer >/dev/null; then  # races through shared memory in the reverse sweeps
        for tool in racecheck memcheck; do
            echo "== compute-sanitizer --tool $tool device_features_O2 quick"
            timeout 300 compute-sanitizer --tool $tool --error-exitcode 3 "$dir/device_features_O2" quick \
                || { echo "FAILED: $tool (exit $?)"; failed=1; }
        done
    fi
    echo "== run_with_cupy.py"
    python3 "$dir/run_with_cupy.py" "$dir/energy_gradient.ptx" || { echo "FAILED: CuPy"; failed=1; }
    echo "== gpu_kernels (kernel, primal µs, gradient µs, ratio, max rel err)"
    "$dir/gpu_kernels" "$@" || { echo "FAILED: gpu_kernels (exit $?)"; failed=1; }
    return $failed
}

case "${1:-}" in
    --bundle) bundle "${2:?--bundle DIR}" ;;
    --run) dir=$(cd "${2:?--run DIR}" && pwd) && shift 2 && run_bundle "$dir" "$@" ;;
    *)
        no_gpu && exit 0
        python3 -m pytest -q -p no:cacheprovider -rs \
            tests/wrappers/test_cuda_programs.py tests/ad/test_gpu_device_code.py \
            "tests/cmake/test_examples.py::test_cuda_targets_build_ptx_and_a_program"
        tests=$?
        python3 benchmarks/bench_gpu.py "$@"
        bench=$?
        [ $tests -eq 0 ] && [ $bench -eq 0 ]
        ;;
esac
