// Exceptions: throw, try/catch by type, cleanups with destructors, rethrow,
// noexcept boundaries and std::string/std::map (invoke/landingpad/resume).
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

struct Tracker {
    static int live;
    std::string name;
    explicit Tracker(std::string n) : name(std::move(n)) { ++live; }
    ~Tracker() { --live; }
};
int Tracker::live = 0;

struct domain_error_code : std::runtime_error {
    int code;
    domain_error_code(const char *what, int c) : std::runtime_error(what), code(c) {}
};

double checked_sqrt(double x) {
    if (x < 0) throw domain_error_code("negative argument", 7);
    if (std::isnan(x)) throw std::invalid_argument("nan");
    return std::sqrt(x);
}

double guarded(const std::vector<double> &xs) {
    Tracker t("guarded");
    double s = 0;
    for (double x : xs) {
        try {
            s += checked_sqrt(x);
        } catch (const domain_error_code &e) {
            s -= e.code;
        } catch (const std::exception &e) {
            s += static_cast<double>(std::string(e.what()).size());
        }
    }
    return s;
}

int rethrowing(int depth) {
    Tracker outer("outer");
    try {
        if (depth > 3) throw depth;
        return rethrowing(depth + 1) + 1;
    } catch (int) {
        Tracker inner("inner");
        throw;
    }
}

int catch_all(int depth) {
    try {
        return rethrowing(depth);
    } catch (...) {
        return -Tracker::live;
    }
}

std::map<std::string, double> tally(const std::vector<std::string> &keys) noexcept {
    std::map<std::string, double> m;
    try {
        for (const auto &k : keys) m[k] += 1.0;
        m.at("missing");
    } catch (const std::out_of_range &) {
        m["__missing__"] = -1;
    }
    return m;
}

int main() {
    std::vector<double> xs{4.0, -1.0, NAN, 9.0};
    double s = guarded(xs);
    auto m = tally({"a", "b", "a"});
    std::printf("%g %d %zu\n", s, catch_all(0), m.size());
    return 0;
}
