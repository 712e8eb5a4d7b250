!mod$ v1 sum:8b85b657f736b02e
!need$ fc1ab5ddb0e0d965 i iso_c_binding
module enzyme_markers
use,intrinsic::iso_c_binding,only:c_int
integer(4),bind(c,name="enzyme_dup")::enzyme_dup
integer(4),bind(c,name="enzyme_const")::enzyme_const
end
