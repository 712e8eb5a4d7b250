// C++20 coroutines: a generator (llvm.coro.* intrinsics; split into ramp,
// resume and destroy functions by the optimiser, kept whole at -O0).
#include <coroutine>
#include <exception>

struct Generator {
    struct promise_type {
        double value = 0;
        Generator get_return_object() { return Generator{std::coroutine_handle<promise_type>::from_promise(*this)}; }
        std::suspend_always initial_suspend() noexcept { return {}; }
        std::suspend_always final_suspend() noexcept { return {}; }
        std::suspend_always yield_value(double v) noexcept {
            value = v;
            return {};
        }
        void return_void() noexcept {}
        void unhandled_exception() { std::terminate(); }
    };
    std::coroutine_handle<promise_type> handle;
    explicit Generator(std::coroutine_handle<promise_type> h) : handle(h) {}
    Generator(Generator &&other) noexcept : handle(other.handle) { other.handle = {}; }
    ~Generator() {
        if (handle) handle.destroy();
    }
    bool next() {
        handle.resume();
        return !handle.done();
    }
    double current() const { return handle.promise().value; }
};

Generator geometric(double start, double ratio, int count) {
    for (int i = 0; i < count; ++i) {
        co_yield start;
        start *= ratio;
    }
}

double sum_series(double start, double ratio, int count) {
    double total = 0;
    Generator g = geometric(start, ratio, count);
    while (g.next()) total += g.current();
    return total;
}
