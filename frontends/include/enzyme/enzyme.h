/*
 * enzyme/enzyme.h -- the Enzyme C ABI, as understood by pyenzyme.
 *
 * Calls to these functions are requests, not real functions: the enzyme compiler
 * wrappers (enzyme-cc, enzyme-c++, enzyme-flang) replace each call with a call to
 * the generated derivative.  Arguments after the function pointer are the primal
 * arguments, each optionally preceded by an activity marker:
 *
 *     double dx[N] = {0};
 *     __enzyme_autodiff((void*)f, enzyme_dup, x, dx, enzyme_const, n);  // dx += df/dx
 *
 * Without a marker the default activity applies: integers are constant, floats are
 * active (reverse mode: enzyme_out) or duplicated (forward mode), pointers are
 * duplicated.
 *
 * A call is recognised by substring, so a program may declare extra entry points
 * with other return types (for example `struct grads __enzyme_autodiff_xy(void*, ...)`).
 * Define ENZYME_NO_ENTRY_POINTS before including this header to declare the entry
 * points yourself with different return types.
 */
#ifndef ENZYME_ENZYME_H
#define ENZYME_ENZYME_H

/* CUDA and HIP: the entry points are callable from host and device code, and the markers are
   device variables in device compiles (address space 1 on the GPU) and host variables in host compiles, so
   that both __global__/__device__ code and host code can pass them. */
#if defined(__CUDA__) || defined(__HIP__) || defined(__CUDACC__) || defined(__HIPCC__)
#define ENZYME_HOST_DEVICE __attribute__((host, device))
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define ENZYME_MARKER __attribute__((device))
#else
#define ENZYME_MARKER
#endif
#else
#define ENZYME_HOST_DEVICE
#define ENZYME_MARKER
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Activity markers: only their addresses are compared, their values are never read. */
extern ENZYME_MARKER int enzyme_dup;              /* next args: primal, shadow (N shadows after enzyme_width, N) */
extern ENZYME_MARKER int enzyme_dupnoneed;        /* like enzyme_dup; the primal result is not needed */
extern ENZYME_MARKER int enzyme_const;            /* next arg: constant, no derivative */
extern ENZYME_MARKER int enzyme_out;              /* next arg: active scalar, its adjoint is returned */
extern ENZYME_MARKER int enzyme_width;            /* next arg: constant width N of a batched call (not split mode) */
extern ENZYME_MARKER int enzyme_dupv;             /* next args: byte stride, primal, one buffer whose N shadows are
                                       stride bytes apart */
extern ENZYME_MARKER int enzyme_dupnoneedv;       /* like enzyme_dupv; the primal result is not needed */
extern ENZYME_MARKER int enzyme_tape;             /* optional, before the tape passed to __enzyme_reverse or
                                       __enzyme_fwdsplit */
/* What a call returns besides the derivatives, right after the function: enzyme_primal_return puts the
   result first ({result, {adjoints}} in reverse mode, {result, tangent} in forward mode), enzyme_noret leaves
   it out; enzyme_const_return (no seed / no tangent of the result), enzyme_active_return (reverse: seed 1),
   enzyme_dup_return (forward: its tangent). <enzyme/enzyme> (C++17) passes them for you. */
extern ENZYME_MARKER int enzyme_primal_return, enzyme_noret, enzyme_const_return, enzyme_active_return, enzyme_dup_return;
/* enzyme_vector/enzyme_scalar (__enzyme_batch), enzyme_allocated (the size of the caller's tape memory),
   enzyme_runtime_activity, enzyme_nofree (anywhere in a call: __enzyme_fwdsplit keeps the tape for more calls;
   refused by __enzyme_reverse): see the README's table of upstream's ABI. */
extern ENZYME_MARKER int enzyme_vector, enzyme_scalar, enzyme_allocated, enzyme_nofree, enzyme_runtime_activity;

