/* Differentiable bodies of flang-22 runtime entry points (libflang_rt has no bitcode).
 *
 * pyenzyme links these into a module that calls the runtime and differentiates a call of
 * _FortranAX as a call of __pyenzyme_body__FortranAX; the primal program keeps calling the
 * runtime itself.  Each body does exactly what the runtime does for the cases it handles
 * (element-wise loops over flang's descriptors, so the engine sees every float load and store)
 * and stops the derivative with a message naming the call and its source line otherwise.
 *
 * Descriptor layout (flang's CFI_cdesc_t): base address, element length, version, rank, type
 * code, attribute, extra byte, then per dimension (lower bound, extent, byte stride).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <float.h>
#include <math.h>

typedef struct { long lower, extent, sm; } Dim;
typedef struct {
  char *base;
  unsigned long elem_len;
  int version;
  unsigned char rank;
  signed char type;
  unsigned char attribute;
  unsigned char extra;
  Dim dim[15];
} Desc;

enum { T_FLOAT = 27, T_DOUBLE = 28, T_FLOAT_COMPLEX = 34, T_DOUBLE_COMPLEX = 35, T_CHAR = 40, T_STRUCT = 42,
       T_CHAR16 = 43, T_CHAR32 = 44,
       T_FIRST_FLOAT = 25, T_LAST_COMPLEX = 38, ATTR_ALLOCATABLE = 2 };

/* Which call and which case, as numbers: the bodies pass no string pointers around (they would merge with the
 * descriptors' pointers in the engine's eyes). */
enum Call { C_ASSIGN, C_SUM, C_PRODUCT, C_MAXVAL, C_MINVAL, C_DOT_PRODUCT, C_MATMUL, C_TRANSPOSE, C_RESHAPE,
            C_INITIALIZE, C_DESTROY, C_ARRAY_CONSTRUCTOR, C_NORM2, C_SPREAD, C_ALLOCATE, C_SUM_DIM, C_CSHIFT,
            C_MAXVAL_DIM, C_MINVAL_DIM, C_PACK, C_EOSHIFT, C_UNPACK };
static const char *const CALLS[] = {
  "_FortranAAssign (array assignment)",
  "_FortranASum (SUM)",
  "_FortranAProduct (PRODUCT)",
  "_FortranAMaxval (MAXVAL)",
  "_FortranAMinval (MINVAL)",
  "_FortranADotProduct (DOT_PRODUCT)",
  "_FortranAMatmul (MATMUL)",
  "_FortranATranspose (TRANSPOSE)",
  "_FortranAReshape (RESHAPE)",
  "_FortranAInitialize (default initialization)",
  "_FortranADestroy (deallocation of allocatable components)",
  "_FortranAPushArrayConstructorValue (array constructor)",
  "_FortranANorm2 (NORM2)",
  "_FortranASpread (SPREAD)",
  "_FortranAAllocatableAllocate (ALLOCATE)",
  "_FortranASumDim (SUM with DIM=)",
  "_FortranACshift (CSHIFT)",
  "_FortranAMaxvalDim (MAXVAL with DIM=)",
  "_FortranAMinvalDim (MINVAL with DIM=)",
  "_FortranAPack (PACK)",
  "_FortranAEoshift (EOSHIFT)",
  "_FortranAUnpack (UNPACK)",
};
enum Reason { R_NONE, R_DERIVED, R_REAL_KIND, R_RANK, R_CONVERSION, R_RANKS_DIFFER, R_LEFT_SIDE, R_NOT_REAL, R_DIM, R_MATMUL_SHAPES, R_ALLOCATED_RESULT, R_PAD_ORDER, R_SHAPE, R_SOURCE_TOO_SMALL,
              R_COMPONENT_INIT, R_COMPONENT_DESTROY, R_CONSTRUCTOR, R_ALLOCATED, R_MASK, R_PACK_VECTOR, R_BOUNDARY };
static const char *const REASONS[] = {
  "",
  "derived types with allocatable or pointer components",
  "real and complex kinds other than 4 and 8",
  "rank over 15",
  "assignment with a type conversion or of deferred-length characters",
  "operands of different ranks",
  "an unallocated or nonconforming left side",
  "an argument of another type or kind than the entry point's",
  "DIM=",
  "this combination of operand ranks or an allocated result",
  "an allocated result",
  "PAD= or ORDER=",
  "an allocated result or this SHAPE=",
  "a SOURCE= smaller than SHAPE= without PAD=",
  "default initialization of pointer, automatic or derived-type components (or allocatable ones of such types)",
  "FINAL subroutines, or derived-type or automatic components that need deallocation",
  "a result that is not a vector, or values of another length or type",
  "an array that is already allocated",
  "MASK=",
  "a VECTOR= with fewer elements than MASK= selects",
  "a character or derived-type array without BOUNDARY=",
};

/* Inactive (rules/inactive.py): the derivative stops here, before any wrong number is computed. */
__attribute__((weak, noreturn, noinline, cold)) void __pyenzyme_fortran_unsupported(int call, int reason, const char *file,
                                                                             int line) {
  fprintf(stderr, "pyenzyme: the derivative of %s at %s:%d does not support %s\n", CALLS[call],
          file ? file : "<unknown>", line, REASONS[reason]);
  fflush(stderr);
  abort();
}

/* Dimension k of a descriptor.  Dimension 0 is read at its constant offset, so that type analysis sees integers
 * there in the callers' descriptors, which they copy around.  The others may not exist: a rank-1 descriptor inside
 * a derived type is followed by other components (the next one's base address, a double), which type analysis
 * would merge with the integers of a second dimension read at a constant offset.  They are reached through a
 * helper whose accesses type analysis keeps to itself (TYPELESS_HELPERS). */
__attribute__((weak, noinline)) Dim *__pyenzyme_fortran_dim(const Desc *d, int k) {
  return (Dim *)&d->dim[k];
}

static Dim *dim_of(const Desc *d, int k) {
  return k == 0 ? (Dim *)&d->dim[0] : __pyenzyme_fortran_dim(d, k);
}

static long element_count(const Desc *d) {
  long n = 1;
  for (int k = 0; k < d->rank; k++)
    n *= dim_of(d, k)->extent > 0 ? dim_of(d, k)->extent : 0;
  return n;
}

/* Byte offset of the i-th element in array element order (column major). */
static long element_offset(const Desc *d, long i) {
  long offset = 0;
  for (int k = 0; k < d->rank; k++) {
    const Dim *dk = dim_of(d, k);
    offset += (i % dk->extent) * dk->sm;
    i /= dk->extent;
  }
  return offset;
}

typedef struct DerivedType DerivedType;
static const DerivedType *derived_type_of(const Desc *d);
void __pyenzyme_fortran_copy_derived(char *to, const char *from, const DerivedType *t);

/* Element types copied element by element: REAL(8), COMPLEX(8), REAL(4) and COMPLEX(4) as doubles and floats (the
 * engine differentiates loads and stores by their IR type); integers, logicals and characters as bytes (no
 * derivative); derived types component by component (__pyenzyme_fortran_copy_derived, which stops at allocatable
 * and pointer components).  Others are refused: the other real kinds (2, 3, 10, 16). */
static int uncopyable(const Desc *d) {
  if (d->type == T_STRUCT && !derived_type_of(d))
    return R_DERIVED;
  if (d->type >= T_FIRST_FLOAT && d->type <= T_LAST_COMPLEX && d->type != T_DOUBLE && d->type != T_DOUBLE_COMPLEX &&
      d->type != T_FLOAT && d->type != T_FLOAT_COMPLEX)
    return R_REAL_KIND;
  if (d->rank > 15)
    return R_RANK;
  return R_NONE;
}

/* Inactive (rules/inactive.py): integer, logical and character elements carry no derivative. */
__attribute__((weak, noinline)) void __pyenzyme_fortran_copy_inactive(char *to, const char *from, unsigned long len) {
  memcpy(to, from, len);
}

/* REAL(4) and COMPLEX(4) elements.  A body that moved floats and doubles through the same pointers would leave
 * type analysis unable to tell which bytes of its callers' arrays are which: the floats move in this helper, whose
 * types type analysis keeps to itself (TYPELESS_HELPERS). */
__attribute__((weak, noinline)) void __pyenzyme_fortran_copy_floats(char *to, const char *from, int n) {
  for (int k = 0; k < n; k++)
    ((float *)to)[k] = ((const float *)from)[k];
}

