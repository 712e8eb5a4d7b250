// Object-oriented and generic C++: classes with virtual functions and
// inheritance, templates, lambdas, std::vector, std::function, operators.
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <numeric>
#include <vector>

namespace geometry {

class Shape {
public:
    explicit Shape(double scale) : scale_(scale) {}
    virtual ~Shape() = default;
    virtual double area() const = 0;
    virtual double perimeter() const { return 0.0; }
    double scaled_area() const { return scale_ * area(); }

protected:
    double scale_;
};

class Circle final : public Shape {
public:
    Circle(double scale, double r) : Shape(scale), r_(r) {}
    double area() const override { return M_PI * r_ * r_; }
    double perimeter() const override { return 2 * M_PI * r_; }

private:
    double r_;
};

class Rect : public Shape {
public:
    Rect(double scale, double w, double h) : Shape(scale), w_(w), h_(h) {}
    double area() const override { return w_ * h_; }
    double perimeter() const override { return 2 * (w_ + h_); }

private:
    double w_, h_;
};

struct Square : Rect {
    Square(double scale, double s) : Rect(scale, s, s) {}
};

}  // namespace geometry

template <typename T, int N>
struct SmallVec {
    T data[N];
    T dot(const SmallVec &o) const {
        T s{};
        for (int i = 0; i < N; ++i) s += data[i] * o.data[i];
        return s;
    }
    SmallVec operator+(const SmallVec &o) const {
        SmallVec r;
        for (int i = 0; i < N; ++i) r.data[i] = data[i] + o.data[i];
        return r;
    }
};

template <typename T>
T clamp_sum(const std::vector<T> &v, T lo, T hi) {
    T s = std::accumulate(v.begin(), v.end(), T{});
    return std::min(std::max(s, lo), hi);
}

double total_area(const std::vector<std::unique_ptr<geometry::Shape>> &shapes) {
    double s = 0;
    for (const auto &shape : shapes) s += shape->scaled_area() + shape->perimeter();
    return s;
}

double build_and_measure(int n) {
    std::vector<std::unique_ptr<geometry::Shape>> shapes;
    shapes.reserve(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        if (i % 3 == 0) shapes.push_back(std::make_unique<geometry::Circle>(1.0, i * 0.5));
        else if (i % 3 == 1) shapes.push_back(std::make_unique<geometry::Rect>(2.0, i, i + 1.0));
        else shapes.emplace_back(new geometry::Square(0.5, i));
    }
    return total_area(shapes);
}

double lambdas(std::vector<double> v, double factor) {
    int calls = 0;
    auto scale = [factor, &calls](double x) { ++calls; return x * factor; };
    std::transform(v.begin(), v.end(), v.begin(), scale);
    std::sort(v.begin(), v.end(), [](double a, double b) { return std::fabs(a) < std::fabs(b); });
    std::function<double(double)> f = [&](double x) { return std::sin(x) + calls; };
    double s = 0;
    for (double x : v) s += f(x);
    return s + clamp_sum(v, -10.0, 10.0) + clamp_sum(std::vector<int>{1, 2, 3}, 0, 5);
}

extern "C" double cxx_dot3(const double *a, const double *b) {
    SmallVec<double, 3> x{{a[0], a[1], a[2]}}, y{{b[0], b[1], b[2]}};
    return (x + y).dot(y) + SmallVec<float, 4>{{1, 2, 3, 4}}.dot({{4, 3, 2, 1}});
}

int main() { return static_cast<int>(build_and_measure(10) + lambdas({3, -1, 2}, 1.5)) & 0xff; }
