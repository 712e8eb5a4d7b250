; target("...") extension types in globals, arguments and allocas
@g = global target("spirv.DeviceEvent") zeroinitializer

define void @f(target("spirv.Image", i8, 0, 0, 0, 0, 0, 0, 0) %img, ptr %out) {
  %a = alloca target("spirv.DeviceEvent")
  store target("spirv.DeviceEvent") zeroinitializer, ptr %a
  ret void
}

declare target("aarch64.svcount") @svc(target("aarch64.svcount"))