/* One element of the array `d` describes (its type, length and derived type are those of both sides). */
static void copy_element(const Desc *d, char *to, const char *from) {
  switch (d->type) {
  case T_DOUBLE: *(double *)to = *(const double *)from; break;
  case T_DOUBLE_COMPLEX: ((double *)to)[0] = ((const double *)from)[0]; ((double *)to)[1] = ((const double *)from)[1]; break;
  case T_FLOAT: __pyenzyme_fortran_copy_floats(to, from, 1); break;
  case T_FLOAT_COMPLEX: __pyenzyme_fortran_copy_floats(to, from, 2); break;
  case T_STRUCT: __pyenzyme_fortran_copy_derived(to, from, derived_type_of(d)); break;
  default: __pyenzyme_fortran_copy_inactive(to, from, d->elem_len);
  }
}

/* [first, last) bytes an array covers. */
static void byte_range(const Desc *d, char **first, char **last) {
  char *lo = d->base, *hi = d->base;
  for (int k = 0; k < d->rank; k++) {
    long span = (dim_of(d, k)->extent - 1) * dim_of(d, k)->sm;
    if (span < 0) lo += span; else hi += span;
  }
  *first = lo;
  *last = hi + d->elem_len;
}

/* Lower bounds are only ever copied, never computed with, so type analysis cannot tell them from the bits of a
 * double: they move through the inactive byte copy. */
static void copy_bound(long *to, const long *from) {
  __pyenzyme_fortran_copy_inactive((char *)to, (const char *)from, sizeof *to);
}

/* The result's type code is the source's: a byte only ever copied, moved by the inactive copy (see copy_bound). */
static void copy_type_code(Desc *to, const Desc *from) {
  __pyenzyme_fortran_copy_inactive((char *)&to->type, (const char *)&from->type, sizeof to->type);
}

static long set_dim(Desc *to, int k, const long *lower, const long *extent, long stride) {
  Dim *dk = dim_of(to, k);
  if (lower)
    copy_bound(&dk->lower, &lower[k]);
  else
    dk->lower = 1;
  dk->extent = extent[k] > 0 ? extent[k] : 0;
  dk->sm = stride;
  return stride * dk->extent;
}

/* Give descriptor `to` (rank and type already set) a fresh contiguous block; `extent` and `lower` per dimension.
 * No descriptor is copied as a whole (its bytes mix pointers and integers), and the first two dimensions are
 * written at constant offsets, so that type analysis sees integers in the caller's descriptors there. */
static void allocate(Desc *to, const long *lower, const long *extent, unsigned long elem_len) {
  long stride = (long)elem_len;
  if (to->rank > 0)
    stride = set_dim(to, 0, lower, extent, stride);
  if (to->rank > 1)
    stride = set_dim(to, 1, lower, extent, stride);
  for (int k = 2; k < to->rank; k++)
    stride = set_dim(to, k, lower, extent, stride);
  to->elem_len = elem_len;
  to->base = malloc(stride > 0 ? (unsigned long)stride : 1);
}

static void allocate_like(Desc *to, const Desc *shape_of) {
  long lower[15], extent[15];
  for (int k = 0; k < to->rank; k++) {
    copy_bound(&lower[k], &dim_of(shape_of, k)->lower);
    extent[k] = dim_of(shape_of, k)->extent;
  }
  allocate(to, lower, extent, shape_of->elem_len);
}

__attribute__((weak)) void __pyenzyme_body__FortranAAssign(Desc *to, const Desc *from, const char *file, int line) {
  int call = C_ASSIGN;
  int why = uncopyable(from);
  if (why)
    __pyenzyme_fortran_unsupported(call, why, file, line);
  if (to->type != from->type || to->elem_len != from->elem_len)
    __pyenzyme_fortran_unsupported(call, R_CONVERSION,file, line);
  if (from->rank != to->rank && from->rank != 0)
    __pyenzyme_fortran_unsupported(call, R_RANKS_DIFFER, file, line);
  int conforms = to->base != 0;
  for (int k = 0; conforms && k < from->rank; k++)
    conforms = dim_of(to, k)->extent == dim_of(from, k)->extent;
  if (!conforms) {
    if (to->attribute != ATTR_ALLOCATABLE)
      __pyenzyme_fortran_unsupported(call, R_LEFT_SIDE, file, line);
    if (to->base)  /* reallocation of the left side (F2003 semantics) */
      free(to->base);
    allocate_like(to, from);
  }
  long n = element_count(to);
  char *to_first, *to_last, *from_first, *from_last;
  byte_range(to, &to_first, &to_last);
  byte_range(from, &from_first, &from_last);
  char *scratch = 0;  /* overlapping operands: copy through a contiguous temporary */
  if (n > 0 && from->rank > 0 && to_first < from_last && from_first < to_last) {
    scratch = malloc((unsigned long)n * from->elem_len);
    for (long i = 0; i < n; i++)
      copy_element(from, scratch + i * (long)from->elem_len, from->base + element_offset(from, i));
  }
  for (long i = 0; i < n; i++) {
    const char *source = scratch ? scratch + i * (long)from->elem_len
                                 : from->base + (from->rank ? element_offset(from, i) : 0);
    copy_element(from, to->base + element_offset(to, i), source);
  }
  free(scratch);
}

/* Assignment to a compiler temporary (array constructor values, the copy of an actual argument): the same copy. */
__attribute__((weak)) void __pyenzyme_body__FortranAAssignTemporary(Desc *to, const Desc *from, const char *file,
                                                                   int line) {
  __pyenzyme_body__FortranAAssign(to, from, file, line);
}

static int mask_at(const Desc *mask, long i) {
  if (!mask)
    return 1;
  const char *p = mask->base + (mask->rank ? element_offset(mask, i) : 0);
  switch (mask->elem_len) {
  case 1: return *(const signed char *)p != 0;
  case 2: return *(const short *)p != 0;
  case 4: return *(const int *)p != 0;
  default: return *(const long *)p != 0;
  }
}

static void check_real(const Desc *x, signed char type, unsigned long len, int call, const char *file, int line) {
  if (x->type != type || x->elem_len != len || x->rank > 15)
    __pyenzyme_fortran_unsupported(call, R_NOT_REAL, file, line);
}

/* The result descriptor arrives unallocated with its rank and type set; the runtime allocates it. */
static void allocate_result(Desc *r, long rows, long cols, unsigned long elem_len) {
  long extent[2] = {rows, cols};
  allocate(r, 0, extent, elem_len);
}

/* SUM, PRODUCT, MAXVAL, MINVAL, DOT_PRODUCT and MATMUL of one real kind: K is the runtime's suffix (Real8),
 * T the C type, CODE the descriptor's type code, HUGE the kind's HUGE().  MAXVAL/MINVAL return the first extreme
 * element in array element order, -HUGE/HUGE when none is selected (as the runtime; NaN elements are never
 * chosen).  MATMUL: (m,k)x(k,n) -> (m,n); (k)x(k,n) -> (n); (m,k)x(k) -> (m), one loop nest per case, each reading
 * the descriptors' fields at constant offsets (a field chosen at run time would be a variable offset into the
 * descriptor, which type analysis cannot tell from the base address). */
