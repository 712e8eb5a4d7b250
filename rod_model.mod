!mod$ v1 sum:b5d111c9974be63b
!need$ fc1ab5ddb0e0d965 i iso_c_binding
module rod_model
use,intrinsic::iso_c_binding,only:c_double
use,intrinsic::iso_c_binding,only:c_int
private::c_double
private::c_int
type,private::rod_t
real(8),allocatable::temp(:)
real(8),allocatable::kappa(:)
real(8)::length=1._8
real(8)::dt=2.0000000000000000958434720477185919662588275969028472900390625e-4_8
integer(4)::steps_taken=0_4
logical(4)::verbose=.false._4
end type
private::conductivity
private::setup
private::fluxes
private::advance
contains
elemental function conductivity(t,k0,beta) result(k)
real(8),intent(in)::t
real(8),intent(in)::k0
real(8),intent(in)::beta
real(8)::k
end
subroutine setup(rod,t0,k0,beta)
type(rod_t),intent(inout)::rod
real(8),intent(in)::t0(:)
real(8),intent(in)::k0
real(8),intent(in)::beta
end
pure subroutine fluxes(temp,kappa,dx,work,dtdt)
real(8),intent(in)::temp(:)
real(8),intent(in)::kappa(:)
real(8),intent(in)::dx
real(8),intent(inout)::work(:)
real(8),intent(out)::dtdt(:)
end
subroutine advance(rod,k0,beta,nsteps)
type(rod_t),intent(inout)::rod
real(8),intent(in)::k0
real(8),intent(in)::beta
integer(4),intent(in)::nsteps
end
function rod_objective(t0,n,k0,beta,nsteps) bind(c,name="rod_objective") result(obj)
integer(4),value::n
real(8),intent(in)::t0(1_8:int(n,kind=8))
real(8),value::k0
real(8),value::beta
integer(4),value::nsteps
real(8)::obj
end
end