/* Custom derivatives, registered by global arrays (names after the prefix are free):
 *   void *__enzyme_register_derivative_foo[2] = {(void *)foo, (void *)foo_fwd};
 *       foo_fwd(args with shadows interleaved, floats as value, tangent) -> tangent of foo's result
 *   void *__enzyme_register_gradient_foo[3] = {(void *)foo, (void *)foo_aug, (void *)foo_rev};
 *       foo_aug(args, pointer shadows) -> {result, void *tape} (or just the tape for void foo); for a
 *       non-pointer result it may return only the tape, or nothing, and foo is then called for the result
 *       (refused if foo writes memory its caller sees)
 *       foo_rev(args, pointer shadows, [d result,] [tape]) -> adjoints of foo's float arguments (the tape
 *       only if foo_aug returns one)
 *   void *__enzyme_inactivefn_foo = (void *)foo;   (foo carries no derivative)
 * Give foo __attribute__((noinline)) if it is defined in the same file as its callers. */

/* Source annotations (pyenzyme's clang plugin; also spelled [[enzyme::inactive]], [[enzyme_inactive]]):
 *   __attribute__((enzyme_inactive))          on a function: its calls carry no derivative, neither through
 *                                             the result nor through what they write into pointer arguments;
 *                                             on a global variable: it holds constants (stores drop the
 *                                             derivative of what they store)
 *   __attribute__((enzyme_inactive_noblock))  the same derivatives
 *   __attribute__((enzyme_function_like("exp")))  calls are differentiated with exp's rule (a libm function,
 *                                             a memory function such as free, or an inactive one)
 *   __attribute__((enzyme_nofree))            the function frees no memory (LLVM's nofree)
 *   __attribute__((enzyme_shadow(d_g)))       on a global g: g is active memory whose shadow is d_g
 *                                             (enzyme_shadow(d_g0, d_g1, ...): one per batch direction)
 * Any other enzyme_* attribute is a compile error.  The same as tables:
 *   void *__enzyme_function_like[2] = {(void *)my_exp, (void *)"exp"};
 *   void *__enzyme_inactive_global_x = (void *)&x;
 *   void *__enzyme_allocation_like[4] = {(void *)pool_alloc, (void *)1, (void *)"0,-1", (void *)pool_free};
 *       the allocator, the index of its byte-count argument, for each argument of the deallocator the
 *       allocator argument it receives (-1: the block), the deallocator; shadow blocks come from the same
 *       allocator, zeroed, and go back through the deallocator.
 * A program that defines
 *   void enzymeLogGrad(double grad, const char *opcode, const char *callee, const char *module,
 *                      const char *function, unsigned block, unsigned inst);
 * (or the same preceded by double result and followed by unsigned n_operands, double *operands) gets it
 * called by every reverse sweep with each floating-point operation's adjoint. */

#ifndef ENZYME_NO_ENTRY_POINTS
/* Reverse mode: accumulates adjoints into shadows; returns the adjoint of an
   enzyme_out argument (a struct of them when declared with a struct return; with
   enzyme_width, N, each becomes N adjoints, one per direction). */
ENZYME_HOST_DEVICE double __enzyme_autodiff(void *fn, ...);
/* Forward mode: returns the tangent of the result (N tangents, as a struct of N
   doubles declared by the caller, with enzyme_width). */
ENZYME_HOST_DEVICE double __enzyme_fwddiff(void *fn, ...);
/* Split reverse mode: the forward sweep returns a heap tape (declare a struct
   {void *tape; double primal;} return for a function with a result)... */
ENZYME_HOST_DEVICE void *__enzyme_augmentfwd(void *fn, ...);
/* ...and the reverse sweep takes the same arguments, then d result (if the
   function returns a float), then the tape, which it frees. */
ENZYME_HOST_DEVICE double __enzyme_reverse(void *fn, ...);
/* Forward split mode: the tangent of the run __enzyme_augmentfwd made, from its tape (the same arguments as
   __enzyme_fwddiff, the primal pointers may be null, then the tape, which it frees); the primal is not run
   again. */
ENZYME_HOST_DEVICE double __enzyme_fwdsplit(void *fn, ...);
#endif

#ifdef __cplusplus
}
#endif

#endif /* ENZYME_ENZYME_H */
