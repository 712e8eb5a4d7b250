; section, partition, align, addrspace, code_model, sanitizer and attribute groups on globals
@a = global i32 1, section "my_section", partition "part1", align 16
@b = addrspace(3) global float 0.0, align 4
@b2 = internal addrspace(1) constant i32 5
@c = internal unnamed_addr constant [3 x i8] c"ab\00", section ".rodata.str", align 1
@d = private local_unnamed_addr global double 1.5
@e = dso_local global i64 0, code_model "large"
@e2 = hidden global i64 0
@f = protected externally_initialized global i32 0
@g = external dllimport global i32
@h = extern_weak global i32
@i = common global i32 0, align 4
@j = available_externally global i32 4
@k = appending global [1 x ptr] [ptr @a]
@l = global i32 0, no_sanitize_address, sanitize_memtag
@m = global ptr addrspacecast (ptr addrspace(3) @b to ptr)
@n = global i32 7 #0

attributes #0 = { "bss-section"="mybss" }