#define REAL_KIND_BODIES(K, T, CODE, HUGE)                                                                       \
  __attribute__((weak)) T __pyenzyme_body__FortranASum##K(const Desc *x, const char *file, int line, int dim,      \
                                                          const Desc *mask) {                                     \
    check_real(x, CODE, sizeof(T), C_SUM, file, line);                                                           \
    if (dim != 0)                                                                                                \
      __pyenzyme_fortran_unsupported(C_SUM, R_DIM, file, line);                                                  \
    T s = 0;                                                                                                     \
    long n = element_count(x);                                                                                   \
    for (long i = 0; i < n; i++)                                                                                 \
      if (mask_at(mask, i))                                                                                      \
        s += *(const T *)(x->base + element_offset(x, i));                                                       \
    return s;                                                                                                    \
  }                                                                                                              \
  __attribute__((weak)) T __pyenzyme_body__FortranAProduct##K(const Desc *x, const char *file, int line, int dim,  \
                                                              const Desc *mask) {                                 \
    check_real(x, CODE, sizeof(T), C_PRODUCT, file, line);                                                       \
    if (dim != 0)                                                                                                \
      __pyenzyme_fortran_unsupported(C_PRODUCT, R_DIM, file, line);                                              \
    T p = 1;                                                                                                     \
    long n = element_count(x);                                                                                   \
    for (long i = 0; i < n; i++)                                                                                 \
      if (mask_at(mask, i))                                                                                      \
        p *= *(const T *)(x->base + element_offset(x, i));                                                       \
    return p;                                                                                                    \
  }                                                                                                              \
  static T extreme_##K(const Desc *x, int call, const char *file, int line, int dim, const Desc *mask,            \
                       int want_max) {                                                                           \
    check_real(x, CODE, sizeof(T), call, file, line);                                                            \
    if (dim != 0)                                                                                                \
      __pyenzyme_fortran_unsupported(call, R_DIM, file, line);                                                   \
    T best = want_max ? -HUGE : HUGE;                                                                            \
    long n = element_count(x);                                                                                   \
    for (long i = 0; i < n; i++) {                                                                               \
      if (!mask_at(mask, i))                                                                                     \
        continue;                                                                                                \
      T v = *(const T *)(x->base + element_offset(x, i));                                                        \
      if (want_max ? v > best : v < best)                                                                        \
        best = v;                                                                                                \
    }                                                                                                            \
    return best;                                                                                                 \
  }                                                                                                              \
  __attribute__((weak)) T __pyenzyme_body__FortranAMaxval##K(const Desc *x, const char *file, int line, int dim,   \
                                                             const Desc *mask) {                                  \
    return extreme_##K(x, C_MAXVAL, file, line, dim, mask, 1);                                                   \
  }                                                                                                              \
  __attribute__((weak)) T __pyenzyme_body__FortranAMinval##K(const Desc *x, const char *file, int line, int dim,   \
                                                             const Desc *mask) {                                  \
    return extreme_##K(x, C_MINVAL, file, line, dim, mask, 0);                                                   \
  }                                                                                                              \
  __attribute__((weak)) T __pyenzyme_body__FortranADotProduct##K(const Desc *x, const Desc *y, const char *file,  \
                                                                 int line) {                                      \
    check_real(x, CODE, sizeof(T), C_DOT_PRODUCT, file, line);                                                   \
    check_real(y, CODE, sizeof(T), C_DOT_PRODUCT, file, line);                                                   \
    T s = 0;                                                                                                     \
    long n = element_count(x);                                                                                   \
    for (long i = 0; i < n; i++)                                                                                 \
      s += *(const T *)(x->base + x->dim[0].sm * i) * *(const T *)(y->base + y->dim[0].sm * i);                  \
    return s;                                                                                                    \
  }                                                                                                              \
  static T at2_##K(const char *base, long sm0, long sm1, long i, long j) {                                      \
    return *(const T *)(base + i * sm0 + j * sm1);                                                               \
  }                                                                                                              \
  __attribute__((weak)) void __pyenzyme_body__FortranAMatmul##K##K(Desc *r, const Desc *a, const Desc *b,         \
                                                                   const char *file, int line) {                  \
    check_real(a, CODE, sizeof(T), C_MATMUL, file, line);                                                        \
    check_real(b, CODE, sizeof(T), C_MATMUL, file, line);                                                        \
    if (r->base || r->attribute != ATTR_ALLOCATABLE || r->rank != a->rank + b->rank - 2 || a->rank + b->rank < 3) \
      __pyenzyme_fortran_unsupported(C_MATMUL, R_MATMUL_SHAPES, file, line);                                     \
    long a0 = a->dim[0].sm, b0 = b->dim[0].sm;                                                                   \
    if (a->rank == 2 && b->rank == 2) {                                                                          \
      long m = a->dim[0].extent, k = dim_of(a, 1)->extent, n = dim_of(b, 1)->extent;                             \
      long a1 = dim_of(a, 1)->sm, b1 = dim_of(b, 1)->sm;                                                         \
      allocate_result(r, m, n, sizeof(T));                                                                       \
      long r0 = r->dim[0].sm, r1 = dim_of(r, 1)->sm;                                                             \
      for (long j = 0; j < n; j++)                                                                               \
        for (long i = 0; i < m; i++) {                                                                           \
          T s = 0;                                                                                               \
          for (long l = 0; l < k; l++)                                                                           \
            s += at2_##K(a->base, a0, a1, i, l) * at2_##K(b->base, b0, b1, l, j);                                \
          *(T *)(r->base + i * r0 + j * r1) = s;                                                                 \
        }                                                                                                        \
    } else if (a->rank == 1) {                                                                                   \
      long k = a->dim[0].extent, n = dim_of(b, 1)->extent, b1 = dim_of(b, 1)->sm;                                \
      allocate_result(r, n, 1, sizeof(T));                                                                       \
      for (long j = 0; j < n; j++) {                                                                             \
        T s = 0;                                                                                                 \
        for (long l = 0; l < k; l++)                                                                             \
          s += *(const T *)(a->base + l * a0) * at2_##K(b->base, b0, b1, l, j);                                  \
        *(T *)(r->base + j * r->dim[0].sm) = s;                                                                  \
      }                                                                                                          \
    } else {                                                                                                     \
      long m = a->dim[0].extent, k = dim_of(a, 1)->extent, a1 = dim_of(a, 1)->sm;                                \
      allocate_result(r, m, 1, sizeof(T));                                                                       \
      for (long i = 0; i < m; i++) {                                                                             \
        T s = 0;                                                                                                 \
        for (long l = 0; l < k; l++)                                                                             \
          s += at2_##K(a->base, a0, a1, i, l) * *(const T *)(b->base + l * b0);                                  \
        *(T *)(r->base + i * r->dim[0].sm) = s;                                                                  \
      }                                                                                                          \
    }                                                                                                            \
  }

REAL_KIND_BODIES(Real8, double, T_DOUBLE, DBL_MAX)
REAL_KIND_BODIES(Real4, float, T_FLOAT, FLT_MAX)

/* NORM2 without DIM=: the square root of the sum of squares (the runtime scales to avoid overflow; the values
 * agree to rounding where neither overflows). */
#define NORM2_BODY(K, T, CODE, SQRT)                                                                              \
  __attribute__((weak)) T __pyenzyme_body__FortranANorm2_##K(const Desc *x, const char *file, int line, int dim) { \
    check_real(x, CODE, sizeof(T), C_NORM2, file, line);                                                         \
    if (dim != 0)                                                                                                \
      __pyenzyme_fortran_unsupported(C_NORM2, R_DIM, file, line);                                                \
    T s = 0;                                                                                                     \
    long n = element_count(x);                                                                                   \
    for (long i = 0; i < n; i++) {                                                                               \
      T v = *(const T *)(x->base + element_offset(x, i));                                                        \
      s += v * v;                                                                                                \
    }                                                                                                            \
    return SQRT(s);                                                                                              \
  }
NORM2_BODY(8, double, T_DOUBLE, sqrt)
NORM2_BODY(4, float, T_FLOAT, sqrtf)

__attribute__((weak)) void __pyenzyme_body__FortranATranspose(Desc *r, const Desc *x, const char *file, int line) {
  int call = C_TRANSPOSE;
  int why = uncopyable(x);
  if (why)
    __pyenzyme_fortran_unsupported(call, why, file, line);
  if (r->base || x->rank != 2 || r->rank != 2)
    __pyenzyme_fortran_unsupported(call, R_ALLOCATED_RESULT, file, line);
  long rows = x->dim[0].extent, cols = dim_of(x, 1)->extent, x0 = x->dim[0].sm, x1 = dim_of(x, 1)->sm;
  allocate_result(r, cols, rows, x->elem_len);
  copy_type_code(r, x);
  long r0 = r->dim[0].sm, r1 = dim_of(r, 1)->sm;
  for (long j = 0; j < cols; j++)
    for (long i = 0; i < rows; i++)
      copy_element(x, r->base + j * r0 + i * r1, x->base + i * x0 + j * x1);
}

