!mod$ v1 sum:6f4f7a419bbb92e6
!need$ fc1ab5ddb0e0d965 i iso_c_binding
module particle_cloud
use,intrinsic::iso_c_binding,only:c_double
use,intrinsic::iso_c_binding,only:c_int
private::c_double
private::c_int
type,private::particle_t
real(8)::x(1_8:3_8)
real(8)::charge
integer(4)::species
end type
private::pair_energy
private::relax
contains
pure function pair_energy(r,qi,qj) result(e)
real(8),intent(in)::r
real(8),intent(in)::qi
real(8),intent(in)::qj
real(8)::e
end
subroutine relax(cloud,force,step)
type(particle_t),intent(inout)::cloud(:)
real(8),intent(inout)::force(:,:)
real(8),intent(in)::step
end
function cloud_energy(coords,n) bind(c,name="cloud_energy") result(total)
integer(4),value::n
real(8),intent(in)::coords(1_8:4_8,1_8:int(n,kind=8))
real(8)::total
end
end
