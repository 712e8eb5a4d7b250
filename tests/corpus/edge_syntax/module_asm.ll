; module-level inline assembly with escapes
module asm ".globl asm_symbol"
module asm "asm_symbol:"
module asm "  ret"
module asm "  .ascii \22quoted\22 \09tab"

declare void @asm_symbol()
