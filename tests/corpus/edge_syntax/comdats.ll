; comdat kinds, quoted comdat names, implicit comdat(name)
$any = comdat any
$exact = comdat exactmatch
$"quoted comdat" = comdat largest
$nodup = comdat nodeduplicate
$same = comdat samesize

@g1 = linkonce_odr global i32 1, comdat($any)
@g2 = global i32 2, comdat($any)
@g3 = weak global i64 3, comdat($"quoted comdat")
@exact = linkonce global i8 4, comdat($exact)
@nodup = global i8 5, comdat
@same = global i8 6, comdat
@g2x = global i8 7, comdat($nodup)

define linkonce_odr i32 @any() comdat {
  ret i32 0
}
