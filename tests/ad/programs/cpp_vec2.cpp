#include "check.h"
// Operator overloading on a small Vec2 value type: +, -, * (scalar and dot), +=, unary -, free and member operators.
// The operators returning Vec2 are always_inline: at -O0 a non-inlined function returning a {double, double}
// struct loses its reverse-mode derivative today (see the AD bug list); dot products and norms stay calls.
#define INLINE __attribute__((always_inline))
struct Vec2 {
  double x, y;
  INLINE Vec2 operator+(const Vec2 &o) const { return {x + o.x, y + o.y}; }
  INLINE Vec2 operator-(const Vec2 &o) const { return {x - o.x, y - o.y}; }
  INLINE Vec2 operator-() const { return {-x, -y}; }
  Vec2 &operator+=(const Vec2 &o) { x += o.x; y += o.y; return *this; }
  double operator*(const Vec2 &o) const { return x * o.x + y * o.y; }
};
INLINE inline Vec2 operator*(double s, const Vec2 &v) { return {s * v.x, s * v.y}; }
inline double norm(const Vec2 &v) { return sqrt(v * v); }

// Work done moving along a polyline through a field F(p) = (-p.y, p.x) * |p|.
double work(const Vec2 *pts, int n) {
  double w = 0;
  Vec2 acc{0, 0};
  for (int i = 0; i + 1 < n; i++) {
    Vec2 mid = 0.5 * (pts[i] + pts[i + 1]);
    Vec2 field = norm(mid) * Vec2{-mid.y, mid.x};
    Vec2 seg = pts[i + 1] - pts[i];
    w += field * seg;
    acc += -seg;
  }
  return w + 0.1 * (acc * acc);
}

int main() {
  enum { N = 4 };
  Vec2 p[N] = {{1.0, 0.0}, {0.7, 0.7}, {0.0, 1.2}, {-0.5, 0.8}}, dp[N] = {};
  __enzyme_autodiff((void *)work, enzyme_dup, p, dp, enzyme_const, N);
  double flat[2 * N], g[2 * N];
  for (int i = 0; i < N; i++) {
    check("d/dx central", dp[i].x, CENTRAL(work(p, N), p[i].x, p[i].x), 1e-6);
    check("d/dy central", dp[i].y, CENTRAL(work(p, N), p[i].y, p[i].y), 1e-6);
    g[2 * i] = dp[i].x; g[2 * i + 1] = dp[i].y;
  }
  Vec2 pd[N] = {{1, 0}, {0, 1}, {0.5, 0.5}, {-1, 2}};
  for (int i = 0; i < N; i++) { flat[2 * i] = pd[i].x; flat[2 * i + 1] = pd[i].y; }
  check("forward", __enzyme_fwddiff((void *)work, enzyme_dup, p, pd, enzyme_const, N), dot(g, flat, 2 * N), 1e-12);
  return finish();
}