__attribute__((weak)) void __pyenzyme_body__FortranAReshape(Desc *r, const Desc *x, const Desc *shape, const Desc *pad,
                                                           const Desc *order, const char *file, int line) {
  int call = C_RESHAPE;
  int why = uncopyable(x);
  if (why)
    __pyenzyme_fortran_unsupported(call, why, file, line);
  if (pad || order)
    __pyenzyme_fortran_unsupported(call, R_PAD_ORDER, file, line);
  if (r->base || shape->rank != 1 || shape->dim[0].extent != r->rank || (shape->elem_len != 4 && shape->elem_len != 8))
    __pyenzyme_fortran_unsupported(call, R_SHAPE, file, line);
  long extent[15];
  for (int k = 0; k < r->rank; k++) {
    const char *p = shape->base + k * shape->dim[0].sm;
    extent[k] = shape->elem_len == 4 ? *(const int *)p : *(const long *)p;
  }
  allocate(r, 0, extent, x->elem_len);
  copy_type_code(r, x);
  long n = element_count(r);
  if (n > element_count(x))
    __pyenzyme_fortran_unsupported(call, R_SOURCE_TOO_SMALL, file, line);
  for (long i = 0; i < n; i++)
    copy_element(x, r->base + element_offset(r, i), x->base + element_offset(x, i));
}

/* flang-22's derived-type descriptions (module __fortran_type_info, flang-rt's type-info.h), as far as the bodies
 * below read them: a descriptor of a derived type has an addendum after its dimensions whose first word points to
 * the type's DerivedType; its component_ descriptor lists the Components. */
typedef struct { char *base; unsigned long elem_len; int version; unsigned char rank, type, attribute, extra; } Desc0;
typedef struct {
  Desc0 name;
  unsigned char genre, category, kind, rank;
  char pad[4];
  long offset;
  struct { unsigned char genre; char pad[7]; long value; } character_len;
  struct { Desc0 d; const struct DerivedType *type; long len[1]; } derived;
  char len_value[64], bounds[88];
  const char *initialization;
} Component;
struct DerivedType {
  char binding[64];
  Desc0 name;
  long size_in_bytes;
  char uninstantiated[40], kind_parameter[48], len_parameter_kind[48];
  struct { const Component *base; unsigned long elem_len; int version; unsigned char rank, type, attribute, extra;
           Dim dim[1]; const void *addendum; long len[1]; } component;
  char proc_ptr[64], special[64];
  unsigned special_bit_set;
  unsigned char has_parent, no_initialization_needed, no_destruction_needed, no_finalization_needed;
};
_Static_assert(sizeof(Component) == 256, "flang-22 typeInfo::Component");
_Static_assert(__builtin_offsetof(DerivedType, no_initialization_needed) == 429, "flang-22 typeInfo::DerivedType");

enum { GENRE_DATA = 1, GENRE_POINTER = 2, GENRE_ALLOCATABLE = 3, CATEGORY_INTEGER = 0, CATEGORY_REAL = 2,
       CATEGORY_COMPLEX = 3,
       CATEGORY_CHARACTER = 4, CATEGORY_DERIVED = 6, HAS_ADDENDUM = 1, VALUE_EXPLICIT = 2 };

/* The DerivedType of a descriptor's elements, or null (intrinsic type).  The addendum follows the last dimension,
 * at an offset that depends on the rank.  Inactive (rules/inactive.py: it returns constant type information) and
 * typeless (rules/runtime_bodies.TYPELESS_HELPERS: a pointer loaded at a variable offset would tell type analysis
 * that any word of every descriptor may be an address). */
__attribute__((weak, noinline)) const void *__pyenzyme_fortran_derived_type(const Desc *d) {
  return d->type == T_STRUCT && (d->extra & HAS_ADDENDUM) ? *(const void *const *)&d->dim[d->rank] : 0;
}

static const DerivedType *derived_type_of(const Desc *d) {
  return (const DerivedType *)__pyenzyme_fortran_derived_type(d);
}

/* Store one scalar of a component: reals and complexes as floats or doubles, so that the engine sees the store
 * (a constant, whose derivative is zero), other categories as inactive bytes. */
static void store_scalar(const Component *c, char *to, const char *from, unsigned long len) {
  int real = c->category == CATEGORY_REAL, complex = c->category == CATEGORY_COMPLEX;
  if ((real || complex) && c->kind == 8) {
    ((double *)to)[0] = ((const double *)from)[0];
    if (complex) ((double *)to)[1] = ((const double *)from)[1];
  } else if ((real || complex) && c->kind == 4) {
    ((float *)to)[0] = ((const float *)from)[0];
    if (complex) ((float *)to)[1] = ((const float *)from)[1];
  } else {
    __pyenzyme_fortran_copy_inactive(to, from, len);
  }
}

/* Elements of an explicit-shape array component: the product of its bounds' extents (bounds are a (2, rank)
 * array of {genre, value}; only explicit values are handled). */
static long component_elements(const Component *c, int *ok) {
  long n = 1;
  const struct { unsigned char genre; char pad[7]; long value; } *b = *(void *const *)c->bounds;
  for (int k = 0; k < c->rank; k++) {
    if (!b || b[2 * k].genre != VALUE_EXPLICIT || b[2 * k + 1].genre != VALUE_EXPLICIT)
      *ok = 0;
    else
      n *= b[2 * k + 1].value - b[2 * k].value + 1 > 0 ? b[2 * k + 1].value - b[2 * k].value + 1 : 0;
  }
  return n;
}

static unsigned long scalar_bytes(const Component *c) {
  return c->category == CATEGORY_COMPLEX ? 2ul * c->kind : c->kind;
}

/* Components sit at offsets read from the type description: accessed in the callers, these variable offsets
 * would tell type analysis that any byte of the object may be a float or an address.  The two helpers below do
 * the accesses, and type analysis does not carry their arguments' types back to their callers
 * (rules/runtime_bodies.TYPELESS_HELPERS); the engine differentiates them like any function. */
__attribute__((weak, noinline)) void __pyenzyme_fortran_initialize_component(char *object, const Component *c, long m) {
  unsigned long len = scalar_bytes(c);
  for (long e = 0; e < m; e++)
    store_scalar(c, object + c->offset + e * (long)len, c->initialization + e * (long)len, len);
}

/* An allocatable component's descriptor, unallocated, as flang-rt's Component::EstablishDescriptor makes it: the
 * type code and length of its element, its rank, the allocatable attribute, a null base.  The words go by the
 * inactive byte copy; the null base is a pointer store, mirrored in the shadow. */
__attribute__((weak, noinline)) void __pyenzyme_fortran_establish_component(char *object, const Component *c,
                                                                          signed char type) {
  Desc head;
  memset(&head, 0, sizeof head);
  head.elem_len = scalar_bytes(c);
  head.version = 20240719;  /* CFI_VERSION */
  head.rank = c->rank;
  head.type = type;
  head.attribute = ATTR_ALLOCATABLE;
  Desc *component = (Desc *)(object + c->offset);
  __pyenzyme_fortran_copy_inactive((char *)component + sizeof(char *), (const char *)&head + sizeof(char *),
                                   sizeof(Desc0) - sizeof(char *) + c->rank * sizeof(Dim));
  component->base = 0;
}

/* The type code of an allocatable component's elements: integers, reals and complexes (others are refused). */
static signed char component_type_code(const Component *c) {
  int k = c->kind;
  switch (c->category) {
  case CATEGORY_INTEGER: return k == 1 ? 7 : k == 2 ? 8 : k == 4 ? 9 : k == 8 ? 10 : 0;
  case CATEGORY_REAL: return k == 4 ? T_FLOAT : k == 8 ? T_DOUBLE : 0;
  case CATEGORY_COMPLEX: return k == 4 ? T_FLOAT_COMPLEX : k == 8 ? T_DOUBLE_COMPLEX : 0;
  default: return 0;
  }
}

/* Deallocates an allocatable component if it is allocated. */
__attribute__((weak, noinline)) void __pyenzyme_fortran_free_component(char *object, long offset) {
  Desc0 *component = (Desc0 *)(object + offset);
  if (component->base) {
    free(component->base);
    component->base = 0;
  }
}

/* Default initialization of an object of derived type: each data component with an initializer gets its bytes,
 * each allocatable component of intrinsic numeric type an unallocated descriptor.
 * Types that need none are what flang-22 asks for most (a structure constructor's temporary): nothing happens. */
