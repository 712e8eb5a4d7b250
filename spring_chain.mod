!mod$ v1 sum:4ef4ea66f1e47e73
!need$ fc1ab5ddb0e0d965 i iso_c_binding
module spring_chain
use,intrinsic::iso_c_binding,only:c_double
use,intrinsic::iso_c_binding,only:c_int
contains
function chain_energy(x,n) bind(c,name="chain_energy") result(e)
integer(4),value::n
real(8),intent(in)::x(1_8:int(n,kind=8))
real(8)::e
end
end
