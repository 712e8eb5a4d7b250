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

#ifdef __cplusplus
extern "C" {
#endif

/* Activity markers: only their addresses are compared, their values are never read. */
extern int enzyme_dup;              /* next two args: primal, shadow */
extern int enzyme_dupnoneed;        /* like enzyme_dup; the primal result is not needed */
extern int enzyme_const;            /* next arg: constant, no derivative */
extern int enzyme_out;              /* next arg: active scalar, its adjoint is returned */
extern int enzyme_width;            /* next arg: vector width N of a batched call */
extern int enzyme_vector;           /* next arg: one vector holding N shadows */
extern int enzyme_scalar;           /* next arg: same value for all N lanes */
extern int enzyme_allocated;        /* next arg: byte size of a caller-allocated tape */
extern int enzyme_tape;             /* next arg: tape from __enzyme_augmentfwd */
extern int enzyme_primal_return;    /* also return the primal result */
extern int enzyme_nofree;           /* do not free shadow memory of the next arg */
extern int enzyme_runtime_activity; /* decide activity at run time where unknown */

#ifndef ENZYME_NO_ENTRY_POINTS
/* Reverse mode: accumulates adjoints into shadows; returns the adjoint of an
   enzyme_out argument (a struct of them when declared with a struct return). */
double __enzyme_autodiff(void *fn, ...);
/* Forward mode: returns the tangent of the result. */
double __enzyme_fwddiff(void *fn, ...);
/* Split reverse mode: forward sweep, returns the tape... */
void *__enzyme_augmentfwd(void *fn, ...);
/* ...and the reverse sweep that consumes it (pass enzyme_tape, tape). */
double __enzyme_reverse(void *fn, ...);
#endif

#ifdef __cplusplus
}
#endif

#endif /* ENZYME_ENZYME_H */