__attribute__((weak)) void __pyenzyme_body__FortranAInitialize(const Desc *d, const char *file, int line) {
  const DerivedType *t = derived_type_of(d);
  if (!t || t->no_initialization_needed)
    return;
  long n = element_count(d);
  long count = (long)t->component.dim[0].extent;
  for (long j = 0; j < count; j++) {
    const Component *c = &t->component.base[j];
    if (c->genre == GENRE_DATA && (c->category == CATEGORY_DERIVED ? c->derived.type->no_initialization_needed
                                                                   : !c->initialization))
      continue;
    if (c->genre == GENRE_ALLOCATABLE && c->rank <= 15 && component_type_code(c)) {
      for (long i = 0; i < n; i++)
        __pyenzyme_fortran_establish_component(d->base + (d->rank ? element_offset(d, i) : 0), c,
                                               component_type_code(c));
      continue;
    }
    int ok = c->genre == GENRE_DATA && c->category != CATEGORY_DERIVED && c->category != CATEGORY_CHARACTER;
    long m = ok ? component_elements(c, &ok) : 0;
    if (!ok)
      __pyenzyme_fortran_unsupported(C_INITIALIZE, R_COMPONENT_INIT, file, line);
    for (long i = 0; i < n; i++)
      __pyenzyme_fortran_initialize_component(d->base + (d->rank ? element_offset(d, i) : 0), c, m);
  }
}

/* Deallocation of an object's allocatable components (not the object itself), as at the end of a procedure
 * with a local of derived type.  Components of derived type would need the same recursively: refused. */
static void destroy_components(const Desc *d, const DerivedType *t) {
  if (!t || t->no_destruction_needed)
    return;
  long n = element_count(d);
  long count = (long)t->component.dim[0].extent;
  for (long j = 0; j < count; j++) {
    const Component *c = &t->component.base[j];
    if (c->genre == GENRE_POINTER ||  /* pointers are left alone */
        (c->genre == GENRE_DATA && (c->category != CATEGORY_DERIVED || c->derived.type->no_destruction_needed)))
      continue;
    if (c->genre != GENRE_ALLOCATABLE)
      __pyenzyme_fortran_unsupported(C_DESTROY, R_COMPONENT_DESTROY, 0, 0);
    for (long i = 0; i < n; i++) {
      char *object = d->base + (d->rank ? element_offset(d, i) : 0);
      if (c->category == CATEGORY_DERIVED) {
        /* an allocatable array of a derived type whose elements need neither finalization nor deallocation of
         * their own components (the element type from the component's own descriptor) is freed like numbers */
        const DerivedType *e = derived_type_of((const Desc *)(object + c->offset));
        if (!e || !e->no_destruction_needed || !e->no_finalization_needed)
          __pyenzyme_fortran_unsupported(C_DESTROY, R_COMPONENT_DESTROY, 0, 0);
      }
      __pyenzyme_fortran_free_component(object, c->offset);
    }
  }
}

__attribute__((weak)) void __pyenzyme_body__FortranADestroy(const Desc *d) {
  const DerivedType *t = derived_type_of(d);
  if (t && !t->no_finalization_needed)  /* FINAL subroutines may do anything */
    __pyenzyme_fortran_unsupported(C_DESTROY, R_COMPONENT_DESTROY, 0, 0);
  destroy_components(d, t);
}

/* The same without finalization, which flang-22 calls for temporaries (a structure constructor's result once
 * it has been assigned): FINAL subroutines are not run, so they need not be refused. */
__attribute__((weak)) void __pyenzyme_body__FortranADestroyWithoutFinalization(const Desc *d) {
  destroy_components(d, derived_type_of(d));
}

/* Array constructors whose size is known only at run time ([x(1), x(2:n) - x(1:n-1), -x(n)]): flang passes a
 * state buffer (ten words), the result vector's descriptor (allocatable, usually unallocated) and then pushes the
 * values one by one.  The bodies keep their own state in that buffer; the vector grows as the runtime's does
 * (by at least doubling), its extent is the number of elements pushed so far.  Growth copies element by element
 * into a new block, so the engine sees every float moved. */
typedef struct {
  Desc *to;
  long next, capacity;
  int line;
} ConstructorState;
_Static_assert(sizeof(ConstructorState) <= 80, "flang-22 passes ten words of state");

__attribute__((weak)) void __pyenzyme_body__FortranAInitArrayConstructorVector(ConstructorState *state, Desc *to,
                                                                             _Bool use_value_lengths, const char *file,
                                                                             int line) {
  (void)use_value_lengths;
  if (to->rank != 1 || uncopyable(to))
    __pyenzyme_fortran_unsupported(C_ARRAY_CONSTRUCTOR, R_CONSTRUCTOR, file, line);
  state->to = to;
  state->next = 0;
  state->capacity = to->base ? element_count(to) : 0;
  state->line = line;  /* not the file name: a pointer without a shadow cannot be kept in memory that has one */
}

/* Room for `more` elements after the ones pushed so far. */
static void constructor_reserve(ConstructorState *state, long more) {
  Desc *to = state->to;
  long needed = state->next + more;
  if (!to->base) {
    long preset = element_count(to);
    long capacity = preset > 0 ? preset : more > 4 ? more : 4;
    if (preset == 0 && capacity < 128 / (long)(to->elem_len ? to->elem_len : 1))
      capacity = 128 / (long)to->elem_len;
    allocate(to, 0, &capacity, to->elem_len);
    to->dim[0].extent = preset > 0 ? preset : more;
    state->capacity = capacity;
    return;
  }
  if (state->capacity < needed) {
    if (to->attribute != ATTR_ALLOCATABLE)
      __pyenzyme_fortran_unsupported(C_ARRAY_CONSTRUCTOR, R_CONSTRUCTOR, 0, state->line);
    long capacity = needed > 2 * state->capacity ? needed : 2 * state->capacity;
    char *old = to->base;
    to->base = malloc((unsigned long)capacity * to->elem_len);
    for (long i = 0; i < state->next; i++)
      copy_element(to, to->base + i * (long)to->elem_len, old + i * (long)to->elem_len);
    free(old);
    state->capacity = capacity;
  }
  if (to->dim[0].extent < needed)
    to->dim[0].extent = needed;
}

__attribute__((weak)) void __pyenzyme_body__FortranAPushArrayConstructorValue(ConstructorState *state,
                                                                            const Desc *from) {
  Desc *to = state->to;
  if (from->type != to->type || from->elem_len != to->elem_len || uncopyable(from))
    __pyenzyme_fortran_unsupported(C_ARRAY_CONSTRUCTOR, R_CONSTRUCTOR, 0, state->line);
  long n = element_count(from);
  constructor_reserve(state, n);
  for (long i = 0; i < n; i++)
    copy_element(to, to->base + element_offset(to, state->next + i),
                 from->base + (from->rank ? element_offset(from, i) : 0));
  state->next += n;
}

__attribute__((weak)) void __pyenzyme_body__FortranAPushArrayConstructorSimpleScalar(ConstructorState *state,
                                                                                   void *from) {
  Desc *to = state->to;
  constructor_reserve(state, 1);
  copy_element(to, to->base + element_offset(to, state->next), from);
  state->next += 1;
}

/* SPREAD(SOURCE, DIM, NCOPIES): the result (unallocated, rank of SOURCE + 1) repeats SOURCE NCOPIES times along
 * dimension DIM.  Element i of the result, in array element order, is element (i without its DIM coordinate) of
 * SOURCE. */
__attribute__((weak)) void __pyenzyme_body__FortranASpread(Desc *r, const Desc *source, int dim, long ncopies,
                                                         const char *file, int line) {
  int why = uncopyable(source);
  if (why)
    __pyenzyme_fortran_unsupported(C_SPREAD, why, file, line);
  if (r->base || r->rank != source->rank + 1 || dim < 1 || dim > r->rank)
    __pyenzyme_fortran_unsupported(C_SPREAD, R_ALLOCATED_RESULT, file, line);
  long extent[15];
  for (int k = 0, j = 0; k < r->rank; k++)
    extent[k] = k == dim - 1 ? (ncopies > 0 ? ncopies : 0) : dim_of(source, j++)->extent;
  allocate(r, 0, extent, source->elem_len);
  copy_type_code(r, source);
  long n = element_count(r);
  long below = 1;  /* elements of the result before one step along DIM */
  for (int k = 0; k < dim - 1; k++)
    below *= extent[k];
  long copies = extent[dim - 1];
  for (long i = 0; i < n; i++) {
    long from = (i % below) + (i / (below * copies)) * below;
    copy_element(source, r->base + element_offset(r, i),
                 source->base + (source->rank ? element_offset(source, from) : 0));
  }
}

/* ALLOCATE and DEALLOCATE of allocatables whose element type needs the runtime (derived types): bounds are set
 * first, one dimension per call; the block is contiguous; default initialization and deallocation of allocatable
 * components are those of the Initialize and Destroy bodies above. */
__attribute__((weak)) void __pyenzyme_body__FortranAAllocatableSetBounds(Desc *d, int k, long lower, long upper) {
  Dim *dk = dim_of(d, k);
  dk->lower = lower;
  dk->extent = upper >= lower ? upper - lower + 1 : 0;
}

__attribute__((weak)) int __pyenzyme_body__FortranAAllocatableAllocate(Desc *d, void *async, _Bool has_stat,
                                                                     const Desc *errmsg, const char *file, int line,
                                                                     void *device) {
  (void)async, (void)has_stat, (void)errmsg, (void)device;
  if (d->base)
    __pyenzyme_fortran_unsupported(C_ALLOCATE, R_ALLOCATED, file, line);
  long extent[15], lower[15];
  for (int k = 0; k < d->rank; k++) {
    copy_bound(&lower[k], &dim_of(d, k)->lower);
    extent[k] = dim_of(d, k)->extent;
  }
  allocate(d, lower, extent, d->elem_len);
  __pyenzyme_body__FortranAInitialize(d, file, line);
  return 0;
}

__attribute__((weak)) int __pyenzyme_body__FortranAAllocatableDeallocate(Desc *d, _Bool has_stat, const Desc *errmsg,
                                                                       const char *file, int line) {
  (void)has_stat, (void)errmsg, (void)file, (void)line;
  if (d->base) {
    __pyenzyme_body__FortranADestroy(d);
    free(d->base);
    d->base = 0;
  }
  return 0;
}

/* One object of derived type `t`, component by component, so that the engine sees each real as a float or double
 * load and store.  Allocatable and pointer components (deep copies, pointer association) are refused.  Called at
 * offsets read from the type description: type analysis keeps its types to itself (TYPELESS_HELPERS). */
/* Intrinsic assignment of an allocatable component of intrinsic numeric type (F2003): the left side's block is
 * freed, and if the right side is allocated the left gets a block of its shape and a copy of its elements. */
static void copy_allocatable_component(Desc *to, const Desc *from) {
  if (to->base == from->base)
    return;  /* the same object */
  if (to->base) {
    free(to->base);
    to->base = 0;
  }
  if (!from->base)
    return;
  /* length, version, rank, type code and attribute words as the right side's (inactive bytes) */
  __pyenzyme_fortran_copy_inactive((char *)to + sizeof(char *), (const char *)from + sizeof(char *),
                                   sizeof(Desc0) - sizeof(char *));
  allocate_like(to, from);
  long n = element_count(from);
  for (long i = 0; i < n; i++)
    copy_element(from, to->base + element_offset(to, i), from->base + element_offset(from, i));
}

__attribute__((weak, noinline)) void __pyenzyme_fortran_copy_derived(char *to, const char *from, const DerivedType *t) {
  long count = (long)t->component.dim[0].extent;
  for (long j = 0; j < count; j++) {
    const Component *c = &t->component.base[j];
    if (c->genre == GENRE_ALLOCATABLE && c->rank <= 15 && component_type_code(c)) {
      copy_allocatable_component((Desc *)(to + c->offset), (const Desc *)(from + c->offset));
      continue;
    }
    int ok = c->genre == GENRE_DATA && (c->category != CATEGORY_CHARACTER || c->character_len.genre == VALUE_EXPLICIT);
    long m = ok ? component_elements(c, &ok) : 0;
    if (!ok)
      __pyenzyme_fortran_unsupported(C_ASSIGN, R_DERIVED, 0, 0);
    if (c->category == CATEGORY_DERIVED) {
      long size = c->derived.type->size_in_bytes;
      for (long e = 0; e < m; e++)
        __pyenzyme_fortran_copy_derived(to + c->offset + e * size, from + c->offset + e * size, c->derived.type);
      continue;
    }
    unsigned long len = c->category == CATEGORY_CHARACTER ? (unsigned long)c->character_len.value * c->kind
                                                          : scalar_bytes(c);
    for (long e = 0; e < m; e++)
      store_scalar(c, to + c->offset + e * (long)len, from + c->offset + e * (long)len, len);
  }
}

/* SUM(X, DIM= [, MASK=]) of a REAL(4) or REAL(8) array: the result (unallocated, rank of X - 1) holds the sums along
 * dimension DIM of the elements MASK selects. In array element order, X's element a + below * (k + extent * c) adds
 * to the result's element a + below * c, where below is the number of elements before one step along DIM. One helper
 * per kind, so that floats and doubles never move through the same pointers in one function (see copy_floats). */
/* For a reduction along dimension `dim` (1-based) of `x`: the extents of the result (every other dimension),
   and the number of elements below and above that dimension in `x`'s column-major order. */
static inline __attribute__((always_inline)) void split_at_dim(const Desc *x, int dim, long *extent, long *below,
                                                               long *above) {
  *below = *above = 1;
  for (int k = 0, j = 0; k < x->rank; k++) {
    long e = dim_of(x, k)->extent;
    if (k < dim - 1)
      *below *= e;
    if (k > dim - 1)
      *above *= e;
    if (k != dim - 1)
      extent[j++] = e;
  }
}

#define SUM_DIM_KIND(T)                                                                                          \
  __attribute__((weak, noinline)) void __pyenzyme_fortran_sum_dim_##T(Desc *r, const Desc *x, long below,       \
                                                                      long extent, long above,                   \
                                                                      const Desc *mask) {                        \
    for (long c = 0; c < above; c++)                                                                             \
      for (long a = 0; a < below; a++) {                                                                         \
        T s = 0;                                                                                                 \
        for (long k = 0; k < extent; k++)                                                                        \
          if (mask_at(mask, a + below * (k + extent * c)))                                                       \
            s += *(const T *)(x->base + element_offset(x, a + below * (k + extent * c)));                        \
        *(T *)(r->base + element_offset(r, a + below * c)) = s;                                                  \
      }                                                                                                          \
  }
SUM_DIM_KIND(float)
SUM_DIM_KIND(double)

__attribute__((weak)) void __pyenzyme_body__FortranASumDim(Desc *r, const Desc *x, int dim, const char *file, int line,
                                                         const Desc *mask) {
  if ((x->type != T_DOUBLE && x->type != T_FLOAT) || x->rank < 1 || x->rank > 15)
    __pyenzyme_fortran_unsupported(C_SUM_DIM, R_NOT_REAL, file, line);
  if (mask && mask->rank != 0 && mask->rank != x->rank)
    __pyenzyme_fortran_unsupported(C_SUM_DIM, R_MASK, file, line);
  if (dim < 1 || dim > x->rank || r->base || r->rank != x->rank - 1)
    __pyenzyme_fortran_unsupported(C_SUM_DIM, R_DIM, file, line);
  long extent[15], below, above;
  split_at_dim(x, dim, extent, &below, &above);
  allocate(r, 0, extent, x->elem_len);
  copy_type_code(r, x);
  if (x->type == T_DOUBLE)
    __pyenzyme_fortran_sum_dim_double(r, x, below, dim_of(x, dim - 1)->extent, above, mask);
  else
    __pyenzyme_fortran_sum_dim_float(r, x, below, dim_of(x, dim - 1)->extent, above, mask);
}

/* CSHIFT(V, SHIFT) of a vector: result(i) = V(1 + modulo(i - 1 + SHIFT, n)), into an unallocated result. */
__attribute__((weak)) void __pyenzyme_body__FortranACshiftVector(Desc *r, const Desc *v, long shift, const char *file,
                                                               int line) {
  int why = uncopyable(v);
  if (why)
    __pyenzyme_fortran_unsupported(C_CSHIFT, why, file, line);
  if (r->base || v->rank != 1 || r->rank != 1)
    __pyenzyme_fortran_unsupported(C_CSHIFT, R_ALLOCATED_RESULT, file, line);
  long n = v->dim[0].extent > 0 ? v->dim[0].extent : 0;
  allocate(r, 0, &n, v->elem_len);
  copy_type_code(r, v);
  for (long i = 0; i < n; i++) {
    long from = (i + shift) % n;
    copy_element(v, r->base + i * r->dim[0].sm, v->base + (from < 0 ? from + n : from) * v->dim[0].sm);
  }
}

/* An element of an integer array of any kind (SHIFT=), in array element order; a scalar for rank 0. */
static long integer_at(const Desc *d, long i) {
  const char *p = d->base + (d->rank ? element_offset(d, i) : 0);
  switch (d->elem_len) {
  case 1: return *(const signed char *)p;
  case 2: return *(const short *)p;
  case 4: return *(const int *)p;
  default: return *(const long *)p;
  }
}

/* CSHIFT(ARRAY, SHIFT, DIM) of an array of any rank: along DIM, result(.., i, ..) = ARRAY(.., 1 + modulo(i - 1 + s,
 * n), ..), s the scalar SHIFT or its element for the other subscripts; into an unallocated result. */
__attribute__((weak)) void __pyenzyme_body__FortranACshift(Desc *r, const Desc *a, const Desc *shift, int dim,
                                                         const char *file, int line) {
  int why = uncopyable(a);
  if (why)
    __pyenzyme_fortran_unsupported(C_CSHIFT, why, file, line);
  if (r->base || r->rank != a->rank || a->rank < 1 || dim < 1 || dim > a->rank ||
      (shift->rank != 0 && shift->rank != a->rank - 1))
    __pyenzyme_fortran_unsupported(C_CSHIFT, R_DIM, file, line);
  long extent[15], below = 1, above = 1;
  for (int k = 0; k < a->rank; k++) {
    extent[k] = dim_of(a, k)->extent > 0 ? dim_of(a, k)->extent : 0;
    if (k < dim - 1)
      below *= extent[k];
    if (k > dim - 1)
      above *= extent[k];
  }
  long n = extent[dim - 1];
  allocate(r, 0, extent, a->elem_len);
  copy_type_code(r, a);
  for (long c = 0; c < above; c++)
    for (long b = 0; b < below; b++) {
      long s = integer_at(shift, b + below * c) % (n > 0 ? n : 1);
      for (long k = 0; k < n; k++) {
        long from = (k + s) % n;
        from = from < 0 ? from + n : from;
        copy_element(a, r->base + element_offset(r, b + below * (k + n * c)),
                     a->base + element_offset(a, b + below * (from + n * c)));
      }
    }
}

/* MAXVAL/MINVAL with DIM= (and MASK=, a conformable or scalar logical) of REAL(8) and REAL(4): the first extreme
 * element along DIM that MASK selects, in array element order, -HUGE/HUGE where none is (as the runtime; NaN
 * elements are never chosen). */
#define EXTREME_DIM_KIND(T, HUGE)                                                                               \
  __attribute__((weak, noinline)) void __pyenzyme_fortran_extreme_dim_##T(Desc *r, const Desc *x, long below,   \
                                                                          long extent, long above, int want_max, \
                                                                          const Desc *mask) {                    \
    for (long c = 0; c < above; c++)                                                                             \
      for (long a = 0; a < below; a++) {                                                                         \
        T best = want_max ? -HUGE : HUGE;                                                                        \
        for (long k = 0; k < extent; k++) {                                                                      \
          long i = a + below * (k + extent * c);                                                                 \
          T v = *(const T *)(x->base + element_offset(x, i));                                                    \
          if (mask_at(mask, i) && (want_max ? v > best : v < best))                                              \
            best = v;                                                                                            \
        }                                                                                                        \
        *(T *)(r->base + element_offset(r, a + below * c)) = best;                                               \
      }                                                                                                          \
  }
EXTREME_DIM_KIND(float, FLT_MAX)
EXTREME_DIM_KIND(double, DBL_MAX)

static void extreme_dim(Desc *r, const Desc *x, int dim, const char *file, int line, const Desc *mask, int call,
                        int want_max) {
  if ((x->type != T_DOUBLE && x->type != T_FLOAT) || x->rank < 1 || x->rank > 15)
    __pyenzyme_fortran_unsupported(call, R_NOT_REAL, file, line);
  if (mask && mask->rank != 0 && mask->rank != x->rank)
    __pyenzyme_fortran_unsupported(call, R_MASK, file, line);
  if (dim < 1 || dim > x->rank || r->base || r->rank != x->rank - 1)
    __pyenzyme_fortran_unsupported(call, R_DIM, file, line);
  long extent[15], below, above;
  split_at_dim(x, dim, extent, &below, &above);
  allocate(r, 0, extent, x->elem_len);
  copy_type_code(r, x);
  if (x->type == T_DOUBLE)
    __pyenzyme_fortran_extreme_dim_double(r, x, below, dim_of(x, dim - 1)->extent, above, want_max, mask);
  else
    __pyenzyme_fortran_extreme_dim_float(r, x, below, dim_of(x, dim - 1)->extent, above, want_max, mask);
}

__attribute__((weak)) void __pyenzyme_body__FortranAMaxvalDim(Desc *r, const Desc *x, int dim, const char *file,
                                                            int line, const Desc *mask) {
  extreme_dim(r, x, dim, file, line, mask, C_MAXVAL_DIM, 1);
}

__attribute__((weak)) void __pyenzyme_body__FortranAMinvalDim(Desc *r, const Desc *x, int dim, const char *file,
                                                            int line, const Desc *mask) {
  extreme_dim(r, x, dim, file, line, mask, C_MINVAL_DIM, 0);
}

/* PACK(ARRAY, MASK [, VECTOR]): the elements MASK selects in array element order (MASK may be a scalar), then
 * VECTOR's remaining elements, into an unallocated vector. */
__attribute__((weak)) void __pyenzyme_body__FortranAPack(Desc *r, const Desc *x, const Desc *mask, const Desc *vector,
                                                       const char *file, int line) {
  int why = uncopyable(x);
  if (why)
    __pyenzyme_fortran_unsupported(C_PACK, why, file, line);
  if (r->base || r->rank != 1)
    __pyenzyme_fortran_unsupported(C_PACK, R_ALLOCATED_RESULT, file, line);
  long n = element_count(x), selected = 0;
  for (long i = 0; i < n; i++)
    selected += mask_at(mask, i);
  long size = selected;
  if (vector) {
    size = vector->dim[0].extent > 0 ? vector->dim[0].extent : 0;
    if (size < selected)
      __pyenzyme_fortran_unsupported(C_PACK, R_PACK_VECTOR, file, line);
  }
  allocate(r, 0, &size, x->elem_len);
  copy_type_code(r, x);
  long j = 0;
  for (long i = 0; i < n; i++)
    if (mask_at(mask, i))
      copy_element(x, r->base + (j++) * r->dim[0].sm, x->base + element_offset(x, i));
  for (; j < size; j++)
    copy_element(x, r->base + j * r->dim[0].sm, vector->base + j * vector->dim[0].sm);
}

/* UNPACK(VECTOR, MASK, FIELD): an array of MASK's shape holding VECTOR's elements in order where MASK is true and
 * FIELD (a scalar, or an array of MASK's shape) elsewhere, into an unallocated result. */
__attribute__((weak)) void __pyenzyme_body__FortranAUnpack(Desc *r, const Desc *vector, const Desc *mask,
                                                         const Desc *field, const char *file, int line) {
  int why = uncopyable(vector);
  if (why)
    __pyenzyme_fortran_unsupported(C_UNPACK, why, file, line);
  if (r->base || r->rank != mask->rank || vector->rank != 1)
    __pyenzyme_fortran_unsupported(C_UNPACK, R_ALLOCATED_RESULT, file, line);
  if (field->rank != 0 && field->rank != mask->rank)
    __pyenzyme_fortran_unsupported(C_UNPACK, R_SHAPE, file, line);
  long extent[15];
  for (int k = 0; k < mask->rank; k++)
    extent[k] = dim_of(mask, k)->extent > 0 ? dim_of(mask, k)->extent : 0;
  allocate(r, 0, extent, vector->elem_len);
  copy_type_code(r, vector);
  long n = element_count(mask), j = 0;
  for (long i = 0; i < n; i++) {
    char *to = r->base + element_offset(r, i);
    if (mask_at(mask, i))
      copy_element(vector, to, vector->base + (j++) * vector->dim[0].sm);
    else
      copy_element(vector, to, field->base + (field->rank ? element_offset(field, i) : 0));
  }
}

/* EOSHIFT(V, SHIFT [, BOUNDARY]) of a vector: result(i) = V(i + SHIFT) where that is in V, else BOUNDARY (a scalar;
 * zero bits by default: 0, 0.0 or .false.), into an unallocated result. */
__attribute__((weak)) void __pyenzyme_body__FortranAEoshiftVector(Desc *r, const Desc *v, long shift,
                                                                const Desc *boundary, const char *file, int line) {
  int why = uncopyable(v);
  if (why)
    __pyenzyme_fortran_unsupported(C_EOSHIFT, why, file, line);
  if (r->base || v->rank != 1 || r->rank != 1)
    __pyenzyme_fortran_unsupported(C_EOSHIFT, R_ALLOCATED_RESULT, file, line);
  if (!boundary && (v->type == T_STRUCT || v->type == T_CHAR || v->type == T_CHAR16 || v->type == T_CHAR32))
    __pyenzyme_fortran_unsupported(C_EOSHIFT, R_BOUNDARY, file, line);
  long n = v->dim[0].extent > 0 ? v->dim[0].extent : 0;
  allocate(r, 0, &n, v->elem_len);
  copy_type_code(r, v);
  for (long i = 0; i < n; i++) {
    long from = i + shift;
    char *to = r->base + i * r->dim[0].sm;
    if (from >= 0 && from < n)
      copy_element(v, to, v->base + from * v->dim[0].sm);
    else if (boundary)
      copy_element(v, to, boundary->base);
    else
      memset(to, 0, v->elem_len);
  }
}


/* EOSHIFT(ARRAY, SHIFT [, BOUNDARY], DIM) of an array of any rank: along DIM, result(.., i, ..) = ARRAY(.., i + s, ..)
 * where that is in ARRAY, else the boundary (the scalar BOUNDARY or its element for the other subscripts; zero bits by
 * default), s the scalar SHIFT or its element for the other subscripts; into an unallocated result. */
__attribute__((weak)) void __pyenzyme_body__FortranAEoshift(Desc *r, const Desc *a, const Desc *shift,
                                                          const Desc *boundary, int dim, const char *file, int line) {
  int why = uncopyable(a);
  if (why)
    __pyenzyme_fortran_unsupported(C_EOSHIFT, why, file, line);
  if (r->base || r->rank != a->rank || a->rank < 1 || dim < 1 || dim > a->rank ||
      (shift->rank != 0 && shift->rank != a->rank - 1) || (boundary && boundary->rank != 0 &&
                                                           boundary->rank != a->rank - 1))
    __pyenzyme_fortran_unsupported(C_EOSHIFT, R_DIM, file, line);
  if (!boundary && (a->type == T_STRUCT || a->type == T_CHAR || a->type == T_CHAR16 || a->type == T_CHAR32))
    __pyenzyme_fortran_unsupported(C_EOSHIFT, R_BOUNDARY, file, line);
  long extent[15], below = 1, above = 1;
  for (int k = 0; k < a->rank; k++) {
    extent[k] = dim_of(a, k)->extent > 0 ? dim_of(a, k)->extent : 0;
    if (k < dim - 1)
      below *= extent[k];
    if (k > dim - 1)
      above *= extent[k];
  }
  long n = extent[dim - 1];
  allocate(r, 0, extent, a->elem_len);
  copy_type_code(r, a);
  for (long c = 0; c < above; c++)
    for (long b = 0; b < below; b++) {
      long s = integer_at(shift, b + below * c);
      const char *edge = boundary ? boundary->base + (boundary->rank ? element_offset(boundary, b + below * c) : 0) : 0;
      for (long k = 0; k < n; k++) {
        long from = k + s;
        char *to = r->base + element_offset(r, b + below * (k + n * c));
        if (from >= 0 && from < n)
          copy_element(a, to, a->base + element_offset(a, b + below * (from + n * c)));
        else if (edge)
          copy_element(a, to, edge);
        else
          memset(to, 0, a->elem_len);
      }
    }
}

/* Copy-in of a possibly non-contiguous actual argument for an explicit-shape or assumed-size dummy
 * (`call legacy(x(:, 2))`, an assumed-shape array passed on): flang allocates the temporary as the runtime does
 * (same type, rank and extents, contiguous, lower bounds kept) and copies the variable into it. */
__attribute__((weak)) void __pyenzyme_body__FortranACopyInAssign(Desc *temp, const Desc *var, const char *file,
                                                                int line) {
  int why = var->type == T_STRUCT ? R_DERIVED : uncopyable(var);
  if (why)
    __pyenzyme_fortran_unsupported(C_ASSIGN, why, file, line);
  __pyenzyme_fortran_copy_inactive((char *)&temp->version, (const char *)&var->version, sizeof temp->version);
  __pyenzyme_fortran_copy_inactive((char *)&temp->rank, (const char *)&var->rank, sizeof temp->rank);
  copy_type_code(temp, var);
  temp->attribute = ATTR_ALLOCATABLE;
  temp->extra = 0;
  temp->base = 0;
  allocate_like(temp, var);
  long n = element_count(var);
  for (long i = 0; i < n; i++)
    copy_element(var, temp->base + element_offset(temp, i), var->base + element_offset(var, i));
}

/* Copy-out after the call: the temporary back into the variable (null for an INTENT(IN) dummy), then freed. */
__attribute__((weak)) void __pyenzyme_body__FortranACopyOutAssign(Desc *var, Desc *temp, const char *file, int line) {
  if (var) {
    if (var->type == T_STRUCT)
      __pyenzyme_fortran_unsupported(C_ASSIGN, R_DERIVED, file, line);
    long n = element_count(temp);
    for (long i = 0; i < n; i++)
      copy_element(temp, var->base + element_offset(var, i), temp->base + element_offset(temp, i));
  }
  free(temp->base);
  temp->base = 0;
}

/* FORALL's descriptor stack (flang saves the descriptor of each iteration's left-hand side when it goes through a
 * pointer, `forall (i = 1:n) obj%p(i) = ...`): descriptors copied in, read back by index; the data is not copied.
 * A descriptor is copied field by field (base address as a pointer, the rest through the inactive byte copy). */
typedef struct { Desc *items; long n, cap; } DescriptorStack;

static void copy_descriptor(Desc *to, const Desc *from) {
  to->base = from->base;
  __pyenzyme_fortran_copy_inactive((char *)&to->elem_len, (const char *)&from->elem_len, sizeof to->elem_len);
  __pyenzyme_fortran_copy_inactive((char *)&to->version, (const char *)&from->version, sizeof to->version);
  __pyenzyme_fortran_copy_inactive((char *)&to->rank, (const char *)&from->rank, sizeof to->rank);
  copy_type_code(to, from);
  __pyenzyme_fortran_copy_inactive((char *)&to->attribute, (const char *)&from->attribute, sizeof to->attribute);
  __pyenzyme_fortran_copy_inactive((char *)&to->extra, (const char *)&from->extra, sizeof to->extra);
  for (int k = 0; k < from->rank; k++)
    __pyenzyme_fortran_copy_inactive((char *)dim_of(to, k), (const char *)dim_of(from, k), sizeof(Dim));
}

__attribute__((weak)) void *__pyenzyme_body__FortranACreateDescriptorStack(const char *file, int line) {
  (void)file;
  (void)line;
  DescriptorStack *s = malloc(sizeof *s);
  s->items = 0;
  s->n = 0;
  s->cap = 0;
  return s;
}

__attribute__((weak)) void __pyenzyme_body__FortranAPushDescriptor(void *stack, const Desc *d) {
  DescriptorStack *s = stack;
  if (d->type == T_STRUCT || d->rank > 15)
    __pyenzyme_fortran_unsupported(C_ASSIGN, R_DERIVED, 0, 0);
  if (s->n == s->cap) {  /* grown by copying descriptor by descriptor (a realloc would move untyped bytes) */
    s->cap = s->cap ? 2 * s->cap : 8;
    Desc *items = malloc((unsigned long)s->cap * sizeof(Desc));
    for (long k = 0; k < s->n; k++)
      copy_descriptor(&items[k], &s->items[k]);
    free(s->items);
    s->items = items;
  }
  copy_descriptor(&s->items[s->n], d);
  s->n++;
}

__attribute__((weak)) void __pyenzyme_body__FortranADescriptorAt(void *stack, unsigned long i, Desc *out) {
  DescriptorStack *s = stack;
  copy_descriptor(out, &s->items[i]);
}

__attribute__((weak)) void __pyenzyme_body__FortranADestroyDescriptorStack(void *stack) {
  DescriptorStack *s = stack;
  free(s->items);
  free(s);
}
